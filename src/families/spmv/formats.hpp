// The sparse formats the ladder's format rungs run on, built on the host from
// CSR (seed 000 SpMV: CSR, ELL, COO, hybrid ELL + COO, JDS, JDS with ELL
// sections), plus a host product for each so that tests can check a
// conversion against a plain CSR loop. The CUDA rungs upload these arrays as
// they are (formats_device.cuh): one layout, two consumers.
//
// Row and column indices inside the formats are 32-bit: the format rungs
// support rows < 2^31 (format_supports). Padding entries have column -1 and
// value 0; kernels stop at the first one of a row (padding is always at the
// end of a row).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "tessera/spmv.hpp"

namespace tessera::spmv_impl::formats {

inline constexpr std::int32_t PAD_COLUMN = -1;

// Row lengths and their histogram (bin L: rows of length L).
struct RowStats {
  std::int64_t max_length = 0;
  std::vector<std::int64_t> histogram;  // max_length + 1 bins
};

template <class T>
std::int64_t row_length(const Csr<T>& a, std::int64_t r) {
  return a.row_offsets[r + 1] - a.row_offsets[r];
}

template <class T>
RowStats row_stats(const Csr<T>& a) {
  RowStats s;
  for (std::int64_t r = 0; r < a.rows; ++r) s.max_length = std::max(s.max_length, row_length(a, r));
  s.histogram.assign(std::size_t(s.max_length) + 1, 0);
  for (std::int64_t r = 0; r < a.rows; ++r) ++s.histogram[std::size_t(row_length(a, r))];
  return s;
}

// ---- COO: one (row, column, value) triple per nonzero, in CSR order (rows
// non-decreasing), plus the list of empty rows (a COO kernel writes only the
// rows it meets; the empty ones still need y = beta * y).
template <class T>
struct Coo {
  std::int64_t rows = 0, cols = 0;
  std::vector<std::int32_t> row, col;
  std::vector<T> val;
  std::vector<std::int32_t> empty_rows;
  std::size_t bytes() const { return row.size() * 8 + val.size() * sizeof(T) + empty_rows.size() * 4; }
};

template <class T>
Coo<T> to_coo(const Csr<T>& a) {
  Coo<T> c;
  c.rows = a.rows;
  c.cols = a.cols;
  c.row.resize(std::size_t(a.nnz));
  c.col.assign(a.col_indices, a.col_indices + a.nnz);
  c.val.assign(a.values, a.values + a.nnz);
  for (std::int64_t r = 0; r < a.rows; ++r) {
    if (row_length(a, r) == 0) c.empty_rows.push_back(std::int32_t(r));
    for (std::int64_t k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) c.row[std::size_t(k)] = std::int32_t(r);
  }
  return c;
}

// ---- ELL: every row padded to `width` entries, stored column-major
// (entry k of row r at k * rows + r) so that a warp of consecutive rows reads
// consecutive addresses (seed 000 ELL: padded and transposed).
template <class T>
struct Ell {
  std::int64_t rows = 0, cols = 0, width = 0;
  std::vector<std::int32_t> col;
  std::vector<T> val;
  std::size_t bytes() const { return col.size() * 4 + val.size() * sizeof(T); }
};

// Bytes of an ELL of `width` for `rows` rows of T.
inline double ell_bytes(std::int64_t rows, std::int64_t width, std::size_t value_size) {
  return double(rows) * double(width) * double(4 + value_size);
}

// The most padding ELL may add: a format past ELL_MAX_FOOTPRINT times the
// CSR bytes is refused (a power-law matrix's width of 1e5 over 2M rows
// would take terabytes).
inline constexpr double ELL_MAX_FOOTPRINT = 8.0;

inline bool ell_fits(std::int64_t rows, std::int64_t width, std::int64_t nnz, std::size_t value_size) {
  const double csr = double(rows + 1) * 8.0 + double(nnz) * double(4 + value_size);
  return ell_bytes(rows, width, value_size) <= ELL_MAX_FOOTPRINT * csr;
}

// ELL keeps the first min(length, width) entries of each row; the rest (if
// any) is returned in `rest` as COO (hyb); with rest null it is left out
// (a truncated ELL, as the GPU's device_ell builds it).
template <class T>
Ell<T> to_ell(const Csr<T>& a, std::int64_t width, Coo<T>* rest = nullptr) {
  Ell<T> e;
  e.rows = a.rows;
  e.cols = a.cols;
  e.width = width;
  const std::size_t cells = std::size_t(a.rows) * std::size_t(width);
  e.col.assign(cells, PAD_COLUMN);
  e.val.assign(cells, T(0));
  if (rest) {
    *rest = Coo<T>{};
    rest->rows = a.rows;
    rest->cols = a.cols;
  }
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const std::int64_t begin = a.row_offsets[r], len = row_length(a, r);
    for (std::int64_t k = 0; k < len; ++k) {
      const std::size_t src = std::size_t(begin + k);
      if (k < width) {
        const std::size_t at = std::size_t(k) * std::size_t(a.rows) + std::size_t(r);
        e.col[at] = a.col_indices[src];
        e.val[at] = a.values[src];
      } else if (rest != nullptr) {  // without `rest` the entries past width are left out, as device_ell does
        rest->row.push_back(std::int32_t(r));
        rest->col.push_back(a.col_indices[src]);
        rest->val.push_back(a.values[src]);
      }
    }
  }
  return e;
}

