// Step 10, tile configuration 128x128x32_pl (10_warp_tiled_policies.cuh): the
// 128x128x32_ic configuration with paired lanes (LDS.128 fragment reads in 2
// shared-memory return cycles, not 4).
#include "families/gemm/10_warp_tiled_policies.cuh"

TESSERA_DEFINE_WARP_TILED(128x128x32_pl)
