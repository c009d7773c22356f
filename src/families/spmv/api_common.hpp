// What the public spmv API shares between the CUDA and the CPU-only builds:
// argument validation (everything is checked before anything runs or is
// written) and the per-build entry points api_entries.cpp's templates call.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "families/spmv/contract.hpp"
#include "families/spmv/policy.hpp"
#include "tessera/core/error.hpp"
#include "tessera/spmv.hpp"

namespace tessera::spmv_impl {

inline constexpr const char* API_NAME = "tessera::spmv";
inline constexpr const char* WORKSPACE_QUERY = "tessera::spmv_workspace_bytes";
inline constexpr std::int64_t MAX_COLS = std::int64_t(1) << 31;  // 32-bit column indices

inline std::string describe(const SpmvSpec& s) {
  return fmt::format("{} {} x {} with {} nonzeros", to_string(s.dtype), s.rows, s.cols, s.nnz);
}

// The shape's own checks (no pointer read).
inline void check_shape(const SpmvSpec& s, const char* who) {
  require(s.rows >= 0, fmt::format("{}: rows = {} is negative", who, s.rows));
  require(s.cols >= 0, fmt::format("{}: cols = {} is negative", who, s.cols));
  require(s.nnz >= 0, fmt::format("{}: nnz = {} is negative", who, s.nnz));
  require(s.cols <= MAX_COLS,
          fmt::format("{}: cols = {} does not fit the 32-bit column indices (at most 2^31)", who, s.cols));
}

// The variant (by name or the policy's pick), checked against `spec`.
inline const SpmvVariant& resolve(const SpmvSpec& spec, const std::string& name, const char* who) {
  check_shape(spec, who);
  const std::string chosen = name.empty() ? std::string(policy_pick(spec)) : name;
  const SpmvVariant& v = variants_ladder().at(chosen, who);
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support {}", who, chosen, describe(spec)));
  return v;
}

// O(1) checks shared by spmv and spmv_batched: the entries' arrays and the
// vectors null where a size needs data, and x and y overlapping (`call`
// names the operation in that message).
inline void check_entries_and_vectors(Dtype dtype, std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                                      const std::int32_t* col_indices, const void* values, const void* x,
                                      const void* y, const char* who, const char* call) {
  require(col_indices != nullptr || nnz == 0,
          fmt::format("{}: col_indices is a null pointer but nnz = {}", who, nnz));
  require(values != nullptr || nnz == 0, fmt::format("{}: values is a null pointer but nnz = {}", who, nnz));
  require(x != nullptr || cols == 0, fmt::format("{}: x is a null pointer but cols = {}", who, cols));
  require(y != nullptr || rows == 0, fmt::format("{}: y is a null pointer but rows = {}", who, rows));
  if (rows == 0 || cols == 0) return;
  const auto xb = reinterpret_cast<std::uintptr_t>(x), yb = reinterpret_cast<std::uintptr_t>(y);
  const std::uintptr_t xe = xb + std::uintptr_t(cols) * value_bytes(dtype);
  const std::uintptr_t ye = yb + std::uintptr_t(rows) * value_bytes(dtype);
  require(xe <= yb || ye <= xb, fmt::format("{}: x ({} elements) and y ({} elements) overlap; {} reads x while it "
                                            "writes y",
                                            who, cols, rows, call));
}

// O(1) checks of the pointers: null where the size needs data, x and y
// overlapping.
inline void check_pointers(const SpmvSpec& s, const CsrArrays& a, const void* x, const void* y, const char* who) {
  require(a.row_offsets != nullptr || s.rows == 0,
          fmt::format("{}: row_offsets is a null pointer but rows = {}", who, s.rows));
  check_entries_and_vectors(s.dtype, s.rows, s.cols, s.nnz, a.col_indices, a.values, x, y, who, "spmv");
}

// The error for a row offset that breaks the structure at index i (prev:
// row_offsets[i - 1], cur: row_offsets[i]).
[[noreturn]] inline void bad_offset(std::int64_t i, std::int64_t prev, std::int64_t cur, const SpmvSpec& s,
                                    const char* who) {
  if (i == 0 && cur != 0) throw Error(fmt::format("{}: row_offsets[0] = {}, must be 0", who, cur));
  if (i > 0 && cur < prev)
    throw Error(fmt::format("{}: row_offsets[{}] = {} is less than row_offsets[{}] = {} (offsets must not decrease)",
                            who, i, cur, i - 1, prev));
  throw Error(fmt::format("{}: row_offsets[{}] = {} must equal nnz = {}", who, s.rows, cur, s.nnz));
}
[[noreturn]] inline void bad_column(std::int64_t k, std::int32_t c, const SpmvSpec& s, const char* who) {
  throw Error(fmt::format("{}: col_indices[{}] = {} is outside [0, cols = {})", who, k, c, s.cols));
}

// validate_structure on host arrays: one pass over offsets and columns.
inline void check_structure_host(const SpmvSpec& s, const CsrArrays& a, const char* who) {
  if (s.rows == 0 && a.row_offsets == nullptr) {
    require(s.nnz == 0, fmt::format("{}: rows = 0 but nnz = {}", who, s.nnz));
    return;
  }
  const std::int64_t* off = a.row_offsets;
  if (off[0] != 0) bad_offset(0, 0, off[0], s, who);
  for (std::int64_t r = 1; r <= s.rows; ++r)
    if (off[r] < off[r - 1]) bad_offset(r, off[r - 1], off[r], s, who);
  if (off[s.rows] != s.nnz) bad_offset(s.rows, off[s.rows - (s.rows > 0)], off[s.rows], s, who);
  for (std::int64_t k = 0; k < s.nnz; ++k) {
    const std::int32_t c = a.col_indices[k];
    if (c < 0 || c >= s.cols) bad_column(k, c, s, who);
  }
}

// The build's bodies of the public calls (api.cpp with CUDA, api_cpu.cpp
// without).
void spmv_entry(const SpmvSpec& spec, const CsrArrays& a, const void* x, void* y, const SpmvOptions& o);
std::size_t spmv_entry_workspace(const SpmvSpec& spec, const SpmvOptions& o);

}  // namespace tessera::spmv_impl
