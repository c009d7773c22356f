// COO segments to CSR, in parallel and deterministically: each thread counts
// the rows of a contiguous slice of the entries (its own histogram), so that
// every thread knows where its entries of each row go and entries keep their
// input order within a row; then rows are sorted by column (stably) and
// duplicates summed in that order, on threads that own row ranges.
#include <algorithm>
#include <utility>

#include "mm_detail.hpp"

namespace tessera::mm::detail {
namespace {

// Entry k of the concatenated segments, as (segment, offset).
struct Position {
  std::size_t segment = 0;
  std::size_t offset = 0;
};

Position locate(const std::vector<std::size_t>& starts, std::size_t k) {
  const auto it = std::upper_bound(starts.begin(), starts.end(), k);
  const auto s = static_cast<std::size_t>(it - starts.begin()) - 1;
  return {s, k - starts[s]};
}

// Calls f(row, col, val) for the entries [first, last) of the concatenation.
template <class T, class F>
void for_each_entry(const std::vector<Segment<T>>& segs, const std::vector<std::size_t>& starts, std::size_t first,
                    std::size_t last, F&& f) {
  if (first >= last) return;
  Position at = locate(starts, first);
  std::size_t left = last - first;
  for (std::size_t s = at.segment; left > 0; ++s) {
    const Segment<T>& g = segs[s];
    const std::size_t from = s == at.segment ? at.offset : 0;
    const std::size_t n = std::min(left, g.size - from);
    for (std::size_t k = from; k < from + n; ++k) f(g.row[k], g.col[k], g.val[k]);
    left -= n;
  }
}

// Sorts the row [b, e) by column keeping equal columns in order and sums
// them; returns the row's new length (its entries now at [b, b + length)).
template <class T>
std::size_t sort_and_merge_row(std::int32_t* col, T* val, std::size_t b, std::size_t e,
                               std::vector<std::pair<std::int32_t, T>>& scratch) {
  bool sorted = true, strictly = true;
  for (std::size_t k = b + 1; k < e; ++k) {
    if (col[k] < col[k - 1]) sorted = false;
    if (col[k] <= col[k - 1]) strictly = false;
  }
  if (strictly) return e - b;
  if (!sorted) {
    scratch.clear();
    for (std::size_t k = b; k < e; ++k) scratch.emplace_back(col[k], val[k]);
    std::stable_sort(scratch.begin(), scratch.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t k = b; k < e; ++k) {
      col[k] = scratch[k - b].first;
      val[k] = scratch[k - b].second;
    }
  }
  std::size_t out = b;
  for (std::size_t k = b; k < e; ++k) {
    if (k > b && col[k] == col[out - 1]) {
      val[out - 1] += val[k];
    } else {
      col[out] = col[k];
      val[out] = val[k];
      ++out;
    }
  }
  return out - b;
}

}  // namespace

template <class T>
Csr<T> build_csr(std::int64_t rows, std::int64_t cols, const std::vector<Segment<T>>& segments, unsigned threads) {
  Csr<T> csr;
  csr.rows = rows;
  csr.cols = cols;
  std::vector<std::size_t> starts;
  std::size_t total = 0;
  for (const auto& s : segments) {
    starts.push_back(total);
    total += s.size;
  }
  const auto nrows = static_cast<std::size_t>(rows);
  csr.row_offsets.assign(nrows + 1, 0);
  if (total == 0) return csr;

  // A thread per 64 Ki entries at most: small inputs stay on one thread.
  threads = static_cast<unsigned>(std::clamp<std::size_t>(total >> 16, 1, std::max(1u, threads)));
  // One histogram of rows per thread: bounded to about the entries' own size.
  unsigned parts = threads;
  while (parts > 1 && nrows * parts > std::max<std::size_t>(total * 2, std::size_t{1} << 23)) --parts;
  parts = static_cast<unsigned>(std::min<std::size_t>(parts, total));
  std::vector<std::vector<std::int64_t>> cursor(parts);
  auto slice = [&](unsigned p) { return std::pair{total / parts * p, p + 1 == parts ? total : total / parts * (p + 1)}; };
  run_parallel(parts, [&](unsigned p) {
    cursor[p].assign(nrows, 0);
    auto& h = cursor[p];
    const auto [first, last] = slice(p);
    for_each_entry(segments, starts, first, last, [&](std::int32_t r, std::int32_t, const T&) { ++h[r]; });
  });
  std::int64_t at = 0;
  for (std::size_t r = 0; r < nrows; ++r) {
    csr.row_offsets[r] = at;
    for (unsigned p = 0; p < parts; ++p) at += std::exchange(cursor[p][r], at);
  }
  csr.row_offsets[nrows] = at;

  csr.col_indices.resize(total);
  csr.values.resize(total);
  run_parallel(parts, [&](unsigned p) {
    auto& c = cursor[p];
    const auto [first, last] = slice(p);
    for_each_entry(segments, starts, first, last, [&](std::int32_t r, std::int32_t col, const T& v) {
      const auto k = static_cast<std::size_t>(c[r]++);
      csr.col_indices[k] = col;
      csr.values[k] = v;
    });
  });
  cursor.clear();
  cursor.shrink_to_fit();

  // Rows in ranges of about equal entries, one range per thread.
  const unsigned ranges = threads;
  std::vector<std::size_t> row_bounds(ranges + 1, nrows);
  row_bounds[0] = 0;
  for (unsigned k = 1; k < ranges; ++k) {
    const auto target = static_cast<std::int64_t>(total / ranges * k);
    row_bounds[k] = static_cast<std::size_t>(
        std::lower_bound(csr.row_offsets.begin(), csr.row_offsets.end() - 1, target) - csr.row_offsets.begin());
    row_bounds[k] = std::max(row_bounds[k], row_bounds[k - 1]);
  }
  std::vector<std::int64_t> kept(nrows);
  std::vector<std::size_t> merged(ranges, 0);
  run_parallel(ranges, [&](unsigned k) {
    std::vector<std::pair<std::int32_t, T>> scratch;
    for (std::size_t r = row_bounds[k]; r < row_bounds[k + 1]; ++r) {
      const auto b = static_cast<std::size_t>(csr.row_offsets[r]), e = static_cast<std::size_t>(csr.row_offsets[r + 1]);
      const std::size_t n = sort_and_merge_row(csr.col_indices.data(), csr.values.data(), b, e, scratch);
      kept[r] = static_cast<std::int64_t>(n);
      merged[k] += e - b - n;
    }
  });
  bool any_merged = false;
  for (auto m : merged) any_merged = any_merged || m != 0;
  if (!any_merged) return csr;

  // Close the gaps left by merged duplicates (moves left only: serial, in place).
  std::size_t out = 0;
  for (std::size_t r = 0; r < nrows; ++r) {
    const auto b = static_cast<std::size_t>(csr.row_offsets[r]);
    csr.row_offsets[r] = static_cast<std::int64_t>(out);
    for (std::size_t k = b; k < b + static_cast<std::size_t>(kept[r]); ++k, ++out) {
      csr.col_indices[out] = csr.col_indices[k];
      csr.values[out] = csr.values[k];
    }
  }
  csr.row_offsets[nrows] = static_cast<std::int64_t>(out);
  csr.col_indices.resize(out);
  csr.values.resize(out);
  csr.col_indices.shrink_to_fit();
  csr.values.shrink_to_fit();
  return csr;
}

template Csr<float> build_csr<float>(std::int64_t, std::int64_t, const std::vector<Segment<float>>&, unsigned);
template Csr<double> build_csr<double>(std::int64_t, std::int64_t, const std::vector<Segment<double>>&, unsigned);

}  // namespace tessera::mm::detail