// ---- HYB: ELL up to `width`, COO for the entries past it (seed 000 Hybrid
// ELL + COO). The width comes from the row-length histogram: the one that
// moves the fewest bytes, counting an ELL cell at 4 + sizeof(T) bytes for
// every row and a COO entry at COO_WEIGHT times its 8 + sizeof(T) bytes (its
// atomic update and its scattered y make it dearer than a streamed cell).
inline constexpr double HYB_COO_WEIGHT = 3.0;

inline std::int64_t choose_hyb_width(const RowStats& s, std::int64_t rows, std::size_t value_size) {
  // overflow(w) = sum over rows of max(0, len - w), from the histogram:
  // stepping w to w + 1 removes one entry from every row longer than w.
  std::int64_t overflow = 0;  // entries past width w, starting at w = 0
  for (std::size_t len = 0; len < s.histogram.size(); ++len) overflow += std::int64_t(len) * s.histogram[len];
  std::int64_t longer = rows - (s.histogram.empty() ? 0 : s.histogram[0]);  // rows longer than w
  std::int64_t best_w = 0;
  double best = HYB_COO_WEIGHT * double(overflow) * double(8 + value_size);
  for (std::int64_t w = 1; w <= s.max_length; ++w) {
    overflow -= longer;                                        // entries w-1 of the rows longer than w-1 move to ELL
    longer -= s.histogram[std::size_t(w)];                     // rows of length exactly w stop being longer
    const double cost = ell_bytes(rows, w, value_size) + HYB_COO_WEIGHT * double(overflow) * double(8 + value_size);
    if (cost < best) {
      best = cost;
      best_w = w;
    }
  }
  return best_w;
}

template <class T>
struct Hyb {
  Ell<T> ell;
  Coo<T> coo;  // empty_rows unused: the ELL kernel writes every row
  std::size_t bytes() const { return ell.bytes() + coo.bytes(); }
};

template <class T>
Hyb<T> to_hyb(const Csr<T>& a, std::int64_t width) {
  Hyb<T> h;
  h.ell = to_ell(a, width, &h.coo);
  return h;
}

// Rows sorted by decreasing length, stably (ties keep their order): the
// permutation perm[i] = original row of sorted row i, sorted within windows
// of `window` rows (window >= rows: one global sort, JDS).
template <class T>
std::vector<std::int32_t> sort_rows_by_length(const Csr<T>& a, std::int64_t window) {
  std::vector<std::int32_t> perm(static_cast<std::size_t>(a.rows));
  std::iota(perm.begin(), perm.end(), 0);
  const std::int64_t w = std::max<std::int64_t>(window, 1);
  for (std::int64_t begin = 0; begin < a.rows; begin += w) {
    const auto first = perm.begin() + begin, last = perm.begin() + std::min(a.rows, begin + w);
    std::stable_sort(first, last, [&](std::int32_t p, std::int32_t q) { return row_length(a, p) > row_length(a, q); });
  }
  return perm;
}

