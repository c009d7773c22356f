// SpMV step 8 (a candidate for regular rows of ~10-60 entries) — CSR with
// sub-warp groups and 16-byte loads: a group of LANES lanes per row, each
// lane taking 4 consecutive entries at a time (int4 columns; float4, or two
// double2, values), from the 4-aligned index at or before the row's start.
//
// Why: on the 27-point stencil (mean 27, all rows alike) csr_vector gives
// the row a whole warp (32 lanes, 4-byte loads, 5 shuffle steps, one row a
// warp: 0.44x cuSPARSE) and only the jds format beats the vendor (1.04x).
// With 4 entries a lane, 8 lanes cover a 27-entry row in one step (the
// aligned window has at most 30 + 3 entries), a warp does 4 rows, a row's
// loads are 2 vector loads a lane, and the tree has 3 steps. Entries of the
// aligned window outside the row are loaded (in bounds: they belong to the
// neighbouring rows) and masked. The vector path needs 16-byte aligned
// column and value arrays (cudaMalloc's are); otherwise, and for the last
// partial window of the arrays, the lane loads its entries one by one.
// Expected: ~90 % of copy on the stencil (csr_nnz_split 81 %, jds 92 %).
//
// Long rows: a group walking a row of 1e5 entries alone held the launch
// (11.1 ms on the power law, 0.9 % of copy). A group whose row passes
// LONG_STEPS steps of its lanes (16 x 4 x LANES entries) leaves it, and after
// the groups the whole block sums each such row (256 threads, strided,
// a fixed tree), as csr_scalar_guarded does: one __syncthreads_or when no row
// is long, and at worst the longest row / 256 steps. Deterministic.
#include <cstdint>

#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"

