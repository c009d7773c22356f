// Forward and backward inclusive sums of every row (seismic traces: rows ×
// samples), summed into one output.
#include <tessera/batched_scan.hpp>

#include <cstdio>

#include "where.hpp"

int main() {
  const std::size_t rows = 100, len = 1000;
  example::Array<float> in(std::vector<float>(rows * len, 1.0f)), out(rows * len);

  tessera::batched_scan(in.data(), rows, len, out.data(),
                        {.direction = tessera::ScanDirection::forward_backward});

  // forward: f[i] = i + 1; backward of that: y[i] = (i + 1) + ... + len.
  const std::size_t i = 17;
  example::expect(out.host()[5 * len + i] == float(len * (len + 1) / 2 - i * (i + 1) / 2), "y[i] = (i+1) + ... + len");
  std::printf("batched_scan: %zu rows of %zu samples\n", rows, len);
}