// ---- Long rows: the rows a thread-per-row format must not hold. One thread
// walking a row of 1e5 entries (a dependent chain of loads, ~0.5 us each)
// stalls the whole launch for ~50 ms; JDS and the sliced formats therefore
// keep only the rows up to a cut and hand the longer ones to a small CSR of
// their own, summed by a warp per row (a block per row past HUGE_ROW), in
// the same run. Their rows are disjoint from the format's: every row is
// written once, in a fixed order (deterministic).
inline constexpr std::int64_t NO_CUT = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t LONG_ROW_MIN_CUT = 128;  // a 128-entry chain: ~60 us, a fraction of a run
inline constexpr std::int64_t LONG_ROW_MEAN_FACTOR = 4;
inline constexpr std::int64_t HUGE_ROW = 8192;  // past this a row gets a whole block

// The cut: 4x the mean row length, at least 128. Regular matrices (every row
// near the mean: the stencils, max 27) keep every row in the format; on the
// bench's power law (mean 16) the rows past 128 leave it.
inline std::int64_t long_row_cut(std::int64_t rows, std::int64_t nnz) {
  const std::int64_t mean = rows > 0 ? (nnz + rows - 1) / rows : 0;
  return std::max(LONG_ROW_MIN_CUT, LONG_ROW_MEAN_FACTOR * mean);
}

// The long rows as a CSR of their own, longest first (the huge ones, a block
// each, are the prefix [0, huge)).
template <class T>
struct LongRows {
  std::vector<std::int32_t> row;      // original row ids
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> col;
  std::vector<T> val;
  std::int64_t huge = 0;  // rows longer than HUGE_ROW
  std::int64_t count() const { return std::int64_t(row.size()); }
  std::size_t bytes() const {
    return count() == 0 ? 0 : row.size() * 4 + offsets.size() * 8 + col.size() * 4 + val.size() * sizeof(T);
  }
};

// Splits `perm` (sorted row ids) into the rows up to `cut` (kept in order)
// and the longer ones (returned as LongRows).
template <class T>
LongRows<T> take_long_rows(const Csr<T>& a, std::vector<std::int32_t>& perm, std::int64_t cut) {
  LongRows<T> out;
  if (cut == NO_CUT) return out;
  std::vector<std::int32_t> kept;
  kept.reserve(perm.size());
  for (std::int32_t r : perm) (row_length(a, r) > cut ? out.row : kept).push_back(r);
  perm.swap(kept);
  std::stable_sort(out.row.begin(), out.row.end(),
                   [&](std::int32_t p, std::int32_t q) { return row_length(a, p) > row_length(a, q); });
  for (std::int32_t r : out.row) {
    const std::int64_t begin = a.row_offsets[r], len = row_length(a, r);
    out.col.insert(out.col.end(), a.col_indices + begin, a.col_indices + begin + len);
    out.val.insert(out.val.end(), a.values + begin, a.values + begin + len);
    out.offsets.push_back(out.offsets.back() + len);
    if (len > HUGE_ROW) ++out.huge;
  }
  return out;
}

// ---- JDS: rows sorted by decreasing length; jagged diagonal k holds entry k
// of every sorted row that has one, contiguously (the transposed storage of
// seed 000 "JDS + CSR + Transpose"): entry k of sorted row i is at
// diag_offsets[k] + i. No padding: diagonal k is as long as the number of
// rows longer than k.
template <class T>
struct Jds {
  std::int64_t rows = 0, cols = 0;        // the matrix's
  std::vector<std::int32_t> perm;         // sorted row i -> original row (the rows up to the cut)
  std::vector<std::int32_t> length;       // length of sorted row i
  std::vector<std::int64_t> diag_offsets; // max_length + 1
  std::vector<std::int32_t> col;
  std::vector<T> val;
  LongRows<T> long_rows;                  // the rows past the cut
  std::size_t bytes() const {
    return perm.size() * 4 + length.size() * 4 + diag_offsets.size() * 8 + col.size() * 4 + val.size() * sizeof(T) +
           long_rows.bytes();
  }
};

