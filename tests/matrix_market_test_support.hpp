// Helpers for the tessera::mm tests: a scratch directory, random COO
// matrices (duplicates, empty rows), an obviously-right serial CSR reference
// (std::map, duplicates added in entry order), exact comparisons (bit
// patterns, so that NaN and -0 count) and an expect-error helper that checks
// the "FILE:LINE: " prefix of tessera::Error messages.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tessera/apps/matrix_market.hpp"
#include "tessera/core/error.hpp"

namespace mm_test {

namespace fs = std::filesystem;
namespace mm = tessera::mm;

class ScratchDir {
 public:
  // `in_memory`: under /dev/shm when there is one, where fsync costs nothing
  // (for tests that write thousands of files).
  explicit ScratchDir(bool in_memory = false) {
    const fs::path base = in_memory && fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    std::string tmpl = (base / "tessera-mm-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }

 private:
  fs::path dir_;
};

// Options that cut even a small file into many chunks (the parallel path).
inline mm::ReadOptions many_chunks(unsigned threads = 4) { return {.threads = threads, .min_bytes_per_thread = 1}; }
inline mm::ReadOptions one_thread() { return {.threads = 1}; }

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0 || (a != a && b != b);
}

// Random entries in a rows x cols matrix; `dups` draws some positions twice.
// Values are never all zero (nonzero by construction, random signs/scales).
template <class T>
mm::Coo<T> random_coo(std::mt19937_64& rng, std::int64_t rows, std::int64_t cols, std::size_t nnz, bool dups) {
  mm::Coo<T> c;
  c.rows = rows;
  c.cols = cols;
  if (rows == 0 || cols == 0) return c;
  std::uniform_int_distribution<std::int64_t> r(0, rows - 1), k(0, cols - 1);
  std::uniform_real_distribution<double> mag(0.5, 2.0);
  std::uniform_int_distribution<int> ex(-30, 30), sign(0, 1);
  for (std::size_t e = 0; e < nnz; ++e) {
    if (dups && e > 0 && rng() % 5 == 0) {
      const std::size_t from = rng() % e;
      c.row.push_back(c.row[from]);
      c.col.push_back(c.col[from]);
    } else {
      c.row.push_back(static_cast<std::int32_t>(r(rng)));
      c.col.push_back(static_cast<std::int32_t>(k(rng)));
    }
    const double v = std::ldexp(mag(rng), ex(rng)) * (sign(rng) ? -1 : 1);
    c.val.push_back(static_cast<T>(v));
  }
  return c;
}

// CSR by a map, duplicates summed in entry order, in T.
template <class T>
mm::Csr<T> reference_csr(const mm::Coo<T>& c) {
  std::map<std::pair<std::int32_t, std::int32_t>, T> m;
  for (std::size_t k = 0; k < c.val.size(); ++k) {
    auto [it, fresh] = m.try_emplace({c.row[k], c.col[k]}, c.val[k]);
    if (!fresh) it->second += c.val[k];
  }
  mm::Csr<T> s;
  s.rows = c.rows;
  s.cols = c.cols;
  s.row_offsets.assign(static_cast<std::size_t>(c.rows) + 1, 0);
  for (const auto& [pos, v] : m) {
    s.row_offsets[static_cast<std::size_t>(pos.first) + 1]++;
    s.col_indices.push_back(pos.second);
    s.values.push_back(v);
  }
  for (std::size_t r = 0; r < static_cast<std::size_t>(c.rows); ++r) s.row_offsets[r + 1] += s.row_offsets[r];
  return s;
}

template <class T>
::testing::AssertionResult same_csr(const mm::Csr<T>& a, const mm::Csr<T>& b) {
  if (a.rows != b.rows || a.cols != b.cols)
    return ::testing::AssertionFailure() << "shape " << a.rows << "x" << a.cols << " vs " << b.rows << "x" << b.cols;
  if (a.row_offsets != b.row_offsets) return ::testing::AssertionFailure() << "row_offsets differ";
  if (a.col_indices != b.col_indices) return ::testing::AssertionFailure() << "col_indices differ";
  if (a.values.size() != b.values.size()) return ::testing::AssertionFailure() << "value counts differ";
  for (std::size_t k = 0; k < a.values.size(); ++k)
    if (!same_bits(a.values[k], b.values[k]))
      return ::testing::AssertionFailure() << "value " << k << ": " << a.values[k] << " vs " << b.values[k];
  return ::testing::AssertionSuccess();
}

template <class T>
::testing::AssertionResult same_coo(const mm::Coo<T>& a, const mm::Coo<T>& b) {
  if (a.rows != b.rows || a.cols != b.cols) return ::testing::AssertionFailure() << "shapes differ";
  if (a.row != b.row || a.col != b.col) return ::testing::AssertionFailure() << "indices differ";
  if (a.val.size() != b.val.size()) return ::testing::AssertionFailure() << "value counts differ";
  for (std::size_t k = 0; k < a.val.size(); ++k)
    if (!same_bits(a.val[k], b.val[k]))
      return ::testing::AssertionFailure() << "value " << k << ": " << a.val[k] << " vs " << b.val[k];
  return ::testing::AssertionSuccess();
}

// The structure every CSR result must have.
template <class T>
::testing::AssertionResult well_formed(const mm::Csr<T>& s) {
  if (s.row_offsets.size() != static_cast<std::size_t>(s.rows) + 1 || s.row_offsets[0] != 0 ||
      s.row_offsets.back() != static_cast<std::int64_t>(s.values.size()) ||
      s.col_indices.size() != s.values.size())
    return ::testing::AssertionFailure() << "inconsistent sizes";
  for (std::int64_t r = 0; r < s.rows; ++r) {
    if (s.row_offsets[r] > s.row_offsets[r + 1]) return ::testing::AssertionFailure() << "offsets decrease at " << r;
    for (auto k = s.row_offsets[r]; k < s.row_offsets[r + 1]; ++k) {
      const auto c = s.col_indices[static_cast<std::size_t>(k)];
      if (c < 0 || c >= s.cols) return ::testing::AssertionFailure() << "column out of range in row " << r;
      if (k > s.row_offsets[r] && c <= s.col_indices[static_cast<std::size_t>(k) - 1])
        return ::testing::AssertionFailure() << "columns not strictly increasing in row " << r;
    }
  }
  return ::testing::AssertionSuccess();
}

// The message of the Error `f` throws, or "" when it throws none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const tessera::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace mm_test
