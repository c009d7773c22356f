// A user's own associative operator on tessera's single-pass scan: running
// compositions of affine maps x -> a·x + b (associative, not commutative).
#include <tessera/scan.cuh>

#include <cstdio>
#include <vector>

#include "where.hpp"

struct Affine {
  int a, b;
};
struct Compose {  // apply `left` first, then `right`
  __device__ Affine operator()(Affine left, Affine right) const {
    return {right.a * left.a, right.a * left.b + right.b};
  }
};

int main() {
  if (!example::gpu()) {
    std::printf("scan_with: no GPU, nothing to run\n");
    return 0;
  }
  const std::size_t n = 1000;
  example::Array<Affine> in(std::vector<Affine>(n, Affine{1, 1})), out(n);  // x -> x + 1, n times

  tessera::scan_with(in.data(), n, out.data(), Compose{}, Affine{1, 0});

  example::expect(out.host()[n - 1].a == 1 && out.host()[n - 1].b == int(n), "x + n after n maps");
  std::printf("scan_with: the composition of %zu maps is x + %d\n", n, out.host()[n - 1].b);
}
