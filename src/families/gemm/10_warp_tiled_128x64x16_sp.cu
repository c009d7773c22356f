// Step 10, tile configuration 128x64x16_sp (10_warp_tiled_policies.cuh): the
// warp-tiled kernel's instantiations for this configuration, with serpentine
// multiply-adds (10_warp_tiled.cuh, "Serpentine multiply-adds").
#include "families/gemm/10_warp_tiled_policies.cuh"

TESSERA_DEFINE_WARP_TILED(128x64x16_sp)
