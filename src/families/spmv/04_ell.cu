// SpMV step 4 — ELL: every row padded to the longest row's length, stored
// column-major (seed 000 SpMV, "ELL": padded and transposed).
//
// What it changes over step 3: thread r reads entry k of row r at
// k * rows + r, so a warp's 32 loads of one step are 32 consecutive
// addresses (coalesced with one thread per row, no row offsets read), and
// every thread runs the same number of steps up to its first padding
// entry. The price is the padding: rows * width cells whatever the lengths,
// so ELL is as good as CSR on stencils (width 5 for a 5-point Laplacian's
// 4.98 mean) and impossible on power-law matrices (width 1e5 x 2M rows):
// the bench skips it when the padded format passes ELL_MAX_FOOTPRINT times
// the CSR bytes. Expected: near the bandwidth of its (padded) bytes.
#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"

namespace tessera::spmv_impl {

namespace gpu {

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void ell_kernel(EllView e, const T* __restrict__ x, T* __restrict__ y,
                                                            T alpha, T beta) {
  const std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (r >= e.rows) return;
  const T* __restrict__ val = static_cast<const T*>(e.val);
  T sum = 0;
  for (std::int64_t k = 0; k < e.width; ++k) {
    const std::int64_t at = k * e.rows + r;
    const std::int32_t c = e.col[at];
    if (c < 0) break;  // padding: the rest of the row is padding too
    sum += val[at] * load_x(x, c);
  }
  write_row(y, r, sum, alpha, beta);
}

// The ELL part of hyb too (06_hyb.cu).
template <class T>
void launch_ell(const EllView& e, const SpmvCall& c) {
  if (e.rows == 0) return;
  detail::launch("spmv_ell_kernel", ell_kernel<T>, dim3(blocks_for(e.rows, BLOCK_THREADS)), dim3(BLOCK_THREADS), 0,
                 c.stream, std::size_t(e.rows), e, static_cast<const T*>(c.x), static_cast<T*>(c.y), T(c.alpha),
                 T(c.beta));
}
template void launch_ell<float>(const EllView&, const SpmvCall&);
template void launch_ell<double>(const EllView&, const SpmvCall&);

}  // namespace gpu

void run_ell(const SpmvCall& c) {
  const auto& plan = gpu::plan_of<gpu::EllPlan>(c, "ell");
  gpu::dispatch_value(c.spec.dtype, "ell", [&]<class T>() { gpu::launch_ell<T>(plan.view, c); });
}
std::size_t ws_ell(const SpmvSpec&) { return 0; }
bool supports_ell(const SpmvSpec& s) { return gpu::format_supports(s); }

}  // namespace tessera::spmv_impl
