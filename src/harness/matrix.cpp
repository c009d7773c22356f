#include "harness/matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "tessera/core/error.hpp"

namespace tessera::harness {

namespace {

// Rows are cut into chunks of at most CHUNK elements, the unit of parallel
// work: a 1 x 2^31 matrix spreads over every thread as well as a square one.
constexpr std::size_t CHUNK = std::size_t(1) << 16;
constexpr std::uint64_t NONE = std::numeric_limits<std::uint64_t>::max();

std::size_t checked_storage(const MatrixLayout& m, const char* what) {
  require(m.valid(), fmt::format("{}: leading dimension {} is smaller than the {} columns", what, m.ld, m.cols));
  const auto s = m.storage();
  require(s.has_value(), fmt::format("{}: {} rows of {} elements overflow size_t", what, m.rows, m.ld));
  return *s;
}

// The columns [first, first + ncols) of every row, cut into tasks of at most
// CHUNK elements: task t covers row i, columns [j0, j1).
struct Chunks {
  std::size_t rows, first, ncols, per_row;
  Chunks(std::size_t rows_, std::size_t first_, std::size_t ncols_)
      : rows(rows_), first(first_), ncols(ncols_), per_row(ncols_ == 0 ? 0 : (ncols_ + CHUNK - 1) / CHUNK) {}
  std::int64_t tasks() const { return static_cast<std::int64_t>(rows * per_row); }
  void range(std::int64_t t, std::size_t& i, std::size_t& j0, std::size_t& j1) const {
    const auto tu = static_cast<std::size_t>(t);
    i = tu / per_row;
    j0 = first + (tu % per_row) * CHUNK;
    j1 = std::min(j0 + CHUNK, first + ncols);
  }
};

template <class W>
W load_word(const void* base, std::size_t index) {
  W w;
  std::memcpy(&w, static_cast<const unsigned char*>(base) + index * sizeof(W), sizeof(W));
  return w;
}

std::string format_element(const void* p, Dtype type) {
  switch (type) {
    case Dtype::f32: {
      float v;
      std::memcpy(&v, p, 4);
      return fmt::format("{:.9g}", v);
    }
    case Dtype::f64: {
      double v;
      std::memcpy(&v, p, 8);
      return fmt::format("{:.17g}", v);
    }
    case Dtype::i32: {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return fmt::format("{}", v);
    }
    case Dtype::i64: {
      std::int64_t v;
      std::memcpy(&v, p, 8);
      return fmt::format("{}", v);
    }
    case Dtype::u8: return fmt::format("{}", *static_cast<const std::uint8_t*>(p));
    case Dtype::u32: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return fmt::format("{}", v);
    }
  }
  return "?";
}

const void* element_at(const void* base, std::size_t index, std::size_t elem) {
  return static_cast<const unsigned char*>(base) + index * elem;
}

// The poison byte repeated into one element, as the element's word.
template <class W>
W poison_word(int poison) {
  W w;
  std::memset(&w, poison, sizeof w);
  return w;
}

template <class W>
CheckResult padding_check(const void* got, const MatrixLayout& g, int poison) {
  CheckResult r;
  r.ok = true;
  if (g.rows == 0 || g.ld == g.cols) return r;
  const W want = poison_word<W>(poison);
  const Chunks chunks(g.rows, g.cols, g.ld - g.cols);
  std::uint64_t bad = 0, first = NONE;
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first)
  for (std::int64_t t = 0; t < chunks.tasks(); ++t) {
    std::size_t i, j0, j1;
    chunks.range(t, i, j0, j1);
    for (std::size_t j = j0; j < j1; ++j)
      if (load_word<W>(got, g.at(i, j)) != want) {
        ++bad;
        first = std::min<std::uint64_t>(first, g.at(i, j));
      }
  }
  if (bad == 0) return r;
  r.ok = false;
  r.max_rel_err = std::numeric_limits<double>::infinity();
  r.detail = fmt::format("{} padding element(s) written (columns {}..{} of each row must be left alone); first at row {}, "
                         "column {}",
                         bad, g.cols, g.ld - 1, first / g.ld, first % g.ld);
  return r;
}

CheckResult padding_dispatch(const void* got, const MatrixLayout& g, std::size_t elem_bytes, int poison) {
  switch (elem_bytes) {
    case 1: return padding_check<std::uint8_t>(got, g, poison);
    case 2: return padding_check<std::uint16_t>(got, g, poison);
    case 4: return padding_check<std::uint32_t>(got, g, poison);
    case 8: return padding_check<std::uint64_t>(got, g, poison);
    default: throw Error(fmt::format("check_matrix_padding: unsupported element size {}", elem_bytes));
  }
}

template <class W>
CheckResult exact_check(const void* got, const MatrixLayout& g, Dtype type, const StridedMatrix& e, int poison) {
  const Chunks chunks(g.rows, 0, g.cols);
  std::uint64_t bad = 0, first = NONE;  // first: flat index i * cols + j of the first wrong element
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first)
  for (std::int64_t t = 0; t < chunks.tasks(); ++t) {
    std::size_t i, j0, j1;
    chunks.range(t, i, j0, j1);
    for (std::size_t j = j0; j < j1; ++j)
      if (load_word<W>(got, g.at(i, j)) != load_word<W>(e.data, i * e.row_stride + j * e.col_stride)) {
        ++bad;
        first = std::min<std::uint64_t>(first, std::uint64_t(i) * g.cols + j);
      }
  }
  if (bad != 0) {
    const std::size_t i = first / g.cols, j = first % g.cols;
    CheckResult r;
    r.max_rel_err = std::numeric_limits<double>::infinity();
    r.detail = fmt::format("{} of {} elements wrong; first at row {}, column {}: got {}, expected {}{}", bad,
                           g.rows * g.cols, i, j, format_element(element_at(got, g.at(i, j), sizeof(W)), type),
                           format_element(element_at(e.data, i * e.row_stride + j * e.col_stride, sizeof(W)), type),
                           load_word<W>(got, g.at(i, j)) == poison_word<W>(poison) ? " (never written: still poison)"
                                                                                    : "");
    return r;
  }
  return padding_check<W>(got, g, poison);
}

