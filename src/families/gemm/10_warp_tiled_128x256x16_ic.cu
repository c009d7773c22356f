// Step 10, tile configuration 128x256x16_ic (10_warp_tiled_policies.cuh): the
// warp-tiled kernel's instantiations for this configuration, with the
// unguarded copy path for interior threads.
#include "families/gemm/10_warp_tiled_policies.cuh"

TESSERA_DEFINE_WARP_TILED(128x256x16_ic)
