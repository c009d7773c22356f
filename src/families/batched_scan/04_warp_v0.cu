// Step 4 — seed 002's gpu_scansum_warp_v0: one warp per row, no shared
// memory. Each chunk of 32 samples is scanned in registers with
// __shfl_up_sync (5 steps), the carried prefix added, and lane 31's inclusive
// value (broadcast with __shfl_sync) carried to the next chunk. Backward
// chunks walk from the row's end. Float accumulation only, two passes through
// global memory for forward_backward (as the seed). Fixed relative to the
// seed: its backward remainder loop ran `d < j` (j is the chunk's index, not
// the remaining count) and read lanes past the row; a __syncwarp() now orders
// the forward pass's stores before the backward pass reads them.
//
// Bottleneck: one 128-byte load per warp in flight per chunk, and each chunk
// waits for the previous one's carry: latency-bound (the seed found it the
// slowest of the three). Expected: ~10% of the copy bandwidth with 8 warps
// per block on every SM.
#include "families/batched_scan/common.cuh"
#include "families/batched_scan/cuda_rungs.hpp"
#include "families/batched_scan/seed_common.cuh"
#include "tessera/blocks/warp_reduce.cuh"

namespace tessera::batched_scan_impl {

namespace {

constexpr unsigned WARPS_PER_BLOCK = 8;  // 256 threads: the seed's (32, y) block with y = 8
constexpr unsigned BLOCK = WARPS_PER_BLOCK * gpu_detail::SEED_WARP;

__device__ __forceinline__ void warp_v0_pass(const float* src, float* dst, std::size_t len, bool reverse,
                                             bool exclusive) {
  const unsigned lane = threadIdx.x % gpu_detail::SEED_WARP;
  float carry = 0.0f;
  for (std::size_t j = 0; j < len; j += gpu_detail::SEED_WARP) {
    const std::size_t idx = j + lane;
    const bool ok = idx < len;
    const std::size_t col = reverse ? len - 1 - idx : idx;
    const float v = ok ? src[col] : 0.0f;
    float incl = v;
#pragma unroll
    for (unsigned d = 1; d < gpu_detail::SEED_WARP; d <<= 1) {
      const float t = __shfl_up_sync(gpu::FULL_WARP_MASK, incl, d);
      if (lane >= d) incl += t;
    }
    const float prev = __shfl_up_sync(gpu::FULL_WARP_MASK, incl, 1);
    const float excl = lane == 0 ? 0.0f : prev;
    if (ok) dst[col] = carry + (exclusive ? excl : incl);
    carry += __shfl_sync(gpu::FULL_WARP_MASK, incl, gpu_detail::SEED_WARP - 1);
  }
  __syncwarp();  // a second pass reads what the other lanes stored
}

__global__ __launch_bounds__(BLOCK) void batched_scan_warp_v0_kernel(const float* in, std::size_t in_pitch, float* out,
                                                                     std::size_t out_pitch, std::size_t rows,
                                                                     std::size_t len, ScanDirection dir,
                                                                     bool exclusive) {
  const std::size_t warp = static_cast<std::size_t>(blockIdx.x) * WARPS_PER_BLOCK + threadIdx.x / gpu_detail::SEED_WARP;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * WARPS_PER_BLOCK;
  for (std::size_t r = warp; r < rows; r += warps) {
    const float* x = in + r * in_pitch;
    float* y = out + r * out_pitch;
    if (dir == ScanDirection::backward) {
      warp_v0_pass(x, y, len, true, exclusive);
    } else {
      warp_v0_pass(x, y, len, false, exclusive);
      if (dir == ScanDirection::forward_backward) warp_v0_pass(y, y, len, true, exclusive);
    }
  }
}

}  // namespace

void run_warp_v0(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  const unsigned grid = gpu_detail::seed_grid(s.rows, WARPS_PER_BLOCK, "batched_scan_warp_v0_kernel", s);
  detail::launch("batched_scan_warp_v0_kernel", batched_scan_warp_v0_kernel, dim3(grid), dim3(BLOCK), 0, call.stream,
                 s.rows * s.len, call.in, s.in_pitch, call.out, s.out_pitch, s.rows, s.len, s.direction, s.exclusive);
}
std::size_t ws_warp_v0(const ScanSpec&) { return 0; }
bool supports_warp_v0(const ScanSpec& s) { return gpu_detail::seed_supports(s); }

}  // namespace tessera::batched_scan_impl
