// What the public scan API shares between the CUDA and the CPU-only builds:
// argument validation (everything is checked before anything runs or is
// written) and the per-build entry points the templates of api_entries.cpp
// call.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "families/scan/contract.hpp"
#include "families/scan/policy.hpp"
#include "tessera/blocks/scan_ops.hpp"
#include "tessera/core/error.hpp"
#include "tessera/scan.hpp"

namespace tessera::scan_impl {

// The call an error message names.
inline const char* api_name(bool exclusive) {
  return exclusive ? "tessera::exclusive_scan" : "tessera::inclusive_scan";
}
inline constexpr const char* WORKSPACE_QUERY = "tessera::scan_workspace_bytes";

inline std::string describe(const ScanSpec& s) {
  return fmt::format("{} {} (accumulator {}, n = {})", to_string(s.dtype), to_string(s.op), to_string(s.accum), s.n);
}

inline ScanSpec spec_of(Dtype dtype, std::size_t n, bool exclusive, const ScanOptions& o) {
  return {dtype, o.op, o.accum, exclusive, n};
}

// The variant (by name or the policy's pick), checked against `spec`;
// throws Error naming `who` and the problem otherwise.
inline const ScanVariant& resolve(const ScanSpec& spec, const std::string& name, const char* who) {
  require(scan_supported(spec.dtype, spec.op, spec.accum),
          fmt::format("{}: unsupported combination {}; accumulators other than native apply to float sums only", who,
                      describe(spec)));
  const std::string chosen = name.empty() ? std::string(policy_pick(spec)) : name;
  const ScanVariant& v = variants_ladder().at(chosen, who);
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support {}", who, chosen, describe(spec)));
  return v;
}

// The pointer checks every call makes first, then resolve().
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
  return resolve(spec, name, who);
}

// The build's body of the public calls (api.cpp in CUDA builds, api_cpu.cpp
// in CPU-only builds).
void scan_entry(Dtype dtype, const void* in, std::size_t n, void* out, bool exclusive, const ScanOptions& o);

}  // namespace tessera::scan_impl
