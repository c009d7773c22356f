// Step 7 — tessera's short-row path: rows of up to SHORT_ROW_MAX_LEN (128;
// SHORT_ROW_MAX_LEN_WIDE, 256, for the 8-byte accumulators) samples share
// warps. A row gets a segment of S lanes (S = the power of two
// >= len / I, 1 to 32), each lane I = 4 consecutive samples (8 for the wide
// sums: samples_per_lane), so 32 / S rows fill one warp; the scans across a
// segment's lanes are shuffles with the segment width as the shuffle's own
// `width` argument (no exchange crosses a row). Forward, backward and
// forward_backward as in step 5: the forward values stay in the
// accumulator, every accumulator.
//
// Over step 5: a row of 32 samples no longer occupies a 384-thread block
// (and its five barriers) on its own: one warp scans 4 such rows with no
// barrier and no shared memory, and every sample is read once and written
// once.
//
// Bottleneck: DRAM, with scalar loads (a lane's 4 samples are 16 bytes but a
// row's start is only 4-byte aligned at an arbitrary pitch); consecutive
// lanes read consecutive samples, so each warp load covers whole 128-byte
// lines through L1. Expected: ~70% of the copy bandwidth for rows of 32.
// Measured (H100, 3,125,000 rows of 32): float 89.8-91.2%, double 89.9%,
// Kahan 62.8%, double-float 58.8% with renormalising sums: the wide ones
// are issue-bound (two segmented scans of 8-byte states per row on top of
// the items' sums), so Kahan and double-float now run lazily
// (lazy_sums.cuh, as the fused and resident rungs: the same error bound):
// 69.2 / 68.1%, and with 8 samples per lane 89.0 / 88.9%.
#include "families/batched_scan/common.cuh"
#include "families/batched_scan/lazy_sums.cuh"
#include "families/batched_scan/cuda_rungs.hpp"
#include "families/batched_scan/scan_items.cuh"

