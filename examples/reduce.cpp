// Sum and maximum of an array; a compensated float sum.
#include <tessera/reduce.hpp>

#include <cstdio>

#include "where.hpp"

int main() {
  const std::size_t n = 1'000'003;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = float(i % 100);
  example::Array<float> d_x(x);

  const float sum = tessera::reduce(d_x.data(), n);
  const float max = tessera::reduce(d_x.data(), n, {.op = tessera::Op::max});
  const float kahan = tessera::reduce(d_x.data(), n, {.accum = tessera::Accum::kahan});

  example::expect(max == 99.0f, "max");
  example::expect(kahan == float(49'500'003.0), "compensated sum: the exact sum, rounded once");
  std::printf("reduce: sum %.1f, compensated %.1f, max %.0f\n", sum, kahan, max);
}
