// Step 5, the lab's sweep of the fused pipelined kernel, continued: the
// LeanChain and LazyChain policies (pipelined_kernel.cuh), in a translation
// unit of their own as when they were measured (the code nvcc gives a kernel
// depends on what else its translation unit holds: with the other sweep rows
// these rows compiled to other instructions). Figures as in
// 05_fused_pipelined_sweep.cu.
#include "batched_scan/lab_rungs.hpp"
#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl {

using gpu_detail::LazyChainPolicy;
using gpu_detail::LeanChainPolicy;

// two_chains with inclusive / exclusive copies, tile_io_lean.cuh's 32-bit
// unrolled float4 loops and no 64-bit division for a tile's row (~850 -> ~550
// instructions per thread and row for double; bitwise two_chains): 87.5 /
// 89.0 / 82.4 / 75.8 (-23d), the double and Kahan pick until the lazy sums.
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_two_chains_lean, LeanChainPolicy<2>, 2, false)
// The same with 4 chains of 7 (80 registers, no spills): 87.5 / 88.8 / 82.1
// / 77.5 (-23d), the double-float pick until the lazy sums.
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_four_chains_lean, LeanChainPolicy<4>, 2, false)
// two_chains_lean with lazy double-float and Kahan sums: double 90.1, Kahan
// 87.8, double-float 87.4 (-23f; 1 / 2 / 4 chains 87.4 / 87.3 / 87.0); with
// bulk copies it is fused_pipelined_lazy_bulk (bitwise the same).
TESSERA_FUSED_PIPELINED_RUNG(fused_pipelined_lazy, LazyChainPolicy<2>, 2, false)

}  // namespace tessera::batched_scan_impl
