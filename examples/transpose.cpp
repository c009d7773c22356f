// out = inᵀ for a rows × cols matrix (row-major).
#include <tessera/transpose.hpp>

#include <cstdio>

#include "where.hpp"

int main() {
  const std::size_t rows = 1000, cols = 777;
  std::vector<float> x(rows * cols);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i);
  example::Array<float> in(x), out(rows * cols);

  tessera::transpose(in.data(), rows, cols, out.data());

  example::expect(out.host()[5 * rows + 3] == x[3 * cols + 5], "out[5][3] == in[3][5]");
  std::printf("transpose: %zu x %zu done\n", rows, cols);
}
