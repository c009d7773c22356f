// Transpose step 1: cache-blocked OpenMP. The matrix is cut into square
// BLOCK x BLOCK blocks, one block at a time per thread: inside a block the
// strided writes touch BLOCK output lines that stay in L1 until every element
// of each line has been written, instead of one line per element written
// (the CPU analogue of the shared-memory tile of the CUDA rungs).
#include <algorithm>
#include <cstdint>

#include "families/transpose/cpu_rungs.hpp"

namespace tessera::transpose_impl::cpu {

namespace {
// 64 x 64 elements: 16 KiB of input and 16 KiB of output for floats (32 + 32
// for doubles), within a 48 KiB L1d plus the L2 behind it.
constexpr std::size_t BLOCK = 64;
}  // namespace

void run_openmp_blocked(const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  if (s.rows == 0 || s.cols == 0) return;
  with_word(s.dtype, [&]<class W>() {
    const W* in = static_cast<const W*>(call.in);
    W* out = static_cast<W*>(call.out);
    const std::size_t blocks_r = (s.rows + BLOCK - 1) / BLOCK, blocks_c = (s.cols + BLOCK - 1) / BLOCK;
    const auto blocks = static_cast<std::int64_t>(blocks_r * blocks_c);
    // One flat loop over the blocks: a 1 x N or N x 1 matrix parallelises as
    // well as a square one.
#pragma omp parallel for schedule(static)
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::size_t i0 = static_cast<std::size_t>(b) / blocks_c * BLOCK;
      const std::size_t j0 = static_cast<std::size_t>(b) % blocks_c * BLOCK;
      const std::size_t i1 = std::min(i0 + BLOCK, s.rows), j1 = std::min(j0 + BLOCK, s.cols);
      for (std::size_t i = i0; i < i1; ++i)
        for (std::size_t j = j0; j < j1; ++j) out[j * s.ld_out + i] = in[i * s.ld_in + j];
    }
  });
}

}  // namespace tessera::transpose_impl::cpu
