// The conv1d FFT crossover, measured: every 1D product rung named on the
// command line (default: register_blocked, fft_fused, fft_overlap_save)
// through tessera::conv1d at n samples over a sweep of mask widths, each
// call timed with events on its stream (the whole call: the mask's copy and
// spectrum included, as a user sees it), median of REPS after a warm-up.
// policy.hpp's FFT_MIN_TAPS and docs/convolution.md's crossover are set from
// this table.
//   lab_conv1d_taps_sweep [N_LOG2=26] [REPS=20] [VARIANTS=register_blocked,fft_fused,fft_overlap_save]
//                         [TAPS=7,33,65,97,129,193,257,385,513,1025,2049,4097]
// (one variant and one mask width make it a driver for ncu).
// Prints one row per (taps, variant): ms, and the speed-up over the first
// variant. A rung that does not support a mask prints "-".
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "tessera/convolution.hpp"
#include "tessera/core/error.hpp"

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

int main(int argc, char** argv) {
  const int n_log2 = argc > 1 ? std::atoi(argv[1]) : 26;
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20;
  std::vector<std::string> variants;
  {
    std::stringstream list(argc > 3 ? argv[3] : "register_blocked,fft_fused,fft_overlap_save");
    for (std::string v; std::getline(list, v, ',');) variants.push_back(v);
  }
  std::vector<std::size_t> widths;
  {
    std::stringstream list(argc > 4 ? argv[4] : "7,33,65,97,129,193,257,385,513,1025,2049,4097");
    for (std::string w; std::getline(list, w, ',');) widths.push_back(std::size_t(std::atoll(w.c_str())));
  }
  const std::size_t n = std::size_t(1) << n_log2;
  std::vector<float> host(n);
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (auto& x : host) x = d(gen);
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  std::printf("n = 2^%d, median of %d calls\n%6s  %-18s %10s %8s\n", n_log2, reps, "taps", "variant", "ms",
              "vs first");
  for (std::size_t taps : widths) {
    std::vector<float> mask(taps);
    for (auto& m : mask) m = d(gen);
    double first = 0;
    for (const std::string& v : variants) {
      tessera::ConvOptions o{.variant = v, .stream = stream};
      std::size_t bytes = 0;
      try {
        bytes = tessera::conv1d_workspace_bytes(n, taps, o);
      } catch (const tessera::Error&) {  // not supported at this mask
        std::printf("%6zu  %-18s %10s\n", taps, v.c_str(), "-");
        continue;
      }
      void* ws = nullptr;
      if (bytes > 0) CHECK(cudaMalloc(&ws, bytes));
      o.workspace = {ws, bytes};
      std::vector<float> ms;
      for (int r = 0; r <= reps; ++r) {
        CHECK(cudaEventRecord(start, stream));
        tessera::conv1d(in, n, mask.data(), taps, out, o);
        CHECK(cudaEventRecord(stop, stream));
        CHECK(cudaEventSynchronize(stop));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, start, stop));
        if (r > 0) ms.push_back(t);  // the first call is the warm-up (plans, module load)
      }
      std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
      const double median = ms[ms.size() / 2];
      if (first == 0) first = median;
      std::printf("%6zu  %-18s %10.4f %7.2fx\n", taps, v.c_str(), median, first / median);
      if (ws != nullptr) CHECK(cudaFree(ws));
    }
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}
