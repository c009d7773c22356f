// The moving_average ladder, one line per variant: the only place a
// variant's name, step, role and `adds` are written. CPU rungs always; the
// CUDA rungs in CUDA builds. No vendor row: neither CUB, cuBLAS nor cuDNN has
// a 1-D moving average (cuDNN's convolutions take 4-D tensors; the conv
// family measures against them).
#include <span>

#include "families/moving_average/contract.hpp"
#include "families/moving_average/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/moving_average/cuda_rungs.hpp"
#endif

namespace tessera::moving_average_impl {

namespace {

using namespace ladder::roles;

bool supports_cpu(const MovingAverageSpec& s) { return s.dtype == Dtype::f32 || s.dtype == Dtype::f64; }
std::size_t no_workspace(const MovingAverageSpec&) { return 0; }

constexpr Precision WINDOW = Precision::window;

const MovingAverageVariant TABLE[] = {
    {{"moving_average", "cpu_reference", 0, CPU, REFERENCE, "serial definition out[i] = sum_j w[j] x[i+j-w/2], double accumulation, edge rule per sample (seed 004 Moyenne glissante)", true}, WINDOW, Accum::f64, supports_cpu, no_workspace, cpu::run_reference},
    {{"moving_average", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP over chunks of 4096 outputs, double accumulation; box filters slide a running sum re-anchored per chunk (O(n))", true}, WINDOW, Accum::f64, supports_cpu, no_workspace, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"moving_average", "juxtaposed_halo", 2, CUDA, TAUGHT, "3-point weighted average, juxtaposed blocks: one sample per thread into shared memory, the block ends' halo read from global memory (seed 004 Ex 1, v2)", true}, WINDOW, Accum::native, supports_three_point, no_workspace, run_juxtaposed_halo},
    {{"moving_average", "overlapping_blocks", 3, CUDA, TAUGHT, "3-point weighted average, blocks overlapping by 2 samples: every read from shared memory, 2 idle threads per block (seed 004 Ex 2, v4)", true}, WINDOW, Accum::native, supports_three_point, no_workspace, run_overlapping_blocks},
    {{"moving_average", "shared_window", 4, CUDA, PRODUCT, "any w and weights: tile + halo staged with float4 loads, weights in shared memory, 7 outputs per thread from a register window (one shared read per 7 FMAs), float4 stores (seed 004 Ex 2 generalised)", true}, WINDOW, Accum::native, supports_shared_window, no_workspace, run_shared_window},
    {{"moving_average", "running_sum_global", 5, CUDA, TAUGHT, "box filter as P[i+h+1] - P[i-h] from one float prefix of the whole array (tessera::inclusive_scan): O(1) per output, but 5 passes over memory and an error growing with |P|", false}, Precision::global_prefix, Accum::native, supports_running_sum_global, ws_running_sum_global, run_running_sum_global},
    {{"moving_average", "running_sum_tiled_float", 6, CUDA, TAUGHT, "box filter in one pass: each 4096-output tile scans its samples + halo in shared memory (block scan) and subtracts; the prefix re-anchored per tile, accumulated in float", true}, Precision::tile_prefix, Accum::native, supports_running_sum_tiled_float, no_workspace, run_running_sum_tiled_float},
    {{"moving_average", "running_sum_tiled", 6, CUDA, PRODUCT, "the tiled running sum accumulated in double: the subtraction's cancellation removed, each output its exact value rounded once (the compensated variant; H100 FP64 adds keep it memory-bound)", true}, Precision::tile_prefix, Accum::f64, supports_running_sum_tiled, no_workspace, run_running_sum_tiled},
    {{"moving_average", "running_sum_segmented", 7, CUDA, PRODUCT, "the tiled running sum with a float prefix re-anchored every 128 samples (one per warp, no block scan) and only the segment totals scanned in double: float work per sample, error bounded by 20 eps of the window and the 127 samples before it, whatever w and the position", true}, Precision::segment_prefix, Accum::native, supports_running_sum_segmented, no_workspace, run_running_sum_segmented},
#endif
};

}  // namespace

ladder::Ladder<MovingAverageVariant>& variants_ladder() {
  static ladder::Ladder<MovingAverageVariant> ladder{std::span<const MovingAverageVariant>(TABLE)};
  return ladder;
}

}  // namespace tessera::moving_average_impl
