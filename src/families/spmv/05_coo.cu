// SpMV step 5 — COO: one (row, column, value) triple per nonzero (seed 000
// SpMV, "COO"), split evenly over threads whatever the row lengths.
//
//   coo_atomic     the seed's version: y = beta * y first, then one thread
//                  per nonzero adds alpha * a * x into y[row] with atomicAdd.
//                  Perfect balance; the price is 4 more bytes a nonzero (the
//                  row index), an atomic per nonzero (contended on long rows)
//                  and a result whose rounding depends on the order the
//                  atomics land in: not deterministic.
//   coo_segmented  no atomics: tiles of TILE nonzeros; in shared memory each
//                  run of equal rows (a segment) is summed by the thread at
//                  its head. A row wholly inside the tile is written; a row
//                  cut by the tile's edges leaves a partial (the part before
//                  the tile's end in `carry`, the last part in `head`), and a
//                  second kernel adds each cut row's partials in tile order.
//                  Same bits every run. Left: a segment is summed by one
//                  thread (up to TILE serial adds from shared memory).
// Both write the listed empty rows (y = beta * y) in a first pass: a COO
// kernel never meets them.
#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"

namespace tessera::spmv_impl {

namespace gpu {

constexpr int COO_ITEMS = 4;
constexpr int COO_TILE = BLOCK_THREADS * COO_ITEMS;

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void coo_atomic_kernel(CooView c, const T* __restrict__ x,
                                                                   T* __restrict__ y, T alpha) {
  const std::int64_t k = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (k >= c.nnz) return;
  const T* __restrict__ val = static_cast<const T*>(c.val);
  atomicAdd(y + c.row[k], alpha * val[k] * load_x(x, c.col[k]));
}

// The COO part of hyb too (06_hyb.cu): adds alpha * A_coo x into y.
template <class T>
void launch_coo_atomic(const CooView& c, const SpmvCall& call) {
  if (c.nnz == 0) return;
  detail::launch("spmv_coo_atomic_kernel", coo_atomic_kernel<T>, dim3(blocks_for(c.nnz, BLOCK_THREADS)),
                 dim3(BLOCK_THREADS), 0, call.stream, std::size_t(c.nnz), c, static_cast<const T*>(call.x),
                 static_cast<T*>(call.y), T(call.alpha));
}
template void launch_coo_atomic<float>(const CooView&, const SpmvCall&);
template void launch_coo_atomic<double>(const CooView&, const SpmvCall&);

// Partials of the rows cut by tile edges, one slot each per tile.
template <class T>
struct CutRows {
  T* carry;               // tile's last segment, when its row goes on past the tile
  T* head;                // tile's first segment, when its row began before the tile and ends in it
  std::int32_t* head_row; // that row, or -1
};

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void coo_segmented_tiles_kernel(CooView c, const T* __restrict__ x,
                                                                            T* __restrict__ y, T alpha, T beta,
                                                                            CutRows<T> cut) {
  __shared__ T product[COO_TILE];
  __shared__ std::int32_t row[COO_TILE];
  const std::int64_t begin = std::int64_t(blockIdx.x) * COO_TILE;
  const int count = int(min(std::int64_t(COO_TILE), c.nnz - begin));
  const T* __restrict__ val = static_cast<const T*>(c.val);
  for (int i = threadIdx.x; i < count; i += BLOCK_THREADS) {  // coalesced: consecutive threads, consecutive entries
    product[i] = val[begin + i] * load_x(x, c.col[begin + i]);
    row[i] = c.row[begin + i];
  }
  if (threadIdx.x == 0) cut.head_row[blockIdx.x] = -1;
  __syncthreads();
  for (int i = threadIdx.x; i < count; i += BLOCK_THREADS) {
    const std::int32_t r = row[i];
    if (i > 0 && row[i - 1] == r) continue;  // not the head of a segment
    T sum = 0;
    int j = i;
    for (; j < count && row[j] == r; ++j) sum += product[j];
    const bool began_before = i == 0 && begin > 0 && c.row[begin - 1] == r;
    const bool goes_on = j == count && begin + count < c.nnz && c.row[begin + count] == r;
    if (goes_on) cut.carry[blockIdx.x] = sum;
    else if (began_before) {
      cut.head[blockIdx.x] = sum;
      cut.head_row[blockIdx.x] = r;
    } else {
      write_row(y, r, sum, alpha, beta);
    }
  }
}

// One thread per tile whose first row began in an earlier tile and ends in
// it: that row's head plus the carries of the tiles before, nearest first
// (a fixed order: the same bits every run).
template <class T>
__global__ void coo_segmented_fixup_kernel(CooView c, std::int64_t tiles, T* __restrict__ y, T alpha, T beta,
                                           CutRows<T> cut) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (t >= tiles) return;
  const std::int32_t r = cut.head_row[t];
  if (r < 0) return;
  T sum = cut.head[t];
  for (std::int64_t p = t - 1;; --p) {
    sum += cut.carry[p];
    if (p == 0 || c.row[p * COO_TILE - 1] != r) break;  // the row began inside tile p
  }
  write_row(y, r, sum, alpha, beta);
}

inline std::int64_t coo_tiles(std::int64_t nnz) { return (nnz + COO_TILE - 1) / COO_TILE; }

inline std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }

}  // namespace gpu

