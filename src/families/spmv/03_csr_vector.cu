// SpMV step 3 — CSR vector: a group of LANES threads per row, LANES a power
// of two from 2 to 32 chosen from the mean row length (a whole warp per row
// is the classic CSR-vector; a sub-warp fits short rows).
//
// What it changes over step 2: the group's lanes read consecutive entries
// of the row, so loads of values and columns are coalesced, and a long row
// is shared by LANES threads; the group adds its partial sums with
// __shfl_xor_sync inside the group (deterministic: fixed lanes, fixed
// tree). Left: rows much shorter than LANES waste lanes, rows much longer
// still serialise (32 lanes on a 1e5-entry row), and a warp still waits
// for its longest group. Expected: most of the bandwidth on stencils
// (mean 5 -> 8 lanes, mean 27 -> 32 lanes), less on power-law matrices.
#include <cmath>

#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"

namespace tessera::spmv_impl {

namespace {

template <class T, int LANES>
__global__ __launch_bounds__(gpu::BLOCK_THREADS) void csr_vector_kernel(std::int64_t rows,
                                                                        const std::int64_t* __restrict__ off,
                                                                        const std::int32_t* __restrict__ col,
                                                                        const T* __restrict__ val,
                                                                        const T* __restrict__ x, T* __restrict__ y,
                                                                        T alpha, T beta) {
  const std::int64_t thread = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  const std::int64_t r = thread / LANES;
  const int lane = int(thread % LANES);
  T sum = 0;
  if (r < rows)  // no early return: every lane of the warp takes part in the shuffles
    for (std::int64_t k = off[r] + lane; k < off[r + 1]; k += LANES) sum += val[k] * gpu::load_x(x, col[k]);
#pragma unroll
  for (int width = LANES / 2; width > 0; width /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, width, LANES);
  if (lane == 0 && r < rows) gpu::write_row(y, r, sum, alpha, beta);
}

template <class T, int LANES>
void launch_vector(const SpmvCall& c) {
  const auto kernel = csr_vector_kernel<T, LANES>;
  detail::launch("spmv_csr_vector_kernel", kernel,
                 dim3(gpu::blocks_for(c.spec.rows, gpu::BLOCK_THREADS / LANES)), dim3(gpu::BLOCK_THREADS), 0,
                 c.stream, std::size_t(c.spec.rows), c.spec.rows, c.a.row_offsets, c.a.col_indices,
                 static_cast<const T*>(c.a.values), static_cast<const T*>(c.x), static_cast<T*>(c.y), T(c.alpha),
                 T(c.beta));
}

}  // namespace

int csr_vector_lanes(const SpmvSpec& s) {
  const double mean = s.rows > 0 ? double(s.nnz) / double(s.rows) : 0.0;
  int lanes = 2;
  while (lanes < 32 && lanes < mean) lanes *= 2;
  return lanes;
}

void run_csr_vector(const SpmvCall& c) {
  if (c.spec.rows == 0) return;
  gpu::dispatch_value(c.spec.dtype, "csr_vector", [&]<class T>() {
    switch (csr_vector_lanes(c.spec)) {
      case 2: launch_vector<T, 2>(c); break;
      case 4: launch_vector<T, 4>(c); break;
      case 8: launch_vector<T, 8>(c); break;
      case 16: launch_vector<T, 16>(c); break;
      default: launch_vector<T, 32>(c); break;
    }
  });
}
std::size_t ws_csr_vector(const SpmvSpec&) { return 0; }
bool supports_csr_vector(const SpmvSpec& s) { return gpu::csr_supports(s); }

}  // namespace tessera::spmv_impl
