// Generated batches of CSR matrices for spmv_batched's bench, verify and
// tests: seeded (same batch on every machine), values uniform in [-1, 1).
// Each matrix is square with rows drawn from [min_rows, max_rows]; a
// fraction `banded` of them is banded (half-width 1-5), the others random
// (row lengths uniform in [min_len, max_len], capped at the columns;
// distinct columns, so the vendor accepts every matrix). With `edges`, the
// first matrices are the edge shapes: 0 x 0, 0 x 3, 4 x 0, 1 x 1, 5 x 5
// without entries.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "harness/generate.hpp"
#include "tessera/spmv.hpp"

namespace tessera::spmv_impl::batches {

struct BatchShape {
  std::int64_t count = 0;
  std::int64_t min_rows = 1, max_rows = 1;
  std::int64_t min_len = 1, max_len = 1;
  double banded = 0;
  bool edges = false;
  bool same_pattern = false;  // every matrix the first one's pattern, its own values
};

template <class T>
struct HostBatch {
  std::vector<std::int64_t> row_starts{0}, col_starts{0}, nnz_starts{0}, offsets;
  std::vector<std::int32_t> col;
  std::vector<T> val;
  std::int64_t count() const { return std::int64_t(row_starts.size()) - 1; }
  CsrBatch<T> view() const {
    return {count(),           row_starts.back(),  col_starts.back(), nnz_starts.back(), row_starts.data(),
            col_starts.data(), nnz_starts.data(), offsets.data(),    col.data(),        val.data()};
  }
  // Matrix b's rows, columns.
  std::int64_t rows(std::int64_t b) const { return row_starts[b + 1] - row_starts[b]; }
};

// A stream of random words from (seed, stream index).
struct Words {
  std::uint64_t seed, i = 0;
  std::uint64_t next() { return harness::mix64(seed, i++); }
  std::int64_t in(std::int64_t lo, std::int64_t hi) { return lo + std::int64_t(next() % std::uint64_t(hi - lo + 1)); }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
};

template <class T>
void add_matrix(HostBatch<T>& h, std::int64_t rows, std::int64_t cols, bool banded, std::int64_t min_len,
                std::int64_t max_len, Words& w) {
  h.offsets.push_back(0);
  std::int64_t nnz = 0;
  const std::int64_t half = w.in(1, 5);
  for (std::int64_t r = 0; r < rows; ++r) {
    if (cols > 0 && max_len > 0) {
      if (banded) {
        for (std::int64_t c = std::max<std::int64_t>(0, r - half); c <= std::min(cols - 1, r + half); ++c)
          h.col.push_back(std::int32_t(c));
        nnz += std::max<std::int64_t>(0, std::min(cols - 1, r + half) - std::max<std::int64_t>(0, r - half) + 1);
      } else {
        const std::int64_t len = std::min(cols, w.in(min_len, max_len));
        // len distinct columns: a random start and a stride with len * stride <= cols.
        const std::int64_t stride = w.in(1, std::max<std::int64_t>(1, cols / std::max<std::int64_t>(len, 1)));
        const std::int64_t start = w.in(0, cols - 1);
        for (std::int64_t j = 0; j < len; ++j) h.col.push_back(std::int32_t((start + j * stride) % cols));
        nnz += len;
      }
    }
    h.offsets.push_back(nnz);
  }
  h.val.resize(h.col.size());
  for (std::size_t k = h.val.size() - std::size_t(nnz); k < h.val.size(); ++k) h.val[k] = T(w.unit() * 2 - 1);
  h.row_starts.push_back(h.row_starts.back() + rows);
  h.col_starts.push_back(h.col_starts.back() + cols);
  h.nnz_starts.push_back(h.nnz_starts.back() + nnz);
}

// Appends a matrix with the first matrix's shape and pattern (offsets and
// columns) and values of its own.
template <class T>
void copy_pattern(HostBatch<T>& h, Words& w) {
  const std::int64_t rows = h.rows(0), cols = h.col_starts[1], nnz = h.nnz_starts[1];
  h.offsets.insert(h.offsets.end(), h.offsets.begin(), h.offsets.begin() + rows + 1);
  h.col.insert(h.col.end(), h.col.begin(), h.col.begin() + nnz);
  for (std::int64_t k = 0; k < nnz; ++k) h.val.push_back(T(w.unit() * 2 - 1));
  h.row_starts.push_back(h.row_starts.back() + rows);
  h.col_starts.push_back(h.col_starts.back() + cols);
  h.nnz_starts.push_back(h.nnz_starts.back() + nnz);
}

template <class T>
HostBatch<T> random_batch(const BatchShape& s, std::uint64_t seed) {
  HostBatch<T> h;
  Words w{seed};
  static constexpr std::int64_t EDGE_SHAPES[][2] = {{0, 0}, {0, 3}, {4, 0}, {1, 1}, {5, 5}};
  for (std::int64_t b = 0; b < s.count; ++b) {
    if (s.edges && b < 5) {
      const auto* e = EDGE_SHAPES[b];
      add_matrix(h, e[0], e[1], false, b == 4 ? 0 : 1, b == 4 ? 0 : 1, w);
      continue;
    }
    if (s.same_pattern && b > 0) {
      copy_pattern(h, w);
      continue;
    }
    const std::int64_t rows = w.in(s.min_rows, s.max_rows);
    add_matrix(h, rows, rows, w.unit() < s.banded, s.min_len, s.max_len, w);
  }
  return h;
}

}  // namespace tessera::spmv_impl::batches
