// The device ceilings every result is measured against: copy bandwidth
// (cudaMemcpy device-to-device, bytes read + written), the FP32 FMA rate and
// the special-function (MUFU) rate.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "tessera/blocks/launch.cuh"
#include "harness/device_info.hpp"
#include "harness/stream_blocker.hpp"
#include "tessera/core/buffer.hpp"

namespace tessera::harness {

namespace {

// Median of `reps` event-timed runs of f(stream), in milliseconds, each
// enqueued behind a StreamBlocker as the bench's runs are (timing.cpp): the
// ceilings and the rows measured against them count the same thing.
template <class F>
double median_ms(int reps, cudaStream_t stream, F&& f) {
  cudaEvent_t start, stop;
  TESSERA_CUDA(cudaEventCreate(&start));
  TESSERA_CUDA(cudaEventCreate(&stop));
  StreamBlocker blocker;
  std::vector<float> ms;
  for (int i = 0; i < reps + 2; ++i) {  // the first two are warm-up
    if (blocker.usable()) blocker.hold(stream);
    TESSERA_CUDA(cudaEventRecord(start, stream));
    f(stream);
    TESSERA_CUDA(cudaEventRecord(stop, stream));
    if (blocker.usable()) blocker.release();
    TESSERA_CUDA(cudaEventSynchronize(stop));
    float t = 0;
    TESSERA_CUDA(cudaEventElapsedTime(&t, start, stop));
    if (i >= 2) ms.push_back(t);
  }
  TESSERA_CUDA(cudaEventDestroy(start));
  TESSERA_CUDA(cudaEventDestroy(stop));
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

// FMA_CHAINS independent accumulators per thread keep the FMA pipes full
// (4-cycle latency x 4 issue slots needs >= 4 chains per warp scheduler).
constexpr int FMA_CHAINS = 8;
constexpr int FMA_ITERS = 4096;
constexpr int FMA_BLOCK = 256;

__global__ void fp32_fma_rate_kernel(float* out, float a, float b) {
  float acc[FMA_CHAINS];
#pragma unroll
  for (int c = 0; c < FMA_CHAINS; ++c) acc[c] = threadIdx.x * 1e-3f + c;
  for (int i = 0; i < FMA_ITERS; ++i) {
#pragma unroll
    for (int c = 0; c < FMA_CHAINS; ++c) acc[c] = fmaf(acc[c], a, b);
  }
  float s = 0;
#pragma unroll
  for (int c = 0; c < FMA_CHAINS; ++c) s += acc[c];
  if (s == 12345.678f) out[0] = s;  // keeps the loop alive; (almost) never stores
}

// rsqrtf is one MUFU.RSQ; x -> rsqrt(x) stays at its fixed point 1, so the
// chains never leave the normal range. 8 chains per thread hide MUFU latency.
constexpr int MUFU_CHAINS = 8;
constexpr int MUFU_ITERS = 1024;

__global__ void mufu_rate_kernel(float* out, float seed) {
  float acc[MUFU_CHAINS];
#pragma unroll
  for (int c = 0; c < MUFU_CHAINS; ++c) acc[c] = seed + threadIdx.x * 1e-3f + c;
  for (int i = 0; i < MUFU_ITERS; ++i) {
#pragma unroll
    for (int c = 0; c < MUFU_CHAINS; ++c) acc[c] = rsqrtf(acc[c]);
  }
  float s = 0;
#pragma unroll
  for (int c = 0; c < MUFU_CHAINS; ++c) s += acc[c];
  if (s == 12345.678f) out[0] = s;
}

}  // namespace

double measure_copy_gbps() {
  // 1 GiB each way: far larger than L2, so this is DRAM bandwidth.
  std::size_t bytes = std::size_t(1) << 30;
  std::size_t free_b = 0, total_b = 0;
  TESSERA_CUDA(cudaMemGetInfo(&free_b, &total_b));
  while (bytes > (std::size_t(1) << 24) && 2 * bytes > free_b / 2) bytes /= 2;
  DeviceBytes src(bytes, "copy-bandwidth source"), dst(bytes, "copy-bandwidth destination");
  TESSERA_CUDA(cudaMemset(src.data(), 1, bytes));
  const double ms = median_ms(10, nullptr, [&](cudaStream_t s) {
    TESSERA_CUDA(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, s));
  });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

double measure_fp32_gflops() {
  int dev = 0, sms = 0, threads_per_sm = 0;
  TESSERA_CUDA(cudaGetDevice(&dev));
  TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  TESSERA_CUDA(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  const int blocks = sms * (threads_per_sm / FMA_BLOCK) * 4;  // several waves
  DeviceBuffer<float> out(1, "FMA-rate output");
  const double ms = median_ms(5, nullptr, [&](cudaStream_t s) {
    detail::launch("fp32_fma_rate_kernel", fp32_fma_rate_kernel, dim3(blocks), dim3(FMA_BLOCK), 0, s,
                   std::size_t(blocks) * FMA_BLOCK, out.data(), 0.999f, 1e-4f);
  });
  const double flops = 2.0 * FMA_CHAINS * FMA_ITERS * double(blocks) * FMA_BLOCK;
  return flops / (ms * 1e-3) / 1e9;
}

double measure_mufu_gops() {
  int dev = 0, sms = 0, threads_per_sm = 0;
  TESSERA_CUDA(cudaGetDevice(&dev));
  TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  TESSERA_CUDA(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  const int blocks = sms * (threads_per_sm / FMA_BLOCK) * 4;
  DeviceBuffer<float> out(1, "MUFU-rate output");
  const double ms = median_ms(5, nullptr, [&](cudaStream_t s) {
    detail::launch("mufu_rate_kernel", mufu_rate_kernel, dim3(blocks), dim3(FMA_BLOCK), 0, s,
                   std::size_t(blocks) * FMA_BLOCK, out.data(), 2.0f);
  });
  const double ops = double(MUFU_CHAINS) * MUFU_ITERS * double(blocks) * FMA_BLOCK;
  return ops / (ms * 1e-3) / 1e9;
}

}  // namespace tessera::harness
