// Moving average step 1: OpenMP. Outputs are cut into chunks of CHUNK, one
// chunk at a time per thread, double accumulation. A wide box filter (every
// weight the same, w >= 65) computes the chunk's first window directly and then
// slides: s += x[i + h] - x[i - h - 1], O(1) per output. The running sum is
// compensated (Neumaier: the rounding error of every add is carried in a
// second double) and re-anchored at each chunk, so it stays within ~2 double
// ulps of the window's exact sum: the reference every GPU variant, float or
// double, is checked against (problem.cpp) must be far more accurate than
// they are. The direct form runs the window's taps in the outer loop and the
// chunk's outputs in the inner one, so the inner loop vectorises without
// changing any output's order of summation.
#include <algorithm>
#include <cmath>
#include <vector>

#include "families/moving_average/cpu_rungs.hpp"

namespace tessera::moving_average_impl::cpu {

namespace {
// 4096 outputs: many chunks per thread at any bench size, and a direct
// first window (w products) that costs little next to CHUNK slides.
constexpr std::size_t CHUNK = 4096;

// s + c holds a sum; adds v, keeping the rounding error of s + v in c
// (Neumaier's variant of Kahan summation: exact whichever is larger).
inline void add_compensated(double& s, double& c, double v) {
  const double t = s + v;
  c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
  s = t;
}
}  // namespace

template <class T>
void window_sums_f64(const T* x, const MovingAverageSpec& s, const T* wt, bool absolute, std::size_t first,
                     std::size_t count, double* out) {
  const auto h = static_cast<std::int64_t>(s.half());
  const auto n = static_cast<std::int64_t>(s.n);
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
    double* o = out + (i0 - first);
    if (s.uniform && s.w >= SLIDE_MIN_W) {
      const double c0 = weight(0);
      double sum = 0, carry = 0;
      for (std::int64_t g = std::int64_t(i0) - h; g <= std::int64_t(i0) + h; ++g) add_compensated(sum, carry, value(g));
      o[0] = c0 * (sum + carry);
      for (std::size_t i = i0 + 1; i < i1; ++i) {
        add_compensated(sum, carry, value(std::int64_t(i) + h));
        add_compensated(sum, carry, -value(std::int64_t(i) - h - 1));
        o[i - i0] = c0 * (sum + carry);
      }
      continue;
    }
    // Outputs [a, b) of the chunk read no sample outside [0, n): no edge
    // rule, taps outer, outputs inner (vectorised). The rest: per sample.
    const std::int64_t a = std::clamp<std::int64_t>(h, std::int64_t(i0), std::int64_t(i1));
    const std::int64_t b = std::clamp<std::int64_t>(n - h, a, std::int64_t(i1));
    auto at_the_edge = [&](std::int64_t lo, std::int64_t hi) {
      for (std::int64_t i = lo; i < hi; ++i) {
        double acc = 0;
        for (std::size_t j = 0; j < s.w; ++j) acc += weight(j) * value(i + std::int64_t(j) - h);
        o[i - std::int64_t(i0)] = acc;
      }
    };
    at_the_edge(std::int64_t(i0), a);
    at_the_edge(b, std::int64_t(i1));
    if (a < b) {
      double* oi = o + (a - std::int64_t(i0));
      const std::int64_t m = b - a;
      std::fill(oi, oi + m, 0.0);
      for (std::size_t j = 0; j < s.w; ++j) {
        const double wj = weight(j);
        const T* xj = x + (a + std::int64_t(j) - h);
        if (absolute)
          for (std::int64_t k = 0; k < m; ++k) oi[k] += wj * std::fabs(double(xj[k]));
        else
          for (std::int64_t k = 0; k < m; ++k) oi[k] += wj * double(xj[k]);
      }
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
