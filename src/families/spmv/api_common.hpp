// What the public spmv API shares between the CUDA and the CPU-only builds:
// argument validation (everything is checked before anything runs or is
// written) and the per-build entry points api_entries.cpp's templates call.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <memory>
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

// O(1) checks of a plan's matrix: null arrays where the sizes need data.
inline void check_matrix_pointers(const SpmvSpec& s, const CsrArrays& a, const char* who) {
  require(a.row_offsets != nullptr || s.rows == 0,
          fmt::format("{}: row_offsets is a null pointer but rows = {}", who, s.rows));
  require(a.col_indices != nullptr || s.nnz == 0,
          fmt::format("{}: col_indices is a null pointer but nnz = {}", who, s.nnz));
  require(a.values != nullptr || s.nnz == 0, fmt::format("{}: values is a null pointer but nnz = {}", who, s.nnz));
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

// Row-length statistics of host CSR offsets (one pass; the structure is
// assumed valid).
inline SpmvRowStats host_row_stats(const SpmvSpec& s, const CsrArrays& a) {
  formats::RowStats h;
  h.histogram.assign(1, 0);
  for (std::int64_t r = 0; r < s.rows; ++r) {
    const std::int64_t len = a.row_offsets[r + 1] - a.row_offsets[r];
    if (len > h.max_length) {
      h.max_length = len;
      h.histogram.resize(std::size_t(len) + 1, 0);
    }
    ++h.histogram[std::size_t(len)];
  }
  return row_length_stats(h, s.rows, s.nnz);
}

// What a tessera::SpmvPlan<T> holds (type-erased: one struct for float and
// double). `prepared` is the format rung's device copy (null for CSR rungs).
struct PlanState {
  SpmvSpec spec{};
  CsrArrays arrays;
  const SpmvVariant* variant = nullptr;
  std::unique_ptr<SpmvPlan> prepared;
  SpmvRowStats stats;
  std::string name, reason;
  double prepare_ms = 0;
};

// The plan's variant: the one named, or the plan policy's pick for `stats`
// among the variants that support `spec`; `reason` gets the rule's evidence.
inline const SpmvVariant& resolve_plan(const SpmvSpec& spec, const SpmvRowStats& stats, const std::string& name,
                                       bool gpu, std::string& reason, const char* who) {
  if (!name.empty()) {
    reason = "named in options.variant";
    return resolve(spec, name, who);
  }
  check_shape(spec, who);
  const PlanRule& rule = plan_policy_pick(stats, gpu, [&](std::string_view v) {
    const SpmvVariant* found = variants_ladder().find(v);
    return found != nullptr && found->supports(spec);
  });
  reason = std::string(rule.evidence);
  return resolve(spec, std::string(rule.variant), who);
}

// The build's bodies of the public calls (api.cpp with CUDA, api_cpu.cpp
// without).
void spmv_entry(const SpmvSpec& spec, const CsrArrays& a, const void* x, void* y, const SpmvOptions& o);
std::size_t spmv_entry_workspace(const SpmvSpec& spec, const SpmvOptions& o);
// Fills p (spec and arrays set) for options o: checks, statistics, pick, conversion.
void plan_entry_build(PlanState& p, const SpmvOptions& o);
void plan_entry_run(const PlanState& p, const void* x, void* y, const SpmvOptions& o);

inline constexpr const char* PLAN_NAME = "tessera::spmv_plan";
inline constexpr const char* PLAN_RUN_NAME = "tessera::spmv(plan)";

// The O(1) checks of a plan's run: its variant, the vectors, the workspace size.
inline void check_plan_run(const PlanState& p, const void* x, const void* y, const SpmvOptions& o,
                           std::size_t ws_bytes) {
  require(o.variant.empty() || o.variant == p.name,
          fmt::format("{}: options.variant = '{}' but the plan runs '{}' (make a plan for that variant)",
                      PLAN_RUN_NAME, o.variant, p.name));
  check_entries_and_vectors(p.spec.dtype, p.spec.rows, p.spec.cols, 0, nullptr, nullptr, x, y, PLAN_RUN_NAME,
                            "spmv");
  require(o.workspace.ptr == nullptr || o.workspace.bytes >= ws_bytes,
          fmt::format("{}: the workspace holds {} B but this call needs {} B", PLAN_RUN_NAME, o.workspace.bytes,
                      ws_bytes));
}

}  // namespace tessera::spmv_impl
