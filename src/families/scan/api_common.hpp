// Argument validation shared by the CUDA and CPU-only builds of the public
// scan API: everything is checked before anything runs or is written.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "tessera/blocks/scan_ops.hpp"
#include "families/scan/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/scan.hpp"

namespace tessera::scan_impl {

// The body of tessera::inclusive_scan / exclusive_scan for every element type
// (src/api/scan_api_entries.cpp): scan_api.cpp in CUDA builds, scan_api_cpu.cpp
// in CPU-only builds.
void scan_entry(Dtype dtype, const void* in, void* out, std::size_t n, Op op, bool exclusive,
                const ScanOptions& options);

inline const char* api_name(bool exclusive) {
  return exclusive ? "tessera::exclusive_scan" : "tessera::inclusive_scan";
}

inline std::string describe(const ScanSpec& s) {
  return fmt::format("{} {} (accumulator {}, n = {})", to_string(s.dtype), to_string(s.op), to_string(s.accum), s.n);
}

// Resolves the variant (by name or the default) and checks the arguments;
// throws Error naming the problem otherwise.
inline const ScanVariant& resolve(const ScanSpec& spec, const std::string& name, const void* in, const void* out) {
  const char* who = api_name(spec.exclusive);
  if (spec.n > 0) {
    require(in != nullptr, fmt::format("{}: d_in is a null pointer but n = {}", who, spec.n));
    require(out != nullptr, fmt::format("{}: d_out is a null pointer but n = {}", who, spec.n));
    const auto a = reinterpret_cast<std::uintptr_t>(in), b = reinterpret_cast<std::uintptr_t>(out);
    const std::size_t bytes = spec.n * size_of(spec.dtype);
    require(a == b || a + bytes <= b || b + bytes <= a,
            fmt::format("{}: d_in [{}, +{} B) and d_out [{}, +{} B) overlap without being equal; scan in place with "
                        "d_out == d_in, or use separate arrays",
                        who, in, bytes, out, bytes));
  }
  require(scan_supported(spec.dtype, spec.op, spec.accum),
          fmt::format("{}: unsupported combination {}; accumulators other than native apply to float sums only", who,
                      describe(spec)));
  const std::string chosen =
      name.empty() ? scan_default_variant(spec.dtype, spec.op, spec.accum, spec.exclusive, spec.n) : name;
  const ScanVariant* v = find_variant(chosen);
  if (v == nullptr) {
    std::string names;
    for (const auto& var : all_variants()) names += fmt::format("{}{}", names.empty() ? "" : ", ", var.info.name);
    throw Error(fmt::format("{}: no variant named '{}' (variants: {})", who, chosen, names));
  }
  require(v->supports(spec), fmt::format("{}: variant '{}' does not support {}", who, chosen, describe(spec)));
  return *v;
}

}  // namespace tessera::scan_impl
