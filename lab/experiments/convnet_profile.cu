// A ConvNet layer run a few times through tessera::conv_forward, for
// profilers: `ncu ... lab_convnet_profile N C HW M K PAD VARIANT [REPS]`
// (VARIANT may be `cudnn` or any convnet rung). docs/convnet.md quotes the
// stall and throughput figures ncu reads from it.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include "tessera/convnet.hpp"

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));       \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 8) {
    std::fprintf(stderr, "usage: %s N C HW M K PAD VARIANT [REPS]\n", argv[0]);
    return 2;
  }
  tessera::ConvShape s;
  s.n = std::strtoul(argv[1], nullptr, 10);
  s.c = std::strtoul(argv[2], nullptr, 10);
  s.h = s.w = std::strtoul(argv[3], nullptr, 10);
  s.m = std::strtoul(argv[4], nullptr, 10);
  s.k = std::strtoul(argv[5], nullptr, 10);
  s.pad = std::strtoll(argv[6], nullptr, 10);
  const std::string variant = argv[7];  // empty: the policy's pick
  const std::string shown = variant.empty() ? "pick " + tessera::conv_forward_default_variant(s) : variant;
  const int reps = argc > 8 ? std::atoi(argv[8]) : 3;

  const std::size_t nx = s.n * s.c * s.h * s.w, nw = s.m * s.c * s.k * s.k, ny = s.n * s.m * s.out_h() * s.out_w();
  std::vector<float> hx(nx), hw(nw);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (auto& v : hx) v = u(rng);
  for (auto& v : hw) v = u(rng);
  float *x, *w, *y;
  CHECK(cudaMalloc(&x, nx * 4));
  CHECK(cudaMalloc(&w, nw * 4));
  CHECK(cudaMalloc(&y, ny * 4));
  CHECK(cudaMemcpy(x, hx.data(), nx * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hw.data(), nw * 4, cudaMemcpyHostToDevice));
  tessera::ConvOptions o;
  o.variant = variant;
  const std::size_t ws = tessera::conv_forward_workspace_bytes(s, o);
  void* wsp = nullptr;
  if (ws) CHECK(cudaMalloc(&wsp, ws));
  o.workspace = {wsp, ws};
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  tessera::conv_forward(x, w, y, s, o);  // first call: setup (cuDNN's search)
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaProfilerStart());  // ncu --profile-from-start off: the timed calls only
  CHECK(cudaEventRecord(a));
  for (int r = 0; r < reps; ++r) tessera::conv_forward(x, w, y, s, o);
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  CHECK(cudaProfilerStop());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  std::printf("%s n%zu c%zu %zux%zu m%zu k%zu pad%lld: %.4f ms a call (%d calls), workspace %zu bytes\n",
              shown.c_str(), s.n, s.c, s.h, s.w, s.m, s.k, s.pad, ms / reps, reps, ws);
  return 0;
}
