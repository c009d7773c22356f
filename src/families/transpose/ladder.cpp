// The transpose ladder, one line per variant: the only place a variant's
// name, step, role and `adds` are written. CPU rungs, the CUDA rungs and the
// vendor baseline (CUDA builds only); the lab adds its tuning rows
// (lab/transpose/) at start-up. Sorted by step, stably, so table order breaks
// ties: step 2 keeps naive_strided_write first, the row the harness measures
// "vs naive" against.
#include <span>

#include "families/transpose/contract.hpp"
#include "families/transpose/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/transpose/cuda_rungs.hpp"
#endif

namespace tessera::transpose_impl {

bool word_sized(Dtype t) {
  return t == Dtype::f32 || t == Dtype::f64 || t == Dtype::i32 || t == Dtype::i64 || t == Dtype::u32;
}

namespace {

using namespace ladder::roles;

constexpr Output T = Output::transpose;

// The CPU moves any element size of 1, 4 or 8 bytes.
bool supports_any_element(const TransposeSpec& s) {
  const std::size_t e = size_of(s.dtype);
  return e == 1 || e == 4 || e == 8;
}

#if TESSERA_HAVE_CUDA
// Every tessera CUDA rung moves 4- or 8-byte words.
bool supports_words(const TransposeSpec& s) { return word_sized(s.dtype); }
#define TESSERA_RUNG(name) supports_words, nullptr, run_##name
#endif

const TransposeVariant TABLE[] = {
    {{"transpose", "cpu_reference", 0, CPU, REFERENCE, "serial double loop out[j][i] = in[i][j], input read row by row (seed 000 Transpose: the definition)", true}, T, supports_any_element, nullptr, cpu::run_reference},
    {{"transpose", "cpu_openmp_blocked", 1, CPU, REFERENCE, "OpenMP over 64x64 cache blocks: each output line written whole while it is in L1 (the CPU's shared-memory tile)", true}, T, supports_any_element, nullptr, cpu::run_openmp_blocked},
#if TESSERA_HAVE_CUDA
    // Step 2 holds the seed's two baselines: the lower bound first, its
    // mirror image, and the copy bound (Output::copy: checked as a copy,
    // never a transpose).
    {{"transpose", "naive_strided_write", 2, CUDA, TAUGHT, "lower bound: one element per thread, coalesced read, strided write (seed 000 Transpose naiveGmem; seed 004 Ex 3 Transpose_v0)", true}, T, TESSERA_RUNG(naive_strided_write)},
    {{"transpose", "naive_strided_read", 2, CUDA, TAUGHT, "the mirror image: strided read, coalesced write; Hopper caches strided reads, not strided writes (seed 000 Transpose, baseline reversed)", true}, T, TESSERA_RUNG(naive_strided_read)},
    {{"transpose", "copy_bound", 2, CUDA, TAUGHT, "upper bound, NOT a transpose: copies the input (checked as a copy) with unroll4's tiling, both sides coalesced (seed 000 Transpose copyGmem)", true}, Output::copy, TESSERA_RUNG(copy_bound)},
    {{"transpose", "shared_tile", 3, CUDA, TAUGHT, "32x32 tile in shared memory, coalesced read and write; 32-way bank conflicts on the column read (seed 000 Rectangle Shared Memory; seed 004 Ex 3 Transpose_v1)", true}, T, TESSERA_RUNG(shared_tile)},
    {{"transpose", "padded_tile", 4, CUDA, TAUGHT, "tile rows padded to 33 elements: the column read hits 32 banks, no conflicts (seed 000 Rectangle Shared Memory Padded)", true}, T, TESSERA_RUNG(padded_tile)},
    {{"transpose", "unroll2", 5, CUDA, TAUGHT, "32x16 threads per padded 32x32 tile: 2 elements per thread, 2 loads in flight (seed 000 Transpose Unroll)", true}, T, TESSERA_RUNG(unroll2)},
    {{"transpose", "unroll4", 5, CUDA, TAUGHT, "32x8 threads per padded 32x32 tile: 4 elements per thread, 4 loads in flight (seed 000 Transpose Unroll)", true}, T, TESSERA_RUNG(unroll4)},
    {{"transpose", "tile16_16x16", 6, CUDA, TAUGHT, "block shape: 16x16 tile, 16x16 threads, 1 element each (seed 000 Transpose Tunning: the K40's best)", true}, T, TESSERA_RUNG(tile16_16x16)},
    {{"transpose", "tile64_64x8", 6, CUDA, PRODUCT, "block shape: 64x64 tile, 64x8 threads, 8 elements each, 256-byte runs (seed 000 Transpose Tunning: the H100's best, the API's transpose)", true}, T, TESSERA_RUNG(tile64_64x8)},
    {{"transpose", "cublas_geam", 8, CUDA, VENDOR, "cublasSgeam / cublasDgeam with op(A) = A^T, alpha = 1, beta = 0 (vendor baseline; handle created outside the timed region)", true}, T, supports_cublas_geam, prepare_cublas_geam, run_cublas_geam},
#endif
};

#undef TESSERA_RUNG

}  // namespace

ladder::Ladder<TransposeVariant>& variants_ladder() {
  static ladder::Ladder<TransposeVariant> ladder{std::span<const TransposeVariant>(TABLE)};
  return ladder;
}

}  // namespace tessera::transpose_impl
