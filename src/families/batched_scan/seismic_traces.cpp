#include "families/batched_scan/seismic_traces.hpp"

#include <cmath>
#include <numbers>

#include "harness/generate.hpp"

namespace tessera::harness {

namespace {

// 53 random bits -> [0, 1).
double unit(std::uint64_t r) { return static_cast<double>(r >> 11) * 0x1.0p-53; }

void fill_trace(float* x, std::size_t len, std::uint64_t seed, std::size_t row) {
  const std::uint64_t trace_seed = mix64(seed ^ 0x5E15D1CEull, row);
  // Per-trace character: centre frequency 0.02..0.10 cycles/sample (10-50 Hz
  // at 2 ms sampling), Q 1.5..3.5, DC offset 1%..5% of the noise RMS.
  const double f0 = 0.02 + 0.08 * unit(mix64(trace_seed, 1));
  const double q = 1.5 + 2.0 * unit(mix64(trace_seed, 2));
  const double dc = 0.01 + 0.04 * unit(mix64(trace_seed, 3));
  // RBJ band-pass biquad (0 dB peak): zero gain at DC, so the offset above is
  // the only DC the trace has.
  const double w0 = 2.0 * std::numbers::pi * f0;
  const double alpha = std::sin(w0) / (2.0 * q);
  const double a0 = 1.0 + alpha;
  const double b0 = alpha / a0, b2 = -alpha / a0;
  const double a1 = -2.0 * std::cos(w0) / a0, a2 = (1.0 - alpha) / a0;
  // White noise U(-1, 1) has RMS 1/sqrt(3); the band-pass keeps about
  // pi * f0 / q of its power: scale the output back to RMS ~1.
  const double gain = std::sqrt(3.0) / std::sqrt(std::numbers::pi * f0 / q);
  double x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  const double n = static_cast<double>(len);
  for (std::size_t i = 0; i < len; ++i) {
    const double w = 2.0 * unit(mix64(trace_seed, 16 + i)) - 1.0;
    const double y = b0 * w + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = w;
    y2 = y1;
    y1 = y;
    // Envelope: 1 / (1 + 8t) spherical divergence times exp(-2t) absorption,
    // t = i / len: the amplitude falls ~60x along the trace.
    const double t = static_cast<double>(i) / n;
    const double envelope = std::exp(-2.0 * t) / (1.0 + 8.0 * t);
    x[i] = static_cast<float>(dc + envelope * gain * y);
  }
}

}  // namespace

void fill_seismic_traces(float* data, std::size_t rows, std::size_t len, std::size_t pitch, std::uint64_t seed) {
  const auto count = static_cast<std::int64_t>(rows);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t r = 0; r < count; ++r) {
    const auto row = static_cast<std::size_t>(r);
    fill_trace(data + row * pitch, len, seed, row);
  }
}

}  // namespace tessera::harness
