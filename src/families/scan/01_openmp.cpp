// Scan step 1: OpenMP, the two-pass scan of static chunks (the CPU form of
// seed 000's hierarchical scan): reduce each chunk, scan the chunk totals in
// thread order, rescan each chunk from its prefix. The requested accumulator
// is used throughout, and within a chunk it runs over blocks of BLOCK
// elements from the identity, each block's total joining a running carry, as
// the GPU rungs' tiles do: a float sum's rounding error then grows with
// BLOCK + n / BLOCK rather than with the chunk length (a serial float sum over
// 16M-element chunks missed the 2^28 tolerance). Deterministic for a fixed
// thread count.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tessera/blocks/scan_ops.hpp"
#include "families/scan/cpu_rungs.hpp"

namespace tessera::scan_impl::cpu {

namespace {

// Elements per block of the running carry (see the top comment): 4096, the
// order of a GPU tile.
constexpr std::size_t BLOCK = 4096;

template <class R>
void openmp_scan(const ScanCall& call) {
  using F = ScanOf<R>;
  using in_t = typename F::in_t;
  using acc_t = typename F::acc_t;
  const F f{};
  const auto* x = static_cast<const in_t*>(call.in);
  auto* y = static_cast<in_t*>(call.out);
  const std::size_t n = call.spec.n;
  const bool exclusive = call.spec.exclusive;
  std::vector<acc_t> prefix(static_cast<std::size_t>(omp_get_max_threads()) + 1, R::identity());
#pragma omp parallel
  {
    const auto threads = static_cast<std::size_t>(omp_get_num_threads());
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t chunk = (n + threads - 1) / threads;
    const std::size_t lo = std::min(n, t * chunk), hi = std::min(n, lo + chunk);
    acc_t total = R::identity();
    for (std::size_t b = lo; b < hi; b += BLOCK) {
      acc_t block = R::identity();
      for (std::size_t i = b, e = std::min(hi, b + BLOCK); i < e; ++i) R::add(block, x[i]);
      total = R::combine(total, block);
    }
    prefix[t + 1] = total;
#pragma omp barrier
#pragma omp single
    for (std::size_t k = 1; k <= threads; ++k) prefix[k] = R::combine(prefix[k - 1], prefix[k]);
    // (implicit barrier after single)
    acc_t carry = prefix[t];
    for (std::size_t b = lo; b < hi; b += BLOCK) {
      acc_t block = R::identity();
      for (std::size_t i = b, e = std::min(hi, b + BLOCK); i < e; ++i) {
        const in_t v = x[i];  // read before the write: in place works
        if (exclusive) {
          y[i] = f.output(R::combine(carry, block));
          R::add(block, v);
        } else {
          R::add(block, v);
          y[i] = f.output(R::combine(carry, block));
        }
      }
      carry = R::combine(carry, block);
    }
  }
}

}  // namespace

void run_openmp(const ScanCall& call) {
  dispatch_scan(call.spec.dtype, call.spec.op, call.spec.accum, [&]<class R>() { openmp_scan<R>(call); });
}

}  // namespace tessera::scan_impl::cpu