// `cut`: rows longer than this go to long_rows (NO_CUT: the plain format).
template <class T>
Jds<T> to_jds(const Csr<T>& a, std::int64_t cut = NO_CUT) {
  Jds<T> j;
  j.rows = a.rows;
  j.cols = a.cols;
  j.perm = sort_rows_by_length(a, a.rows);
  j.long_rows = take_long_rows(a, j.perm, cut);
  j.length.resize(j.perm.size());
  for (std::size_t i = 0; i < j.perm.size(); ++i) j.length[i] = std::int32_t(row_length(a, j.perm[i]));
  const std::int64_t max_len = j.length.empty() ? 0 : j.length[0];
  j.diag_offsets.assign(std::size_t(max_len) + 1, 0);
  // Diagonal k holds rows 0 .. count_k - 1 (the rows longer than k, a prefix).
  std::int64_t count = std::int64_t(j.perm.size());
  for (std::int64_t k = 0; k < max_len; ++k) {
    while (count > 0 && j.length[std::size_t(count - 1)] <= k) --count;
    j.diag_offsets[std::size_t(k) + 1] = j.diag_offsets[std::size_t(k)] + count;
  }
  j.col.resize(std::size_t(j.diag_offsets.back()));
  j.val.resize(std::size_t(j.diag_offsets.back()));
  for (std::size_t i = 0; i < j.perm.size(); ++i) {
    const std::int64_t begin = a.row_offsets[j.perm[i]];
    for (std::int64_t k = 0; k < j.length[i]; ++k) {
      const std::size_t at = std::size_t(j.diag_offsets[std::size_t(k)]) + i;
      j.col[at] = a.col_indices[begin + k];
      j.val[at] = a.values[begin + k];
    }
  }
  return j;
}

// ---- Sliced ELL: rows sorted by length within windows of `window` rows,
// cut into slices of `height` rows, each slice an ELL of its own width
// (its longest row), column-major within the slice: entry k of row i of
// slice s at slice_offsets[s] + k * height + i. With a global sort and large
// slices this is seed 000's "JDS with ELL sections"; with warp-high slices
// and a local sort window it is SELL-C-sigma.
template <class T>
struct Sliced {
  std::int64_t rows = 0, cols = 0, height = 0, window = 0;  // rows: the sliced rows (up to the cut)
  std::vector<std::int32_t> perm;           // sorted row i -> original row (rows entries)
  std::vector<std::int64_t> slice_offsets;  // slices + 1
  std::vector<std::int32_t> slice_width;    // slices
  std::vector<std::int32_t> col;
  std::vector<T> val;
  LongRows<T> long_rows;                    // the rows past the cut
  std::int64_t slices() const { return std::int64_t(slice_width.size()); }
  std::size_t bytes() const {
    return perm.size() * 4 + slice_offsets.size() * 8 + slice_width.size() * 4 + col.size() * 4 +
           val.size() * sizeof(T) + long_rows.bytes();
  }
};

// `cut`: rows longer than this go to long_rows (NO_CUT: the plain format).
template <class T>
Sliced<T> to_sliced(const Csr<T>& a, std::int64_t height, std::int64_t window, std::int64_t cut = NO_CUT) {
  Sliced<T> s;
  s.cols = a.cols;
  s.height = height;
  s.window = window;
  s.perm = sort_rows_by_length(a, window);
  s.long_rows = take_long_rows(a, s.perm, cut);
  s.rows = std::int64_t(s.perm.size());
  const std::int64_t slices = (s.rows + height - 1) / height;
  s.slice_width.assign(std::size_t(slices), 0);
  s.slice_offsets.assign(std::size_t(slices) + 1, 0);
  for (std::int64_t sl = 0; sl < slices; ++sl) {
    std::int64_t width = 0;
    for (std::int64_t i = sl * height; i < std::min(s.rows, (sl + 1) * height); ++i)
      width = std::max(width, row_length(a, s.perm[std::size_t(i)]));
    s.slice_width[std::size_t(sl)] = std::int32_t(width);
    s.slice_offsets[std::size_t(sl) + 1] = s.slice_offsets[std::size_t(sl)] + width * height;
  }
  const std::size_t cells = std::size_t(s.slice_offsets.back());
  s.col.assign(cells, PAD_COLUMN);
  s.val.assign(cells, T(0));
  for (std::int64_t i = 0; i < s.rows; ++i) {
    const std::int64_t sl = i / height, lane = i % height, r = s.perm[std::size_t(i)];
    for (std::int64_t k = 0; k < row_length(a, r); ++k) {
      const std::size_t at = std::size_t(s.slice_offsets[std::size_t(sl)] + k * height + lane);
      s.col[at] = a.col_indices[a.row_offsets[r] + k];
      s.val[at] = a.values[a.row_offsets[r] + k];
    }
  }
  return s;
}

