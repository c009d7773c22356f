// The CUDA reduce ladder, one line per variant: name, step, kind, what the
// step adds (and the seed section it comes from), determinism, and the
// supports / workspace / run functions of its rung (rungs.hpp).
#if TESSERA_HAVE_CUDA  // the CUDA rows exist in CUDA builds only
#include <array>
#include <span>

#include "families/reduce/cuda_rungs.hpp"
#include "families/reduce/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::reduce_impl {

using namespace ladder::roles;

namespace {

#define TESSERA_RUNG(name) supports_##name, ws_##name, run_##name

constexpr Backend CUDA = Backend::cuda;

const std::array<ReduceVariant, 15> cuda_table{{
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
}};

#undef TESSERA_RUNG

}  // namespace

std::span<const ReduceVariant> cuda_variants() { return cuda_table; }

}  // namespace tessera::reduce_impl

#endif  // TESSERA_HAVE_CUDA
