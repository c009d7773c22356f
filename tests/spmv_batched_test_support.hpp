// What the spmv_batched tests share: generated batches (batches.hpp), the
// per-matrix answer through tessera::spmv's cpu_reference (an independent
// path: one call per matrix on its own slices), and a per-row error bound.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "families/spmv/batches.hpp"
#include "harness/generate.hpp"
#include "tessera/spmv.hpp"

namespace tessera_test::batched {

using tessera::spmv_impl::batches::BatchShape;
using tessera::spmv_impl::batches::HostBatch;
using tessera::spmv_impl::batches::random_batch;

template <class T>
std::vector<T> random_vector(std::int64_t n, std::uint64_t seed) {
  std::vector<T> v(std::size_t(std::max<std::int64_t>(n, 1)));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = T(double(tessera::harness::mix64(seed, i) >> 11) * 0x1.0p-53 * 2 - 1);
  return v;
}

// y_b = alpha A_b x_b + beta y_b, matrix by matrix through tessera::spmv.
template <class T>
std::vector<T> per_matrix(const HostBatch<T>& h, const std::vector<T>& x, std::vector<T> y, double alpha,
                          double beta) {
  for (std::int64_t b = 0; b < h.count(); ++b) {
    const std::int64_t rows = h.rows(b), cols = h.col_starts[b + 1] - h.col_starts[b];
    const std::int64_t nnz = h.nnz_starts[b + 1] - h.nnz_starts[b];
    const tessera::Csr<T> a{rows, cols, nnz, h.offsets.data() + h.row_starts[b] + b, h.col.data() + h.nnz_starts[b],
                            h.val.data() + h.nnz_starts[b]};
    tessera::spmv(a, cols ? x.data() + h.col_starts[b] : nullptr, rows ? y.data() + h.row_starts[b] : nullptr,
                  {.alpha = alpha, .beta = beta, .variant = "cpu_reference"});
  }
  return y;
}

// |got - want| within a few rounding errors of the row's terms.
template <class T>
void expect_close(const HostBatch<T>& h, const std::vector<T>& x, const std::vector<T>& y0, double alpha,
                  double beta, const std::vector<T>& want, const std::vector<T>& got) {
  const double eps = std::numeric_limits<T>::epsilon();
  std::int64_t bad = 0;
  for (std::int64_t b = 0; b < h.count(); ++b)
    for (std::int64_t r = 0; r < h.rows(b); ++r) {
      const std::int64_t* off = h.offsets.data() + h.row_starts[b] + b;
      const std::int64_t g = h.row_starts[b] + r;
      double mag = std::abs(beta * double(y0[std::size_t(g)]));
      for (std::int64_t k = off[r]; k < off[r + 1]; ++k)
        mag += std::abs(alpha * double(h.val[std::size_t(h.nnz_starts[b] + k)]) *
                        double(x[std::size_t(h.col_starts[b] + h.col[std::size_t(h.nnz_starts[b] + k)])]));
      const double bound = 4 * eps * double(off[r + 1] - off[r] + 2) * mag + 1e-30;
      if (!(std::abs(double(got[std::size_t(g)]) - double(want[std::size_t(g)])) <= bound) && bad++ < 5)
        ADD_FAILURE() << "matrix " << b << " row " << r << ": got " << got[std::size_t(g)] << ", want "
                      << want[std::size_t(g)] << " (bound " << bound << ")";
    }
  EXPECT_EQ(bad, 0);
}

}  // namespace tessera_test::batched
