// Forward and backward inclusive sums of every row (seismic traces: rows ×
// samples), summed into one output.
#include <tessera/batched_scan.hpp>

#include <cstdio>

#include "where.hpp"

int main() {
  const std::size_t rows = 100, len = 1000;
  example::Array<float> in(std::vector<float>(rows * len, 1.0f)), out(rows * len);

  tessera::batched_scan(in.data(), rows, len, out.data(),
                        {.direction = tessera::ScanDirection::forward_backward, .variant = example::variant()});

  // forward (i + 1) plus backward (len - i): len + 1 everywhere.
  example::expect(out.host()[5 * len + 17] == float(len + 1), "forward + backward = len + 1");
  std::printf("batched_scan: %zu rows of %zu samples\n", rows, len);
}