template <class G>
CheckResult close_check(const G* got, const MatrixLayout& g, const double* ref, const CloseTolerance& tol, int poison) {
  const Chunks chunks(g.rows, 0, g.cols);
  std::uint64_t bad = 0, first = NONE;
  double max_rel = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : first) reduction(max : max_rel)
  for (std::int64_t t = 0; t < chunks.tasks(); ++t) {
    std::size_t i, j0, j1;
    chunks.range(t, i, j0, j1);
    for (std::size_t j = j0; j < j1; ++j) {
      const std::size_t k = i * g.cols + j;
      const double v = static_cast<double>(got[g.at(i, j)]);
      const double err = std::fabs(v - ref[k]);
      const double bound = tol.abs + tol.rel * (tol.scale ? tol.scale[k] : std::fabs(ref[k]));
      const double rel = ref[k] != 0 ? err / std::fabs(ref[k]) : err;
      if (!(rel <= max_rel)) max_rel = std::isnan(rel) ? std::numeric_limits<double>::infinity() : rel;
      if (!(err <= bound)) {
        ++bad;
        first = std::min<std::uint64_t>(first, k);
      }
    }
  }
  if (bad != 0) {
    const std::size_t i = first / g.cols, j = first % g.cols, k = first;
    const double v = static_cast<double>(got[g.at(i, j)]);
    const double bound = tol.abs + tol.rel * (tol.scale ? tol.scale[k] : std::fabs(ref[k]));
    CheckResult r;
    r.max_rel_err = max_rel;
    r.detail = fmt::format("{} of {} elements outside the tolerance; first at row {}, column {}: got {:.17g}, "
                           "expected {:.17g} (|diff| {:.3g} > tolerance {:.3g})",
                           bad, g.rows * g.cols, i, j, v, ref[k], std::fabs(v - ref[k]), bound);
    return r;
  }
  CheckResult r = padding_check<std::conditional_t<sizeof(G) == 4, std::uint32_t, std::uint64_t>>(got, g, poison);
  if (r.ok) r.max_rel_err = max_rel;
  return r;
}

}  // namespace

std::string matrix_label(const MatrixLayout& m) {
  return m.is_dense() ? fmt::format("{}x{}", m.rows, m.cols) : fmt::format("{}x{} ld {}", m.rows, m.cols, m.ld);
}

void fill_matrix(void* data, Dtype type, const MatrixLayout& m, std::uint64_t seed, Distribution dist) {
  const std::size_t n = checked_storage(m, "fill_matrix");
  fill_random(data, type, n, seed, dist);
  if (m.ld == m.cols) return;
  const std::size_t elem = size_of(type);
  const auto rows = static_cast<std::int64_t>(m.rows);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < rows; ++i)
    std::memset(static_cast<unsigned char*>(data) + m.at(static_cast<std::size_t>(i), m.cols) * elem, INPUT_PAD_BYTE,
                (m.ld - m.cols) * elem);
}

int poison_byte_for(const void* data, Dtype type, const MatrixLayout& m) {
  const std::size_t elem = size_of(type);
  for (int candidate : {0xFF, 0xA5, 0x5A, 0xC3, 0x3C, 0x96, 0x69, 0x81}) {
    unsigned char word[8];
    std::memset(word, candidate, sizeof word);
    const Chunks chunks(m.rows, 0, m.cols);
    std::uint64_t seen = 0;
#pragma omp parallel for schedule(static) reduction(+ : seen)
    for (std::int64_t t = 0; t < chunks.tasks(); ++t) {
      std::size_t i, j0, j1;
      chunks.range(t, i, j0, j1);
      for (std::size_t j = j0; j < j1; ++j)
        if (std::memcmp(element_at(data, m.at(i, j), elem), word, elem) == 0) ++seen;
    }
    if (seen == 0) return candidate;
  }
  // Eight candidates all present: only possible for byte matrices holding
  // every one of them; 0xFF is then as good as any.
  return 0xFF;
}

CheckResult check_matrix_exact(const void* got, const MatrixLayout& g, Dtype type, const StridedMatrix& expected,
                               int poison) {
  checked_storage(g, "check_matrix_exact");
  switch (size_of(type)) {
    case 1: return exact_check<std::uint8_t>(got, g, type, expected, poison);
    case 4: return exact_check<std::uint32_t>(got, g, type, expected, poison);
    case 8: return exact_check<std::uint64_t>(got, g, type, expected, poison);
    default: throw Error(fmt::format("check_matrix_exact: unsupported element type {}", to_string(type)));
  }
}

CheckResult check_matrix_close(const void* got, const MatrixLayout& g, Dtype type, const double* ref,
                               const CloseTolerance& tol, int poison) {
  checked_storage(g, "check_matrix_close");
  switch (type) {
    case Dtype::f32: return close_check(static_cast<const float*>(got), g, ref, tol, poison);
    case Dtype::f64: return close_check(static_cast<const double*>(got), g, ref, tol, poison);
    default: throw Error(fmt::format("check_matrix_close: {} is not a floating-point type", to_string(type)));
  }
}

CheckResult check_matrix_padding(const void* got, const MatrixLayout& g, std::size_t elem_bytes, int poison) {
  checked_storage(g, "check_matrix_padding");
  return padding_dispatch(got, g, elem_bytes, poison);
}

}  // namespace tessera::harness