namespace tessera::spmv_impl {

namespace {

template <class T>
struct Quad {
  T v[4];
};

template <class T>
__device__ __forceinline__ Quad<T> load_quad(const T* p) {
  Quad<T> q;
  if constexpr (sizeof(T) == 4) {
    const float4 f = __ldg(reinterpret_cast<const float4*>(p));
    q.v[0] = f.x, q.v[1] = f.y, q.v[2] = f.z, q.v[3] = f.w;
  } else {
    const double2 a = __ldg(reinterpret_cast<const double2*>(p));
    const double2 b = __ldg(reinterpret_cast<const double2*>(p) + 1);
    q.v[0] = a.x, q.v[1] = a.y, q.v[2] = b.x, q.v[3] = b.y;
  }
  return q;
}

constexpr int WARPS = gpu::BLOCK_THREADS / 32;
constexpr std::int64_t LONG_STEPS = 16;  // a group's steps before its row goes to the block

template <class T>
__device__ __forceinline__ T warp_total(T v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// The block's sum of row `row` (every thread calls it), written by thread 0.
template <class T>
__device__ void block_row(std::int64_t row, const std::int64_t* __restrict__ off, const std::int32_t* __restrict__ col,
                          const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y, T alpha, T beta,
                          T* partial) {
  const int lane = int(threadIdx.x % 32), warp = int(threadIdx.x / 32);
  T sum = 0;
  const std::int64_t end = off[row + 1];
#pragma unroll 4
  for (std::int64_t k = off[row] + threadIdx.x; k < end; k += gpu::BLOCK_THREADS)
    sum += val[k] * gpu::load_x(x, col[k]);
  sum = warp_total(sum);
  if (lane == 0) partial[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    const T total = warp_total(lane < WARPS ? partial[lane] : T(0));
    if (lane == 0) gpu::write_row(y, row, total, alpha, beta);
  }
  __syncthreads();  // partial[] is reused by the next long row
}

template <class T, int LANES>
__global__ __launch_bounds__(gpu::BLOCK_THREADS) void csr_subwarp_vec4_kernel(
    std::int64_t rows, std::int64_t nnz, bool aligned, const std::int64_t* __restrict__ off,
    const std::int32_t* __restrict__ col, const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y,
    T alpha, T beta) {
  const std::int64_t thread = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  const std::int64_t r = thread / LANES;
  const int lane = int(thread % LANES);
  constexpr int GROUPS = gpu::BLOCK_THREADS / LANES;
  __shared__ bool long_group[GROUPS];
  __shared__ T partial[WARPS];
  T sum = 0;
  bool is_long = false;
  if (r < rows) {
    const std::int64_t begin = off[r], end = off[r + 1];
    is_long = end - begin > LONG_STEPS * 4 * LANES;
    if (lane == 0) long_group[threadIdx.x / LANES] = is_long;
    for (std::int64_t k = is_long ? end : (begin & ~std::int64_t(3)) + 4 * lane; k < end; k += 4 * LANES) {
      if (aligned && k + 4 <= nnz) {
        const int4 c = __ldg(reinterpret_cast<const int4*>(col + k));
        const Quad<T> v = load_quad(val + k);
        const int cs[4] = {c.x, c.y, c.z, c.w};
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (k + j >= begin && k + j < end) sum += v.v[j] * gpu::load_x(x, cs[j]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (k + j >= begin && k + j < end) sum += val[k + j] * gpu::load_x(x, col[k + j]);
      }
    }
  }
  // Every lane of the warp is here (rows past the end add zeros): the
  // group's fixed xor tree.
  for (int d = LANES / 2; d > 0; d /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, d, LANES);
  if (r < rows && !is_long && lane == 0) gpu::write_row(y, r, sum, alpha, beta);
  if (!__syncthreads_or(is_long)) return;  // the regular case: no row of this block is long
  const std::int64_t first_row = blockIdx.x * std::int64_t(GROUPS);
  for (int g = 0; g < GROUPS; ++g)
    if (first_row + g < rows && long_group[g]) block_row(first_row + g, off, col, val, x, y, alpha, beta, partial);
}

template <class T, int LANES>
void launch_subwarp(const SpmvCall& c) {
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  const bool vec = aligned(c.a.col_indices) && aligned(c.a.values);
  detail::launch("spmv_csr_subwarp_vec4_kernel", csr_subwarp_vec4_kernel<T, LANES>,
                 dim3(gpu::blocks_for(c.spec.rows * LANES, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0,
                 c.stream, std::size_t(c.spec.rows), c.spec.rows, c.spec.nnz, vec, c.a.row_offsets,
                 c.a.col_indices, static_cast<const T*>(c.a.values), static_cast<const T*>(c.x),
                 static_cast<T*>(c.y), T(c.alpha), T(c.beta));
}

}  // namespace

// Lanes so that one step of 4 entries a lane covers the mean row and its
// alignment slack: the mean / 4 + 1 rounded up to a power of two, 2 to 32
// (mean 27 -> 8, mean 5 -> 4).
int csr_subwarp_vec4_lanes(const SpmvSpec& s) {
  const double mean = s.rows > 0 ? double(s.nnz) / double(s.rows) : 0.0;
  int lanes = 2;
  while (lanes < 32 && lanes < mean / 4.0 + 1.0) lanes *= 2;
  return lanes;
}

void run_csr_subwarp_vec4(const SpmvCall& c) {
  if (c.spec.rows == 0) return;
  gpu::dispatch_value(c.spec.dtype, "csr_subwarp_vec4", [&]<class T>() {
    switch (csr_subwarp_vec4_lanes(c.spec)) {
      case 2: launch_subwarp<T, 2>(c); break;
      case 4: launch_subwarp<T, 4>(c); break;
      case 8: launch_subwarp<T, 8>(c); break;
      case 16: launch_subwarp<T, 16>(c); break;
      default: launch_subwarp<T, 32>(c); break;
    }
  });
}
std::size_t ws_csr_subwarp_vec4(const SpmvSpec&) { return 0; }
bool supports_csr_subwarp_vec4(const SpmvSpec& s) { return gpu::csr_supports(s); }

}  // namespace tessera::spmv_impl