// ---- Host products over each format, y = alpha * A x + beta * y with the
// row's sum in double (tests compare them with a plain CSR loop; the order
// of a row's terms is the CSR order in every format, so the sums agree to
// the last bit up to the final rounding).
template <class T>
T finish(double sum, double alpha, double beta, T y0) {
  return beta == 0 ? T(alpha * sum) : T(alpha * sum + beta * double(y0));
}

template <class T>
void spmv_host(const Coo<T>& c, const T* x, T* y, double alpha, double beta) {
  std::vector<double> sum(std::size_t(c.rows), 0.0);
  for (std::size_t k = 0; k < c.val.size(); ++k) sum[std::size_t(c.row[k])] += double(c.val[k]) * double(x[c.col[k]]);
  for (std::int64_t r = 0; r < c.rows; ++r) y[r] = finish(sum[std::size_t(r)], alpha, beta, y[r]);
}

template <class T>
void ell_row_sums(const Ell<T>& e, const T* x, std::vector<double>& sum) {
  sum.assign(std::size_t(e.rows), 0.0);
  for (std::int64_t r = 0; r < e.rows; ++r)
    for (std::int64_t k = 0; k < e.width; ++k) {
      const std::size_t at = std::size_t(k * e.rows + r);
      if (e.col[at] == PAD_COLUMN) break;
      sum[std::size_t(r)] += double(e.val[at]) * double(x[e.col[at]]);
    }
}

template <class T>
void spmv_host(const Ell<T>& e, const T* x, T* y, double alpha, double beta) {
  std::vector<double> sum;
  ell_row_sums(e, x, sum);
  for (std::int64_t r = 0; r < e.rows; ++r) y[r] = finish(sum[std::size_t(r)], alpha, beta, y[r]);
}

template <class T>
void spmv_host(const Hyb<T>& h, const T* x, T* y, double alpha, double beta) {
  std::vector<double> sum;
  ell_row_sums(h.ell, x, sum);
  for (std::size_t k = 0; k < h.coo.val.size(); ++k)
    sum[std::size_t(h.coo.row[k])] += double(h.coo.val[k]) * double(x[h.coo.col[k]]);
  for (std::int64_t r = 0; r < h.ell.rows; ++r) y[r] = finish(sum[std::size_t(r)], alpha, beta, y[r]);
}

template <class T>
void spmv_host(const LongRows<T>& l, const T* x, T* y, double alpha, double beta) {
  for (std::int64_t i = 0; i < l.count(); ++i) {
    double sum = 0;
    for (std::int64_t k = l.offsets[std::size_t(i)]; k < l.offsets[std::size_t(i) + 1]; ++k)
      sum += double(l.val[std::size_t(k)]) * double(x[l.col[std::size_t(k)]]);
    y[l.row[std::size_t(i)]] = finish(sum, alpha, beta, y[l.row[std::size_t(i)]]);
  }
}

template <class T>
void spmv_host(const Jds<T>& j, const T* x, T* y, double alpha, double beta) {
  spmv_host(j.long_rows, x, y, alpha, beta);
  for (std::size_t i = 0; i < j.perm.size(); ++i) {
    double sum = 0;
    for (std::int64_t k = 0; k < j.length[i]; ++k) {
      const std::size_t at = std::size_t(j.diag_offsets[std::size_t(k)]) + i;
      sum += double(j.val[at]) * double(x[j.col[at]]);
    }
    y[j.perm[i]] = finish(sum, alpha, beta, y[j.perm[i]]);
  }
}

template <class T>
void spmv_host(const Sliced<T>& s, const T* x, T* y, double alpha, double beta) {
  spmv_host(s.long_rows, x, y, alpha, beta);
  for (std::int64_t i = 0; i < s.rows; ++i) {
    const std::int64_t sl = i / s.height, lane = i % s.height;
    double sum = 0;
    for (std::int64_t k = 0; k < s.slice_width[std::size_t(sl)]; ++k) {
      const std::size_t at = std::size_t(s.slice_offsets[std::size_t(sl)] + k * s.height + lane);
      if (s.col[at] == PAD_COLUMN) break;
      sum += double(s.val[at]) * double(x[s.col[at]]);
    }
    const std::int32_t r = s.perm[std::size_t(i)];
    y[r] = finish(sum, alpha, beta, y[r]);
  }
}

}  // namespace tessera::spmv_impl::formats
