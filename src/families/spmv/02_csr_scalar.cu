// SpMV step 2 — CSR scalar: one thread per row (seed 000 SpMV, "CSR").
//
// Each thread walks its row's nonzeros and writes its y. Simple and
// correct, and the seed names its two faults: a warp's 32 rows have
// different lengths, so the warp runs as long as its longest row
// (divergence, and a block as long as its longest warp); and consecutive
// threads read values and columns a row apart, so no load is coalesced:
// each 4-byte value costs a 32-byte sector. Expected: a fraction of the
// bandwidth on stencils (5-27 entries a row: ~1/4 of each sector used) and
// a stall on power-law rows (one thread walks 1e5 entries).
#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"

namespace tessera::spmv_impl {

namespace {

template <class T>
__global__ __launch_bounds__(gpu::BLOCK_THREADS) void csr_scalar_kernel(std::int64_t rows,
                                                                        const std::int64_t* __restrict__ off,
                                                                        const std::int32_t* __restrict__ col,
                                                                        const T* __restrict__ val,
                                                                        const T* __restrict__ x, T* __restrict__ y,
                                                                        T alpha, T beta) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  T sum = 0;
  for (std::int64_t k = off[r]; k < off[r + 1]; ++k) sum += val[k] * gpu::load_x(x, col[k]);
  gpu::write_row(y, r, sum, alpha, beta);
}

}  // namespace

void run_csr_scalar(const SpmvCall& c) {
  if (c.spec.rows == 0) return;
  gpu::dispatch_value(c.spec.dtype, "csr_scalar", [&]<class T>() {
    detail::launch("spmv_csr_scalar_kernel", csr_scalar_kernel<T>,
                   dim3(gpu::blocks_for(c.spec.rows, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, c.stream,
                   std::size_t(c.spec.rows), c.spec.rows, c.a.row_offsets, c.a.col_indices,
                   static_cast<const T*>(c.a.values), static_cast<const T*>(c.x), static_cast<T*>(c.y), T(c.alpha),
                   T(c.beta));
  });
}
std::size_t ws_csr_scalar(const SpmvSpec&) { return 0; }
bool supports_csr_scalar(const SpmvSpec& s) { return gpu::csr_supports(s); }

}  // namespace tessera::spmv_impl
