// 256-bin histogram of bytes, then 10 even bins over floats in [0, 1).
#include <tessera/histogram.hpp>

#include <cstdio>

#include "where.hpp"

int main() {
  const std::size_t n = 1 << 20;
  std::vector<std::uint8_t> bytes(n);
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) bytes[i] = std::uint8_t(i * 7), x[i] = float(i % 1000) / 1000.0f;
  example::Array<std::uint8_t> d_bytes(bytes);
  example::Array<float> d_x(x);
  example::Array<std::uint32_t> counts(256), even(10);

  tessera::histogram(d_bytes.data(), n, counts.data());
  tessera::histogram_even(d_x.data(), n, even.data(), nullptr,
                          {.bins = 10, .lo = 0.0f, .hi = 1.0f});

  example::expect(counts.host()[0] == n / 256, "every byte value n/256 times");
  std::size_t total = 0;
  for (std::uint32_t c : even.host()) total += c;
  example::expect(total == n, "every value in range is counted once");
  example::expect(even.host()[0] == (n / 1000 + 1) * 100, "values below 0.1 in bin 0");
  std::printf("histogram: counts[0] = %u, even[0] = %u\n", counts.host()[0], even.host()[0]);
}
