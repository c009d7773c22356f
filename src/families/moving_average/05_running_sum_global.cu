// Step 5 — a box filter (every weight c) as a running sum from one prefix
// over the whole array: P[m] = x[0] + ... + x[m-1] by tessera's own scan
// (tessera::inclusive_scan, float), then out[i] = c * (P[min(i+h+1, n)] -
// P[max(i-h, 0)]), plus c * x[0] per clamped sample left of the array and
// c * x[n-1] per one right of it (Edge::clamp). O(1) per output whatever w.
//
// What it changes over step 4: the cost no longer grows with w. What it
// costs: (1) traffic: the scan reads n and writes n, the difference reads 2n
// and writes n: 5 passes of 4n bytes instead of 2 (expected ~40% of copy
// at best); (2) precision: P[i] grows with i (to ~0.25 n for the bench's
// data, ~6.7e7 at 2^28 samples, where a float's spacing is 8), and the
// difference of two such prefixes keeps their absolute error while the
// window sum is small: the error of an output grows like eps * |P|, not eps
// * |window| (measured: docs/moving_average.md, "Precision"). Step 6 removes
// both costs.
#include <cuda_runtime_api.h>

#include "families/moving_average/cuda_rungs.hpp"
#include "families/moving_average/window.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/cuda_check.hpp"
#include "tessera/scan.hpp"

namespace tessera::moving_average_impl {

namespace {

constexpr int THREADS = 256;
constexpr std::size_t ALIGN = 256;  // the scan's workspace after the prefix, 256-byte aligned

std::size_t prefix_bytes(std::size_t n) { return ((n + 1) * sizeof(float) + ALIGN - 1) / ALIGN * ALIGN; }

__global__ __launch_bounds__(THREADS) void moving_average_prefix_difference_kernel(
    window::Samples s, const float* __restrict__ prefix, const float* __restrict__ weights, int half,
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

ScanOptions scan_options(const MovingAverageCall* call) {
  ScanOptions o;
  o.op = Op::sum;
  o.accum = Accum::native;
  if (call != nullptr) o.stream = call->stream;
  return o;
}

}  // namespace

bool supports_running_sum_global(const MovingAverageSpec& spec) { return spec.dtype == Dtype::f32 && spec.uniform; }

std::size_t ws_running_sum_global(const MovingAverageSpec& spec) {
  if (spec.n == 0) return 0;
  return prefix_bytes(spec.n) + scan_workspace_bytes<float>(spec.n, scan_options(nullptr));
}

void run_running_sum_global(const MovingAverageCall& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  auto* prefix = static_cast<float*>(call.workspace);
  ScanOptions o = scan_options(&call);
  o.workspace = {static_cast<unsigned char*>(call.workspace) + prefix_bytes(n),
                 scan_workspace_bytes<float>(n, scan_options(nullptr))};
  TESSERA_CUDA(cudaMemsetAsync(prefix, 0, sizeof(float), call.stream));  // P[0] = 0
  inclusive_scan(static_cast<const float*>(call.in), n, prefix + 1, o);
  detail::launch("moving_average_prefix_difference_kernel", moving_average_prefix_difference_kernel,
                 dim3(static_cast<unsigned>(detail::div_up(n, THREADS))), dim3(THREADS), 0, call.stream, n,
                 window::samples_of(call), prefix, static_cast<const float*>(call.weights),
                 static_cast<int>(call.spec.half()), static_cast<float*>(call.out));
}

}  // namespace tessera::moving_average_impl
