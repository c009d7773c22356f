// Step 5 — a box filter (every weight c) as a running sum from one prefix
// over the whole array: P[m] = x[0] + ... + x[m-1] by tessera's own scan
// (the variant tessera::inclusive_scan picks for a float sum), then
// out[i] = c * (P[min(i+h+1, n)] - P[max(i-h, 0)]), plus c * x[0] per
// clamped sample left of the array and c * x[n-1] per one right of it
// (Edge::clamp). O(1) per output whatever w.
//
// What it changes over step 4: the cost no longer grows with w. What it
// costs: (1) traffic: the scan reads n and writes n, the difference reads 2n
// and writes n: 5 passes of 4n bytes instead of 2 (expected ~40% of copy
// at best); (2) precision: P[i] grows with i (to ~0.25 n for the bench's
// data, ~6.7e7 at 2^28 samples, where a float's spacing is 8), and the
// difference of two such prefixes keeps their absolute error while the
// window sum is small: the error of an output grows like eps * |P|, not
// eps * |window| (docs/moving_average.md, "Precision"). Step 6 removes both
// costs.
#include <cuda_runtime_api.h>

#include "families/moving_average/cuda_rungs.hpp"
#include "families/moving_average/window.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/cuda_check.hpp"
#include "families/scan/contract.hpp"
#include "families/scan/policy.hpp"

namespace tessera::moving_average_impl {

namespace {

constexpr int THREADS = 256;
constexpr std::size_t ALIGN = 256;  // the scan's workspace after the prefix, 256-byte aligned

std::size_t prefix_bytes(std::size_t n) { return ((n + 1) * sizeof(float) + ALIGN - 1) / ALIGN * ALIGN; }

__global__ __launch_bounds__(THREADS) void moving_average_prefix_difference_kernel(
    window::Samples<float> s, const float* __restrict__ prefix, const float* __restrict__ weights, int half,
    float* __restrict__ out) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * THREADS + threadIdx.x;
  if (i >= s.n) return;
  const auto g = static_cast<std::int64_t>(i);
  const std::int64_t lo = g - half, hi = g + half + 1;  // the window's samples: [lo, hi)
  const auto n = static_cast<std::int64_t>(s.n);
  float sum = prefix[hi < n ? hi : n] - prefix[lo > 0 ? lo : 0];
  if (s.clamp) {
    if (lo < 0) sum += static_cast<float>(-lo) * s.in[0];
    if (hi > n) sum += static_cast<float>(hi - n) * s.in[n - 1];
  }
  out[i] = weights[0] * sum;
}

// The float prefix: the scan ladder's own pick for a float sum of n
// elements (what tessera::inclusive_scan runs), called through the scan
// family's contract, whose runs only enqueue (graph-capturable; the public
// call also checks pointer kinds, which a capture must not do).
scan_impl::ScanSpec scan_spec(std::size_t n) { return {Dtype::f32, Op::sum, Accum::native, false, n}; }
const scan_impl::ScanVariant& scan_variant(std::size_t n) {
  return scan_impl::variants_ladder().at(scan_impl::policy_pick(scan_spec(n), true),
                                        "moving_average running_sum_global");
}

}  // namespace

bool supports_running_sum_global(const MovingAverageSpec& spec) { return spec.dtype == Dtype::f32 && spec.uniform; }

std::size_t ws_running_sum_global(const MovingAverageSpec& spec) {
  if (spec.n == 0) return 0;
  return prefix_bytes(spec.n) + scan_variant(spec.n).workspace_bytes(scan_spec(spec.n));
}

void run_running_sum_global(const MovingAverageCall& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  auto* prefix = static_cast<float*>(call.workspace);
  TESSERA_CUDA(cudaMemsetAsync(prefix, 0, sizeof(float), call.stream));  // P[0] = 0
  void* scan_workspace = static_cast<unsigned char*>(call.workspace) + prefix_bytes(n);
  scan_variant(n).run({scan_spec(n), call.in, prefix + 1, scan_workspace, call.stream});
  detail::launch("moving_average_prefix_difference_kernel", moving_average_prefix_difference_kernel,
                 dim3(static_cast<unsigned>(detail::div_up(n, THREADS))), dim3(THREADS), 0, call.stream, n,
                 window::samples_of<float>(call), prefix, static_cast<const float*>(call.weights),
                 static_cast<int>(call.spec.half()), static_cast<float*>(call.out));
}

}  // namespace tessera::moving_average_impl
