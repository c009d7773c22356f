// Moving average step 1: OpenMP. Outputs are cut into chunks of CHUNK, one
// chunk at a time per thread, double accumulation. A wide box filter (every
// weight the same, w >= 65) computes the chunk's first window directly and then
// slides: s += x[i + h] - x[i - h - 1], O(1) per output. Re-anchoring at
// each chunk bounds the running sum's drift to CHUNK steps of double
// rounding (~1e-13 of the window's absolute sum): the CPU twin of the
// GPU's tiled running sum.
#include <algorithm>
#include <cmath>
#include <vector>

#include "families/moving_average/cpu_rungs.hpp"

namespace tessera::moving_average_impl::cpu {

namespace {
// 4096 outputs: many chunks per thread at any bench size, and a direct
// first window (w products) that costs little next to CHUNK slides.
constexpr std::size_t CHUNK = 4096;
// Narrower boxes sum directly: w adds cost little, and a slide's rounding
// (~sqrt(CHUNK) double ulps of the window) stays below a direct sum's.
constexpr std::size_t SLIDE_MIN_W = 65;
}  // namespace

template <class T>
void window_sums_f64(const T* x, const MovingAverageSpec& s, const T* wt, bool absolute, std::size_t first,
                     std::size_t count, double* out) {
  const auto h = static_cast<std::int64_t>(s.half());
  const auto chunks = static_cast<std::int64_t>((count + CHUNK - 1) / CHUNK);
  auto value = [&](std::int64_t g) {
    const double v = double(sample(x, s.n, s.edge, g));
    return absolute ? std::fabs(v) : v;
  };
  auto weight = [&](std::size_t j) { return absolute ? std::fabs(double(wt[j])) : double(wt[j]); };
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t i0 = first + static_cast<std::size_t>(c) * CHUNK;
    const std::size_t i1 = std::min(i0 + CHUNK, first + count);
    if (s.uniform && s.w >= SLIDE_MIN_W) {
      const double c0 = weight(0);
      double sum = 0;
      for (std::int64_t g = std::int64_t(i0) - h; g <= std::int64_t(i0) + h; ++g) sum += value(g);
      out[i0 - first] = c0 * sum;
      for (std::size_t i = i0 + 1; i < i1; ++i) {
        sum += value(std::int64_t(i) + h) - value(std::int64_t(i) - h - 1);
        out[i - first] = c0 * sum;
      }
      continue;
    }
    for (std::size_t i = i0; i < i1; ++i) {
      double acc = 0;
      for (std::size_t j = 0; j < s.w; ++j) acc += weight(j) * value(std::int64_t(i) + std::int64_t(j) - h);
      out[i - first] = acc;
    }
  }
}

template void window_sums_f64<float>(const float*, const MovingAverageSpec&, const float*, bool, std::size_t,
                                     std::size_t, double*);
template void window_sums_f64<double>(const double*, const MovingAverageSpec&, const double*, bool, std::size_t,
                                      std::size_t, double*);

void run_openmp(const MovingAverageCall& call) {
  const MovingAverageSpec& s = call.spec;
  with_type(s.dtype, [&]<class T>() {
    // The double sums in blocks of outputs, rounded as they come: no n-sized
    // double buffer (2 GiB at 2^28 samples).
    constexpr std::size_t BLOCK = std::size_t(1) << 20;
    std::vector<double> sums(std::min(BLOCK, s.n));
    const T* x = static_cast<const T*>(call.in);
    T* out = static_cast<T*>(call.out);
    for (std::size_t b = 0; b < s.n; b += BLOCK) {
      const std::size_t len = std::min(BLOCK, s.n - b);
      window_sums_f64(x, s, static_cast<const T*>(call.weights), false, b, len, sums.data());
      const auto m = static_cast<std::int64_t>(len);
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < m; ++i) out[b + i] = static_cast<T>(sums[i]);
    }
  });
}

}  // namespace tessera::moving_average_impl::cpu
