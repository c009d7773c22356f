// Argument validation shared by the CUDA and CPU-only builds of the public
// histogram API: everything is checked before anything runs or is written.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "families/histogram/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/histogram.hpp"

namespace tessera::histogram_impl {

static_assert(HISTOGRAM_BYTE_BINS == BYTE_BINS && HISTOGRAM_MAX_BINS == MAX_BINS && HISTOGRAM_MAX_N == MAX_N,
              "the public limits are the pattern's");

inline bool overlaps(const void* a, std::size_t a_bytes, const void* b, std::size_t b_bytes) {
  if (a == nullptr || b == nullptr || a_bytes == 0 || b_bytes == 0) return false;
  const auto pa = reinterpret_cast<std::uintptr_t>(a), pb = reinterpret_cast<std::uintptr_t>(b);
  return pa < pb + b_bytes && pb < pa + a_bytes;
}

// The size and the bins of a call (`who`: the entry point, for messages).
inline void check_spec(const HistogramSpec& s, const char* who) {
  require(s.n <= MAX_N, fmt::format("{}: n = {} is 2^32 or more: the uint32 counts could wrap (split the input and "
                                    "add the counts)",
                                    who, s.n));
  if (s.dtype == Dtype::f32) {
    const std::string problem = even_bins_problem(s.bins, s.lo, s.hi);
    require(problem.empty(), fmt::format("{}: {}", who, problem));
  }
}

// Every argument of one call (`who`: "tessera::histogram" or
// "tessera::histogram_even"; `in_name`: "d_bytes" or "d_x").
inline void check_arguments(const HistogramSpec& s, const void* in, const std::uint32_t* counts,
                            const std::uint32_t* out_of_range, const char* who, const char* in_name) {
  require(counts != nullptr, fmt::format("{}: d_counts is a null pointer", who));
  require(in != nullptr || s.n == 0, fmt::format("{}: {} is a null pointer but n = {}", who, in_name, s.n));
  check_spec(s, who);
  if (s.dtype == Dtype::f32)
    require(s.n == 0 || reinterpret_cast<std::uintptr_t>(in) % alignof(float) == 0,
            fmt::format("{}: {} = {} is not aligned to a float", who, in_name, in));
  const std::size_t in_bytes = s.n * size_of(s.dtype);
  const std::size_t count_bytes = static_cast<std::size_t>(s.bins) * sizeof(std::uint32_t);
  require(!overlaps(in, in_bytes, counts, count_bytes),
          fmt::format("{}: d_counts [{}, +{} bytes) overlaps the input {} [{}, +{} bytes)", who,
                      static_cast<const void*>(counts), count_bytes, in_name, in, in_bytes));
  require(!overlaps(out_of_range, sizeof(std::uint32_t), counts, count_bytes) &&
              !overlaps(out_of_range, sizeof(std::uint32_t), in, in_bytes),
          fmt::format("{}: out_of_range ({}) overlaps d_counts or the input", who,
                      static_cast<const void*>(out_of_range)));
}

// The variant named `name`, or the policy's for the spec; throws Error naming
// the problem when there is none or it cannot take the spec.
inline const HistogramVariant& resolve(const HistogramSpec& s, const std::string& name, const char* who) {
  const std::string chosen = name.empty() ? histogram_default_variant(s.dtype, s.bins, s.n) : name;
  const HistogramVariant& v = variants_ladder().at(chosen, who);
  require(v.supports(s), fmt::format("{}: variant '{}' does not support {}", who, chosen, describe(s)));
  return v;
}

// What one entry point passes down: its spec, its names for messages, and
// the options' last three fields.
struct Request {
  HistogramSpec spec;
  const char* who;      // "tessera::histogram"
  const char* in_name;  // "d_bytes"
  const std::string& variant;
  stream_t stream;
  Workspace workspace;
};

// The checked run behind both public entry points (api_entries.cpp): api.cpp
// defines it for CUDA builds, api_cpu.cpp for CPU-only builds.
void run_checked(const Request& r, const void* in, std::uint32_t* counts, std::uint32_t* out_of_range);

// Workspace bytes that make a call of variant v on `spec` allocate nothing
// (defined per build, next to run_checked).
std::size_t call_workspace_bytes(const HistogramVariant& v, const HistogramSpec& spec);

inline HistogramSpec byte_spec(std::size_t n) { return {Dtype::u8, n, BYTE_BINS, 0.0f, 0.0f}; }
inline HistogramSpec even_spec(std::size_t n, const HistogramEvenOptions& o) { return {Dtype::f32, n, o.bins, o.lo, o.hi}; }

}  // namespace tessera::histogram_impl
