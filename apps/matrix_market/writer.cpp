// The writers (tessera/apps/matrix_market.hpp): the structure is checked
// first, then the entries are formatted in parallel batches (std::to_chars,
// shortest text that reads back to the same value) and written in order
// through an AtomicFile.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <thread>

#include "tessera/core/atomic_file.hpp"
#include "mm_detail.hpp"
#include "tessera/core/error.hpp"

namespace tessera::mm {
namespace {

// The longest line: two 10-digit indices, a value (at most 24 characters for
// a double), two blanks and the LF.
constexpr std::size_t MAX_LINE = 64;
constexpr std::size_t BATCH = std::size_t{1} << 18;  // lines per thread per round

inline char* put_index(char* p, std::int64_t zero_based) {
  return std::to_chars(p, p + 20, zero_based + 1).ptr;
}

template <class T>
inline char* put_value(char* p, T v) {
  return std::to_chars(p, p + 32, v).ptr;
}

// Writes lines [0, n): format(first, last, out) fills `out` with lines
// [first, last) and returns its end.
template <class Format>
void write_lines(AtomicFile& file, std::size_t n, Format format) {
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  const unsigned used = static_cast<unsigned>(std::min<std::size_t>(threads, (n + BATCH - 1) / BATCH));
  std::vector<std::vector<char>> buffers(std::max(1u, used));
  std::vector<std::size_t> lengths(buffers.size());
  for (std::size_t base = 0; base < n; base += BATCH * buffers.size()) {
    detail::run_parallel(static_cast<unsigned>(buffers.size()), [&](unsigned t) {
      const std::size_t first = std::min(n, base + BATCH * t), last = std::min(n, first + BATCH);
      buffers[t].resize((last - first) * MAX_LINE);
      lengths[t] = static_cast<std::size_t>(format(first, last, buffers[t].data()) - buffers[t].data());
    });
    for (std::size_t t = 0; t < buffers.size(); ++t) file.write({buffers[t].data(), lengths[t]});
  }
}

void check_shape(const std::string& path, std::int64_t rows, std::int64_t cols) {
  constexpr std::int64_t MAX_INDEX = std::numeric_limits<std::int32_t>::max();
  require(rows >= 0 && cols >= 0 && rows <= MAX_INDEX && cols <= MAX_INDEX,
          fmt::format("{}: cannot write a {} x {} matrix (sizes must be in 0..{})", path, rows, cols, MAX_INDEX));
}

}  // namespace

template <class T>
void write_coo(const std::string& path, const Coo<T>& coo) {
  check_shape(path, coo.rows, coo.cols);
  require(coo.row.size() == coo.val.size() && coo.col.size() == coo.val.size(),
          fmt::format("{}: COO row, col and val have {}, {} and {} elements; they must be equal", path,
                      coo.row.size(), coo.col.size(), coo.val.size()));
  for (std::size_t k = 0; k < coo.val.size(); ++k)
    if (coo.row[k] < 0 || coo.row[k] >= coo.rows || coo.col[k] < 0 || coo.col[k] >= coo.cols)
      throw Error(fmt::format("{}: COO entry {} at ({}, {}) is outside the {} x {} matrix (0-based)", path, k,
                              coo.row[k], coo.col[k], coo.rows, coo.cols));
  // The format (and so the reader) allows no more entries than positions.
  require(static_cast<std::int64_t>(coo.val.size()) <= coo.rows * coo.cols,
          fmt::format("{}: {} entries in a {} x {} matrix: more than its positions, which a Matrix Market file "
                      "cannot hold (to_csr sums the duplicates)",
                      path, coo.val.size(), coo.rows, coo.cols));
  AtomicFile file(path);
  file.write(fmt::format("%%MatrixMarket matrix coordinate real general\n{} {} {}\n", coo.rows, coo.cols,
                         coo.val.size()));
  write_lines(file, coo.val.size(), [&](std::size_t first, std::size_t last, char* p) {
    for (std::size_t k = first; k < last; ++k) {
      p = put_index(p, coo.row[k]);
      *p++ = ' ';
      p = put_index(p, coo.col[k]);
      *p++ = ' ';
      p = put_value(p, coo.val[k]);
      *p++ = '\n';
    }
    return p;
  });
  file.commit();
}

template <class T>
void write_csr(const std::string& path, const Csr<T>& csr) {
  check_shape(path, csr.rows, csr.cols);
  const auto& off = csr.row_offsets;
  require(off.size() == static_cast<std::size_t>(csr.rows) + 1,
          fmt::format("{}: CSR row_offsets has {} elements; a matrix of {} rows needs {}", path, off.size(),
                      csr.rows, csr.rows + 1));
  require(csr.col_indices.size() == csr.values.size(),
          fmt::format("{}: CSR col_indices and values have {} and {} elements; they must be equal", path,
                      csr.col_indices.size(), csr.values.size()));
  require(off[0] == 0 && off.back() == static_cast<std::int64_t>(csr.values.size()),
          fmt::format("{}: CSR row_offsets run from {} to {}; they must run from 0 to nnz = {}", path, off[0],
                      off.back(), csr.values.size()));
  for (std::size_t r = 0; r + 1 < off.size(); ++r)
    require(off[r] <= off[r + 1],
            fmt::format("{}: CSR row_offsets decrease at row {} ({} > {})", path, r, off[r], off[r + 1]));
  for (std::size_t k = 0; k < csr.col_indices.size(); ++k)
    require(csr.col_indices[k] >= 0 && csr.col_indices[k] < csr.cols,
            fmt::format("{}: CSR entry {} has column {} outside 0..{}", path, k, csr.col_indices[k], csr.cols - 1));
  AtomicFile file(path);
  file.write(fmt::format("%%MatrixMarket matrix coordinate real general\n{} {} {}\n", csr.rows, csr.cols,
                         csr.values.size()));
  write_lines(file, csr.values.size(), [&](std::size_t first, std::size_t last, char* p) {
    if (first == last) return p;
    // The row of entry `first`: the last row starting at or before it.
    auto r = static_cast<std::size_t>(
        std::upper_bound(off.begin(), off.end(), static_cast<std::int64_t>(first)) - off.begin() - 1);
    for (std::size_t k = first; k < last; ++k) {
      while (static_cast<std::int64_t>(k) >= off[r + 1]) ++r;
      p = put_index(p, static_cast<std::int64_t>(r));
      *p++ = ' ';
      p = put_index(p, csr.col_indices[k]);
      *p++ = ' ';
      p = put_value(p, csr.values[k]);
      *p++ = '\n';
    }
    return p;
  });
  file.commit();
}

namespace {

template <class T>
void write_dense(const std::string& path, std::int64_t rows, std::int64_t cols, std::span<const T> values) {
  check_shape(path, rows, cols);
  require(values.size() == static_cast<std::size_t>(rows * cols),
          fmt::format("{}: a {} x {} array needs {} values; it has {}", path, rows, cols, rows * cols,
                      values.size()));
  AtomicFile file(path);
  file.write(fmt::format("%%MatrixMarket matrix array real general\n{} {}\n", rows, cols));
  write_lines(file, values.size(), [&](std::size_t first, std::size_t last, char* p) {
    for (std::size_t k = first; k < last; ++k) {
      p = put_value(p, values[k]);
      *p++ = '\n';
    }
    return p;
  });
  file.commit();
}

}  // namespace

template <class T>
void write_array(const std::string& path, const Dense<T>& dense) {
  write_dense<T>(path, dense.rows, dense.cols, dense.values);
}

template <class T>
void write_vector(const std::string& path, std::span<const T> values) {
  write_dense<T>(path, static_cast<std::int64_t>(values.size()), 1, values);
}

#define TESSERA_MM_WRITERS(T)                                             \
  template void write_coo<T>(const std::string&, const Coo<T>&);          \
  template void write_csr<T>(const std::string&, const Csr<T>&);          \
  template void write_array<T>(const std::string&, const Dense<T>&);      \
  template void write_vector<T>(const std::string&, std::span<const T>);
TESSERA_MM_WRITERS(float)
TESSERA_MM_WRITERS(double)
#undef TESSERA_MM_WRITERS

}  // namespace tessera::mm
