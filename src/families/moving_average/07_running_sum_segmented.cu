// Step 7 — tessera's box filter at the copy's speed with the direct sum's
// accuracy: the tiled running sum (step 6) with its prefix re-anchored every
// 128 samples in float, and only the segment totals carried in double.
//
// A block owns TILE consecutive outputs and stages their samples plus the
// halo in shared memory (as step 6). Each warp then scans whole segments of
// 128 staged samples independently (one float4 per lane: 3 adds, a 5-step
// shuffle scan, 4 adds) and writes the local exclusive prefixes in place
// over the samples; lane 31 keeps the segment's float total. No block-wide
// scan and no barrier between segments. One warp scans the ~40 totals in
// double and tabulates, per segment, the two window spans an output can
// need (D, segmented_prefix.hpp); an output is then four float operations
// on three shared reads. The arithmetic and its error bound:
// segmented_prefix.hpp (|error| <= 20 u times the absolute sum of the
// window and the 127 samples before it, + 2 u |out|).
//
// What it changes over step 6: per sample, float adds and float shared
// traffic only (step 6's compensated variant converts each sample to double,
// scans it on the FP64 pipe and stores 8 bytes per prefix: 80 % of copy at
// w = 1001, against 94 % with the float prefix); shared memory 4 bytes per
// staged sample (21 KB at w = 1001, 46 KB for step 6), so 8 blocks per SM
// keep twice the loads in flight. Measured on the H100 at 2^28 samples
// (docs/results/moving_average-h100-2026-11-28b.json): 0.744 ms at w = 1001
// (95.8 % of copy; step 6's float prefix 0.761, 93.7 %), 0.720 ms at 127
// (99.1 %): memory-bound, as predicted (~0.75 ms, ~95 %).
#include "core/kernel_resources.hpp"
#include "families/moving_average/cuda_rungs.hpp"
#include "families/moving_average/segmented_prefix.hpp"
#include "families/moving_average/window.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/warp_scan.cuh"

