// spmv_batched's GPU variant: csr_nnz_split (nnz_split_kernels.cuh) over the
// whole batch in one pass, as if it were one block-diagonal matrix.
//
//   1. expand: every matrix's own offsets plus its nnz start, into one
//      global offsets array in the workspace (a block per matrix, no
//      search; (rows + 1) * 8 B written, rows + count read back);
//   2. csr_nnz_split's three launches on the global offsets: tiles of 1024
//      nonzeros that cross matrix boundaries freely, so 10,000 matrices of
//      a few thousand entries fill the GPU like one big one. y is already
//      concatenated in row order, so rows need no translation; only x does:
//      nonzero k multiplies x[col_starts[m] + col[k]] for its matrix m.
//      BatchX finds the matrices of a tile's first and last nonzero once
//      (binary search in nnz_starts); in a tile inside one matrix (most of
//      them when matrices hold more than a tile) every load adds that
//      matrix's column start, otherwise each nonzero searches the tile's
//      few matrices.
// Deterministic: the sums are csr_nnz_split's, in fixed order.
#include <cstdint>

#include "families/spmv/batched.hpp"
#include "families/spmv/nnz_split_kernels.cuh"

namespace tessera::spmv_impl::batched {

namespace {

template <class T>
struct BatchX {
  const T* x;
  const std::int64_t* nnz_starts;
  const std::int64_t* col_starts;
  std::int64_t count;
  std::int64_t lo = 0, hi = 0, base = 0;  // the tile's matrices [lo, hi], matrix lo's column start

  __device__ void start_tile(std::int64_t begin, std::int64_t end) {
    lo = matrix_of(nnz_starts, 0, count - 1, begin);
    hi = matrix_of(nnz_starts, lo, count - 1, end - 1);
    base = col_starts[lo];
  }
  __device__ __forceinline__ T load(std::int64_t k, std::int32_t c) const {
    const std::int64_t from = lo == hi ? base : col_starts[matrix_of(nnz_starts, lo, hi, k)];
    return gpu::load_x(x, from + c);
  }
};

__global__ void expand_offsets_kernel(std::int64_t count, const std::int64_t* __restrict__ row_starts,
                                      const std::int64_t* __restrict__ nnz_starts,
                                      const std::int64_t* __restrict__ local, std::int64_t rows, std::int64_t nnz,
                                      std::int64_t* __restrict__ global) {
  for (std::int64_t b = blockIdx.x; b < count; b += gridDim.x) {
    const std::int64_t first = row_starts[b], n = row_starts[b + 1] - first, start = nnz_starts[b];
    const std::int64_t* own = local + first + b;
    for (std::int64_t r = threadIdx.x; r < n; r += blockDim.x) global[first + r] = start + own[r];
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) global[rows] = nnz;
}

std::size_t offsets_bytes(const BatchSpec& s) { return nnz_split_gpu::align256(std::size_t(s.rows + 1) * 8); }

}  // namespace

std::size_t ws_batched_nnz_split(const BatchSpec& s) {
  return offsets_bytes(s) + nnz_split_gpu::cut_bytes(nnz_split::tiles_of(s.nnz), value_bytes(s.dtype));
}

void run_batched_nnz_split(const BatchCall& c) {
  const BatchSpec& s = c.spec;
  if (s.rows == 0) return;
  const auto stream = static_cast<cudaStream_t>(c.stream);
  auto* global = static_cast<std::int64_t*>(c.workspace);
  void* cut_space = static_cast<unsigned char*>(c.workspace) + offsets_bytes(s);
  const unsigned grid = unsigned(s.count < (1 << 20) ? s.count : (1 << 20));
  detail::launch("spmv_batched_expand_offsets_kernel", expand_offsets_kernel, dim3(grid), dim3(gpu::BLOCK_THREADS),
                 0, stream, std::size_t(s.rows + 1), s.count, c.a.row_starts, c.a.nnz_starts, c.a.row_offsets, s.rows,
                 s.nnz, global);
  gpu::dispatch_value(s.dtype, "batched_nnz_split", [&]<class T>() {
    const BatchX<T> xs{static_cast<const T*>(c.x), c.a.nnz_starts, c.a.col_starts, s.count};
    nnz_split_gpu::launch_nnz_split<T>(s.rows, s.nnz, global, c.a.col_indices, static_cast<const T*>(c.a.values), xs,
                                       static_cast<T*>(c.y), T(c.alpha), T(c.beta), cut_space, stream);
  });
}

}  // namespace tessera::spmv_impl::batched
