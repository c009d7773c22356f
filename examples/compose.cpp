// Seed 003's compositions: keep the elements above a threshold, then the
// distinct values of a byte array.
#include <tessera/compact.hpp>

#include <cstdio>

#include "where.hpp"

int main() {
  const std::size_t n = 1 << 20;
  std::vector<float> x(n);
  std::vector<std::uint8_t> bytes(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = float(i % 4) * 0.25f, bytes[i] = std::uint8_t(i % 10);
  example::Array<float> d_x(x), d_kept(n);
  example::Array<std::uint8_t> d_bytes(bytes), d_distinct(n);

  const auto kept = tessera::compact_if(d_x.data(), n, d_kept.data(), {.pred = tessera::greater_than(0.4f)});
  const auto distinct = tessera::find_unique(d_bytes.data(), n, d_distinct.data());

  example::expect(kept == std::int64_t(n / 2) && d_kept.host()[0] == 0.5f, "x > 0.4: half of them, in order");
  example::expect(distinct == 10 && d_distinct.host()[9] == 9, "ten distinct bytes, ascending");
  std::printf("compose: kept %lld of %zu, %lld distinct bytes\n", (long long)kept, n, (long long)distinct);
}