namespace tessera::batched_scan_impl {

namespace {

constexpr int SHORT_BLOCK = 256;     // 8 warps: block size only sets the grid granularity

template <class T>
__device__ __forceinline__ T shfl_up_seg(const T& v, unsigned d, int width) {
  return gpu::scan_detail::shuffle_words(v, [d, width](unsigned w) { return __shfl_up_sync(0xffffffffu, w, d, width); });
}
template <class T>
__device__ __forceinline__ T shfl_down_seg(const T& v, unsigned d, int width) {
  return gpu::scan_detail::shuffle_words(v,
                                         [d, width](unsigned w) { return __shfl_down_sync(0xffffffffu, w, d, width); });
}

// Sum of the values of the segment's lanes before `sl` (identity at sl = 0).
template <class R>
__device__ __forceinline__ typename R::acc_t seg_exclusive_prefix(typename R::acc_t v, unsigned sl, int width) {
  for (int d = 1; d < width; d <<= 1) {
    const typename R::acc_t t = shfl_up_seg(v, static_cast<unsigned>(d), width);
    if (sl >= static_cast<unsigned>(d)) v = R::combine(t, v);
  }
  const typename R::acc_t before = shfl_up_seg(v, 1u, width);
  return sl == 0 ? R::identity() : before;
}

// Sum of the values of the segment's lanes after `sl` (identity at the last).
template <class R>
__device__ __forceinline__ typename R::acc_t seg_exclusive_suffix(typename R::acc_t v, unsigned sl, int width) {
  for (int d = 1; d < width; d <<= 1) {
    const typename R::acc_t t = shfl_down_seg(v, static_cast<unsigned>(d), width);
    if (sl + static_cast<unsigned>(d) < static_cast<unsigned>(width)) v = R::combine(v, t);
  }
  const typename R::acc_t after = shfl_down_seg(v, 1u, width);
  return sl + 1 == static_cast<unsigned>(width) ? R::identity() : after;
}

template <class R, int SHORT_ITEMS>
__global__ __launch_bounds__(SHORT_BLOCK) void batched_scan_short_rows_kernel(const float* in, std::size_t in_pitch,
                                                                              float* out, std::size_t out_pitch,
                                                                              std::size_t rows, std::size_t len,
                                                                              int width, ScanDirection dir,
                                                                              bool exclusive) {
  using acc_t = typename R::acc_t;
  constexpr int WARPS = SHORT_BLOCK / 32;
  const unsigned lane = threadIdx.x % 32;
  const unsigned seg = lane / static_cast<unsigned>(width), sl = lane % static_cast<unsigned>(width);
  const std::size_t rows_per_warp = 32 / static_cast<std::size_t>(width);
  const std::size_t groups = (rows + rows_per_warp - 1) / rows_per_warp;
  const std::size_t first = static_cast<std::size_t>(sl) * SHORT_ITEMS;
  const int n = first < len ? static_cast<int>(len - first < SHORT_ITEMS ? len - first : SHORT_ITEMS) : 0;
  // Warp-uniform loop: every lane shuffles in every iteration.
  for (std::size_t g = static_cast<std::size_t>(blockIdx.x) * WARPS + threadIdx.x / 32; g < groups;
       g += static_cast<std::size_t>(gridDim.x) * WARPS) {
    const std::size_t row = g * rows_per_warp + seg;
    const int jhi = row < rows ? n : 0;
    const float* x_row = in + (row < rows ? row : 0) * in_pitch + first;
    float x[SHORT_ITEMS];
#pragma unroll
    for (int j = 0; j < SHORT_ITEMS; ++j) x[j] = j < jhi ? x_row[j] : 0.0f;
    acc_t v[SHORT_ITEMS];
    acc_t c;
    if (dir == ScanDirection::backward) {
      const acc_t tot = gpu_detail::backward_items<R, SHORT_ITEMS>(x, 0, jhi, exclusive, v);
      c = seg_exclusive_suffix<R>(tot, sl, width);
    } else {
      const acc_t tot = gpu_detail::forward_items<R, SHORT_ITEMS>(x, 0, jhi, exclusive, v);
      c = seg_exclusive_prefix<R>(tot, sl, width);
      if (dir == ScanDirection::forward_backward) {
        const acc_t gsum = gpu_detail::backward_of_forward<R, SHORT_ITEMS>(v, c, 0, jhi, exclusive);
        c = seg_exclusive_suffix<R>(gsum, sl, width);
      }
    }
    float y[SHORT_ITEMS];
    gpu_detail::finish_items<R, SHORT_ITEMS>(v, c, y);
    if (jhi > 0) {
      float* y_row = out + row * out_pitch + first;
#pragma unroll
      for (int j = 0; j < SHORT_ITEMS; ++j)
        if (j < jhi) y_row[j] = y[j];
    }
  }
}

int segment_width(std::size_t len, int items) {
  int w = 1;
  while (static_cast<std::size_t>(w) * items < len) w <<= 1;
  return w;
}

// Samples per lane. H100, rows of 32 / 64 / 128, % of copy, 4 -> 8 samples
// per lane: float 91.1 -> 62.7, 93.3 -> 67.8, 92.5 -> 72.5; double 89.4 ->
// 84.0, 86.1 -> 86.3, 82.3 -> 88.1; Kahan 69.3 -> 89.0, 63.9 -> 89.7,
// 59.4 -> 86.5; double-float 68.0 -> 88.9, 62.8 -> 90.0, 58.4 -> 87.2
// (docs/results/batched_scan-two-level-h100-2026-11-24.txt, run 12). The
// wide sums are issue-bound: 8 samples per lane halve the segment's width,
// so a row's two segmented scans of 8-byte states take one shuffle step
// less for twice the samples. 12 per lane where a row then takes fewer
// lanes' slots (rows of 17-24, 33-48, 65-96, 129-192) measured 2-2.5x
// slower than 8 at every such length (rows of 150: double-float 34.5%
// against 50.0%; run 17): not kept.
int samples_per_lane(Accum a, std::size_t len) {
  switch (a) {
    case Accum::native: return 4;
    case Accum::f64: return len > 64 ? 8 : 4;
    default: return 8;  // Kahan, double-float
  }
}
static_assert(SHORT_ROW_MAX_LEN_WIDE <= 32 * 8, "a wide row of 65 or more samples fits one warp of 8 per lane");

template <class R, int SHORT_ITEMS>
void run_short_rows_r(const ScanCall& call) {
  static_assert(SHORT_ROW_MAX_LEN <= 32 * SHORT_ITEMS, "a float row fits one warp");
  static std::atomic<int> occupancy{0};
  const ScanSpec& s = call.spec;
  const int width = segment_width(s.len, SHORT_ITEMS);
  const std::size_t rows_per_warp = 32 / static_cast<std::size_t>(width);
  const std::size_t groups = (s.rows + rows_per_warp - 1) / rows_per_warp;
  auto kernel = batched_scan_short_rows_kernel<R, SHORT_ITEMS>;
  const int per_sm = gpu_detail::prepare_kernel(kernel, SHORT_BLOCK, 0, occupancy);
  const std::size_t want = detail::div_up(groups, SHORT_BLOCK / 32);
  const std::size_t cap = static_cast<std::size_t>(gpu::sm_count()) * static_cast<std::size_t>(per_sm);
  const unsigned grid = gpu_detail::grid_of(want < cap ? want : cap, "batched_scan_short_rows_kernel", s);
  detail::launch("batched_scan_short_rows_kernel", kernel, dim3(grid), dim3(SHORT_BLOCK), 0, call.stream,
                 s.rows * s.len, call.in, s.in_pitch, call.out, s.out_pitch, s.rows, s.len, width, s.direction,
                 s.exclusive);
}

}  // namespace

void run_short_rows(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  gpu_detail::dispatch_accum("short_rows", s.accum, [&]<class R>() {
    using L = typename gpu_detail::LazyOf<R>::type;
    if (samples_per_lane(s.accum, s.len) == 8)
      run_short_rows_r<L, 8>(call);
    else
      run_short_rows_r<L, 4>(call);
  });
}
std::size_t ws_short_rows(const ScanSpec&) { return 0; }
bool supports_short_rows(const ScanSpec& s) { return s.len <= short_row_max_len(s.accum); }

}  // namespace tessera::batched_scan_impl
