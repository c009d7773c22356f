// The CUDA transpose ladder, one line per variant: name, step, kind, what the
// step adds (and the seed section it comes from), determinism, what it writes
// and its run function (rungs.hpp).
#if TESSERA_HAVE_CUDA  // the CUDA rows exist in CUDA builds only
#include <array>
#include <span>

#include "families/transpose/cuda_rungs.hpp"
#include "families/transpose/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::transpose_impl {

using namespace ladder::roles;

namespace {

constexpr Backend CUDA = Backend::cuda;
constexpr Output T = Output::transpose;

// Every CUDA rung moves 4- or 8-byte words.
bool supports_words(const TransposeSpec& s) { return word_sized(s.dtype); }

#define TESSERA_RUNG(name) supports_words, nullptr, run_##name

// Step 2 holds the seed's two baselines: the lower bound first (the harness
// measures "vs naive" against the first row of the lowest step), its mirror
// image, and the copy bound (Output::copy: checked as a copy, never a transpose).
const std::array<TransposeVariant, 18> cuda_table{{
    {{"transpose", "naive_strided_write", 2, CUDA, TAUGHT, "lower bound: one element per thread, coalesced read, strided write (seed 000 Transpose naiveGmem; seed 004 Ex 3 Transpose_v0)", true}, T, TESSERA_RUNG(naive_strided_write)},
    {{"transpose", "naive_strided_read", 2, CUDA, TAUGHT, "the mirror image: strided read, coalesced write; Hopper caches strided reads, not strided writes (seed 000 Transpose, baseline reversed)", true}, T, TESSERA_RUNG(naive_strided_read)},
    {{"transpose", "copy_bound", 2, CUDA, TAUGHT, "upper bound, NOT a transpose: copies the input (checked as a copy) with unroll4's tiling, both sides coalesced (seed 000 Transpose copyGmem)", true}, Output::copy, TESSERA_RUNG(copy_bound)},
    {{"transpose", "shared_tile", 3, CUDA, TAUGHT, "32x32 tile in shared memory, coalesced read and write; 32-way bank conflicts on the column read (seed 000 Rectangle Shared Memory; seed 004 Ex 3 Transpose_v1)", true}, T, TESSERA_RUNG(shared_tile)},
    {{"transpose", "padded_tile", 4, CUDA, TAUGHT, "tile rows padded to 33 elements: the column read hits 32 banks, no conflicts (seed 000 Rectangle Shared Memory Padded)", true}, T, TESSERA_RUNG(padded_tile)},
    {{"transpose", "unroll2", 5, CUDA, TAUGHT, "32x16 threads per padded 32x32 tile: 2 elements per thread, 2 loads in flight (seed 000 Transpose Unroll)", true}, T, TESSERA_RUNG(unroll2)},
    {{"transpose", "unroll4", 5, CUDA, TAUGHT, "32x8 threads per padded 32x32 tile: 4 elements per thread, 4 loads in flight (seed 000 Transpose Unroll)", true}, T, TESSERA_RUNG(unroll4)},
    {{"transpose", "tile16_16x16", 6, CUDA, TAUGHT, "block shape: 16x16 tile, 16x16 threads, 1 element each (seed 000 Transpose Tunning: the K40's best)", true}, T, TESSERA_RUNG(tile16_16x16)},
    {{"transpose", "tile16_16x8", 6, CUDA, TAUGHT, "block shape: 16x16 tile, 16x8 threads, 2 elements each (seed 000 Transpose Tunning)", true}, T, TESSERA_RUNG(tile16_16x8)},
    {{"transpose", "tile32_32x4", 6, CUDA, TAUGHT, "block shape: 32x32 tile, 32x4 threads, 8 elements each (seed 000 Transpose Tunning)", true}, T, TESSERA_RUNG(tile32_32x4)},
    {{"transpose", "tile64_64x8", 6, CUDA, TAUGHT, "block shape: 64x64 tile, 64x8 threads, 8 elements each, 256-byte runs (seed 000 Transpose Tunning)", true}, T, TESSERA_RUNG(tile64_64x8)},
    {{"transpose", "tile64_64x16", 6, CUDA, TAUGHT, "block shape: 64x64 tile, 64x16 threads, 4 elements each (seed 000 Transpose Tunning)", true}, T, TESSERA_RUNG(tile64_64x16)},
    {{"transpose", "grouped_order", 7, CUDA, PRODUCT, "unroll4 with blocks walking bands of 16 tile rows column by column: resident blocks cover a square, output rows written in KiB runs", true}, T, TESSERA_RUNG(grouped_order)},
    {{"transpose", "vec16_swizzle", 7, CUDA, PRODUCT, "16-byte loads and stores on both sides through an XOR-swizzled 16 KiB tile (no padding, no conflicts); padded tile when unaligned", true}, T, TESSERA_RUNG(vec16_swizzle)},
    {{"transpose", "vec16_grouped", 7, CUDA, PRODUCT, "vec16_swizzle in grouped tile order", true}, T, TESSERA_RUNG(vec16_grouped)},
    {{"transpose", "vec16_persistent", 7, CUDA, TUNING, "vec16_swizzle with a balanced persistent grid, at most 4 blocks per SM: each block loads its next tile into registers before writing the current one", true}, T, TESSERA_RUNG(vec16_persistent)},
    {{"transpose", "vec16_persistent_cs", 7, CUDA, TUNING, "vec16_persistent with streaming cache hints (ld.global.cs / st.global.cs: evict-first, every byte touched once)", true}, T, TESSERA_RUNG(vec16_persistent_cs)},
    {{"transpose", "vec16_persistent2", 7, CUDA, TUNING, "vec16_persistent with at most 2 blocks per SM (~4 MiB requested at once)", true}, T, TESSERA_RUNG(vec16_persistent2)},
}};

#undef TESSERA_RUNG

}  // namespace

std::span<const TransposeVariant> cuda_variants() { return cuda_table; }

}  // namespace tessera::transpose_impl

#endif  // TESSERA_HAVE_CUDA
