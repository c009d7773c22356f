// Inclusive and exclusive prefix sums of int32.
#include <tessera/scan.hpp>

#include <cstdio>

#include "where.hpp"

int main() {
  const std::size_t n = 100'000;
  example::Array<std::int32_t> in(std::vector<std::int32_t>(n, 1)), inc(n), exc(n);

  tessera::inclusive_scan(in.data(), n, inc.data());
  tessera::exclusive_scan(in.data(), n, exc.data());

  example::expect(inc.host()[n - 1] == std::int32_t(n), "inclusive: out[n-1] = n");
  example::expect(exc.host()[0] == 0 && exc.host()[n - 1] == std::int32_t(n - 1), "exclusive");
  std::printf("scan: inclusive[n-1] = %d, exclusive[n-1] = %d\n", inc.host()[n - 1], exc.host()[n - 1]);
}