// ---- coo_atomic

void run_coo_atomic(const SpmvCall& c) {
  const auto& plan = gpu::plan_of<gpu::CooPlan>(c, "coo_atomic");
  gpu::dispatch_value(c.spec.dtype, "coo_atomic", [&]<class T>() {
    gpu::scale_rows<T>(nullptr, c.spec.rows, static_cast<T*>(c.y), T(c.beta), c.stream);
    gpu::launch_coo_atomic<T>(plan.view, c);
  });
}
std::size_t ws_coo_atomic(const SpmvSpec&) { return 0; }
bool supports_coo_atomic(const SpmvSpec& s) { return gpu::format_supports(s); }

// ---- coo_segmented

void run_coo_segmented(const SpmvCall& c) {
  const auto& plan = gpu::plan_of<gpu::CooPlan>(c, "coo_segmented");
  gpu::dispatch_value(c.spec.dtype, "coo_segmented", [&]<class T>() {
    T* y = static_cast<T*>(c.y);
    gpu::scale_rows<T>(plan.view.empty_rows, plan.view.empty, y, T(c.beta), c.stream);
    const std::int64_t tiles = gpu::coo_tiles(plan.view.nnz);
    if (tiles == 0) return;
    auto* base = static_cast<unsigned char*>(c.workspace);
    const std::size_t slot = gpu::align256(std::size_t(tiles) * sizeof(T));
    gpu::CutRows<T> cut{reinterpret_cast<T*>(base), reinterpret_cast<T*>(base + slot),
                        reinterpret_cast<std::int32_t*>(base + 2 * slot)};
    detail::launch("spmv_coo_segmented_tiles_kernel", gpu::coo_segmented_tiles_kernel<T>, dim3(unsigned(tiles)),
                   dim3(gpu::BLOCK_THREADS), 0, c.stream, std::size_t(plan.view.nnz), plan.view,
                   static_cast<const T*>(c.x), y, T(c.alpha), T(c.beta), cut);
    detail::launch("spmv_coo_segmented_fixup_kernel", gpu::coo_segmented_fixup_kernel<T>,
                   dim3(gpu::blocks_for(tiles, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, c.stream,
                   std::size_t(tiles), plan.view, tiles, y, T(c.alpha), T(c.beta), cut);
  });
}
std::size_t ws_coo_segmented(const SpmvSpec& s) {
  const std::int64_t tiles = gpu::coo_tiles(s.nnz);
  return 2 * gpu::align256(std::size_t(tiles) * value_bytes(s.dtype)) + gpu::align256(std::size_t(tiles) * 4);
}
bool supports_coo_segmented(const SpmvSpec& s) { return gpu::format_supports(s); }

}  // namespace tessera::spmv_impl