namespace tessera::moving_average_impl {

namespace {

using segmented::LANE_ITEMS;
using segmented::SEGMENT;
using segmented::SEGMENT_SHIFT;

constexpr int THREADS = 256;
constexpr int WARPS = THREADS / 32;
constexpr int TILE = 4096;            // outputs per block, as step 6 (halo read twice: ~w / TILE extra L2 reads)
constexpr int OUTS = TILE / THREADS;  // outputs per thread
// Quads each thread loads before storing any: 8 blocks x 256 threads x 2 x 16
// bytes = 64 KB of loads in flight per SM, as step 6's 4 blocks x 4, within
// 32 registers (4 quads spill).
constexpr int STAGE_BATCH = 2;
static_assert(TILE % THREADS == 0, "whole output rounds");
static_assert(SEGMENT == 32 * LANE_ITEMS && LANE_ITEMS == 4, "a warp scans one segment as one float4 per lane");
// The harness's tolerance (contract.hpp) assumes the prefixes reach at most
// SEGMENT_PREFIX_SPAN samples before a window (to its first segment's start).
static_assert(SEGMENT - 1 <= static_cast<int>(SEGMENT_PREFIX_SPAN), "SEGMENT_PREFIX_SPAN covers the segment");

// Shared memory of a tile that stages `count` samples: segs = count / SEGMENT
// + 1 segments of float prefixes (the staged samples first, overwritten in
// place; the last segment holds index `count`, a window's furthest end), the
// segments' double prefix A[0 .. segs], their float totals T and the table D
// (2 per segment).
struct SegmentedLayout {
  int segs;
  int a_at, t_at, d_at;  // byte offsets
  int bytes;
  __host__ __device__ explicit SegmentedLayout(int count) {
    segs = count / SEGMENT + 1;
    a_at = segs * SEGMENT * 4;  // a multiple of 512: doubles aligned
    t_at = a_at + (segs + 1) * 8;
    d_at = t_at + segs * 4;
    bytes = (d_at + 2 * segs * 4 + 15) / 16 * 16;
  }
};

std::size_t shared_bytes(int w) {
  return static_cast<std::size_t>(SegmentedLayout(window::tile_span(0, TILE, w).count).bytes);
}

struct SumDouble {  // the inclusive warp scan needs no identity
  using acc_t = double;
  __device__ __forceinline__ double combine(double a, double b) const { return a + b; }
};
struct SumFloat {
  using acc_t = float;
  __device__ __forceinline__ float identity() const { return 0.0f; }
  __device__ __forceinline__ float combine(float a, float b) const { return a + b; }
};

// Segment s of ys (SEGMENT floats from s * SEGMENT), scanned by one warp in
// place: samples at or past `count` read as 0 (the staging wrote none there).
// Returns the segment's total to every lane.
__device__ __forceinline__ float scan_segment(float* ys, int s, int count) {
  const int m = s * SEGMENT + 4 * static_cast<int>(gpu::lane_index());
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (m < count) v = *reinterpret_cast<const float4*>(ys + m);  // count is a multiple of 4: whole quads
  const segmented::LanePrefix lp = segmented::lane_prefix(v.x, v.y, v.z, v.w);
  const SumFloat f;
  const float inclusive = gpu::warp_inclusive_scan(lp.total, f);
  const float before = gpu::warp_exclusive_from_inclusive(inclusive, f);
  // Every lane has read its quad (the shuffles above synchronise the warp)
  // before any lane overwrites its own: each lane writes only what it read.
  *reinterpret_cast<float4*>(ys + m) = make_float4(before + lp.p[0], before + lp.p[1], before + lp.p[2], before + lp.p[3]);
  return __shfl_sync(0xffffffffu, inclusive, 31);
}

// 8 blocks of 256 threads per SM (the whole SM's 2048 threads): at most 32
// registers. Shared memory allows 8 up to w ~ 2500 (532 bytes per segment: 27 KB).
__global__ __launch_bounds__(THREADS, 8) void moving_average_running_sum_segmented_kernel(
    window::Samples<float> s, const float* __restrict__ weights, int w, float* __restrict__ out) {
  extern __shared__ float4 shared_vec[];
  const std::int64_t t0 = static_cast<std::int64_t>(blockIdx.x) * TILE;
  const window::TileSpan span = window::tile_span(t0, TILE, w);
  const SegmentedLayout layout(span.count);
  unsigned char* base = reinterpret_cast<unsigned char*>(shared_vec);
  float* L = reinterpret_cast<float*>(base);
  double* A = reinterpret_cast<double*>(base + layout.a_at);
  float* T = reinterpret_cast<float*>(base + layout.t_at);
  float* D = reinterpret_cast<float*>(base + layout.d_at);
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const unsigned lane = gpu::lane_index();

  window::stage_samples<THREADS, float, STAGE_BATCH>(s, span.first, span.count, L);
  __syncthreads();

  // Local float prefixes, segment by segment: warps never wait on each other.
  for (int seg = warp; seg < layout.segs; seg += WARPS) {
    const float total = scan_segment(L, seg, span.count);
    if (lane == 0) T[seg] = total;
  }
  __syncthreads();

  // Warp 0: A = the totals' exclusive prefix in double, then the table
  // D[2 s + d] = float(A[s + q + d] - A[s]) (indices past segs are never
  // used: a window ends at most at index count, in segment segs - 1).
  const int q = w >> SEGMENT_SHIFT;
  if (warp == 0) {
    const SumDouble f;
    double carry = 0.0;
    if (lane == 0) A[0] = 0.0;
    for (int s0 = 0; s0 < layout.segs; s0 += 32) {
      const int seg = s0 + static_cast<int>(lane);
      const double inclusive = gpu::warp_inclusive_scan(seg < layout.segs ? static_cast<double>(T[seg]) : 0.0, f);
      if (seg < layout.segs) A[seg + 1] = carry + inclusive;
      carry += __shfl_sync(0xffffffffu, inclusive, 31);
    }
    __syncwarp();
    for (int e = static_cast<int>(lane); e < 2 * layout.segs; e += 32) {
      const int seg = e >> 1;
      const int end = min(seg + q + (e & 1), layout.segs);
      D[e] = static_cast<float>(A[end] - A[seg]);
    }
  }
  __syncthreads();

  // Output t0 + k sums staged samples [a, a + w), a = offset + k.
  const float c = weights[0];
#pragma unroll 4
  for (int r = 0; r < OUTS; ++r) {
    const int k = r * THREADS + static_cast<int>(threadIdx.x);
    const std::size_t i = static_cast<std::size_t>(t0) + k;
    if (i >= s.n) break;  // k grows with r: nothing further of this thread's is inside
    const int a = span.offset + k, b = a + w;
    const int sa = a >> SEGMENT_SHIFT;
    const int d = (b >> SEGMENT_SHIFT) - sa - q;  // 0 or 1
    out[i] = segmented::window_output(c, D[2 * sa + d], L[b], L[a]);
  }
}

}  // namespace

bool supports_running_sum_segmented(const MovingAverageSpec& spec) {
  return spec.dtype == Dtype::f32 && spec.uniform && spec.w <= MAX_TILED_W;
}

void run_running_sum_segmented(const MovingAverageCall& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  const int w = static_cast<int>(call.spec.w);
  const std::size_t smem = shared_bytes(w);
  constexpr const char* name = "moving_average_running_sum_segmented_kernel";
  auto* kernel = moving_average_running_sum_segmented_kernel;
  (void)gpu::resident_blocks_per_sm(reinterpret_cast<const void*>(kernel), THREADS, smem, name);
  detail::launch(name, kernel, dim3(static_cast<unsigned>(detail::div_up(n, TILE))), dim3(THREADS), smem, call.stream,
                 n, window::samples_of<float>(call), static_cast<const float*>(call.weights), w,
                 static_cast<float*>(call.out));
}

}  // namespace tessera::moving_average_impl
