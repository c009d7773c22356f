// The reduce ladder: one row per variant, the only place a variant's name,
// step, role and `adds` are written. CPU rungs in every build; the CUDA rungs
// and the vendor baseline in CUDA builds (their run / workspace / supports
// functions: cuda_rungs.hpp). The lab adds no rows to this family.
#include "families/reduce/contract.hpp"
#include "families/reduce/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#include "tessera/blocks/reducers.hpp"

#if TESSERA_HAVE_CUDA
#include "families/reduce/cuda_rungs.hpp"
#endif

namespace tessera::reduce_impl {

using namespace ladder::roles;

namespace {

bool supports_any(const ReduceSpec& s) {
  return dispatch_reducer(s.dtype, s.op, s.accum, []<class>() {});
}
std::size_t no_workspace(const ReduceSpec&) { return 0; }

#define TESSERA_RUNG(name) supports_##name, ws_##name, run_##name

const ReduceVariant kLadder[] = {
    {{"reduce", "cpu_reference", 0, CPU, REFERENCE, "serial loop; float sums in compensated long double, integers exact (seed 000 Reduction: sequential O(n))", true}, supports_any, no_workspace, cpu::run_reference},
    {{"reduce", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP: a private accumulator per thread, combined in thread order (privatization, seed 000)", true}, supports_any, no_workspace, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"reduce", "neighbored_divergent", 2, CUDA, TAUGHT, "one element per thread in shared memory, neighbored pairs, stride growing, tid % (2*stride) active: divergent (seed 000 Reduction; seed 004 optimized reduction)", true}, TESSERA_RUNG(neighbored_divergent)},
    {{"reduce", "neighbored_contiguous", 3, CUDA, TAUGHT, "neighbored pairs on contiguous threads (index = 2*stride*tid): no divergence, bank conflicts remain (seed 000 Reduced Divergence; seed 004)", true}, TESSERA_RUNG(neighbored_contiguous)},
    {{"reduce", "interleaved", 4, CUDA, TAUGHT, "interleaved pairs, stride shrinking from blockDim/2: no bank conflicts (seed 000 Reduce bank conflict; seed 004)", true}, TESSERA_RUNG(interleaved)},
    {{"reduce", "early_exit_atomic", 5, CUDA, TAUGHT, "idle threads return early, one atomic per block into a single accumulator, one pass (seed 004 shared-memory reduction)", false}, TESSERA_RUNG(early_exit_atomic)},
    {{"reduce", "early_exit_two_pass", 5, CUDA, TAUGHT, "idle threads return early, block partials reduced by further passes instead of atomics (seed 004 shared-memory reduction)", true}, TESSERA_RUNG(early_exit_two_pass)},
    {{"reduce", "first_add_during_load", 6, CUDA, TAUGHT, "each thread adds two elements while loading: half the blocks, no idle thread at the first level (seed 000 Algorithm Cascading)", true}, TESSERA_RUNG(first_add_during_load)},
    {{"reduce", "unroll2", 6, CUDA, TAUGHT, "each block reduces 2 data blocks, the loads issued before the adds (seed 000 Algorithm Cascading, unroll 2)", true}, TESSERA_RUNG(unroll2)},
    {{"reduce", "unroll4", 6, CUDA, TAUGHT, "each block reduces 4 data blocks: 4 loads in flight per thread (seed 000 Algorithm Cascading, unroll 4)", true}, TESSERA_RUNG(unroll4)},
    {{"reduce", "unroll8", 6, CUDA, TAUGHT, "each block reduces 8 data blocks: 8 loads in flight per thread (seed 000 Algorithm Cascading, unroll 8)", true}, TESSERA_RUNG(unroll8)},
    {{"reduce", "grid_stride", 6, CUDA, TAUGHT, "fixed grid of SMs x resident blocks, grid-stride loop with 4 loads in flight, one more pass over the grid partials (seed 000 Cyclic Partitioning)", true}, TESSERA_RUNG(grid_stride)},
    {{"reduce", "last_warp_unroll", 7, CUDA, TAUGHT, "unroll-8 loads + the last warp unrolled without barriers, ordered by __syncwarp (Volta-safe) (seed 000 Warp Unroll)", true}, TESSERA_RUNG(last_warp_unroll)},
    {{"reduce", "complete_unroll", 8, CUDA, TAUGHT, "block size as a template: tree completely unrolled, runtime switch over 64..1024 (seed 000 Complete Unroll; seed 004 self-adapting template kernels)", true}, TESSERA_RUNG(complete_unroll)},
    {{"reduce", "warp_shuffle_down", 9, CUDA, TAUGHT, "__shfl_down_sync tree per warp, shared memory only for warp partials (seed 000 warp shuffle)", true}, TESSERA_RUNG(warp_shuffle_down)},
    {{"reduce", "warp_shuffle_xor", 9, CUDA, TAUGHT, "__shfl_xor_sync butterfly per warp, shared memory only for warp partials (seed 000 warp shuffle, XOR mode)", true}, TESSERA_RUNG(warp_shuffle_xor)},
    {{"reduce", "single_pass", 10, CUDA, PRODUCT, "persistent grid, 16-byte vector loads with head/tail peel, independent accumulators, last block combines partials in fixed order: one launch, deterministic", true}, TESSERA_RUNG(single_pass)},
    {{"reduce", "cub_device_reduce", 11, CUDA, VENDOR, "cub::DeviceReduce (Sum; TransformReduce with the reducer's lift/combine otherwise): the vendor baseline", true}, TESSERA_RUNG(cub_device_reduce)},
#endif
};

#undef TESSERA_RUNG

}  // namespace

ladder::Ladder<ReduceVariant>& variants_ladder() {
  static ladder::Ladder<ReduceVariant> ladder{kLadder};
  return ladder;
}

}  // namespace tessera::reduce_impl
