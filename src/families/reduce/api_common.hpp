// What the public reduce API shares between the CUDA and the CPU-only builds:
// argument validation (everything is checked before anything runs or is
// written) and the per-build entry points the templates of api_entries.cpp
// call.
#pragma once

#include <fmt/format.h>

#include <string>

#include "families/reduce/contract.hpp"
#include "families/reduce/policy.hpp"
#include "tessera/blocks/reducers.hpp"
#include "tessera/core/error.hpp"
#include "tessera/reduce.hpp"

namespace tessera::reduce_impl {

// The call an error message names.
inline const char* api_name(bool out_on_host) { return out_on_host ? "tessera::reduce" : "tessera::reduce_into"; }
inline constexpr const char* WORKSPACE_QUERY = "tessera::reduce_workspace_bytes";

inline std::string describe(const ReduceSpec& s) {
  return fmt::format("{} {} (accumulator {}, n = {})", to_string(s.dtype), to_string(s.op), to_string(s.accum), s.n);
}

// The variant (by name or the policy's pick), checked against `spec`;
// throws Error naming `who` and the problem otherwise.
inline const ReduceVariant& resolve(const ReduceSpec& spec, const std::string& name, const char* who) {
  require(dispatch_reducer(spec.dtype, spec.op, spec.accum, []<class>() {}),
          fmt::format("{}: unsupported combination {}; accumulators other than native apply to float sums only", who,
                      describe(spec)));
  const std::string chosen = name.empty() ? std::string(policy_pick(spec)) : name;
  const ReduceVariant& v = variants_ladder().at(chosen, who);
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support {}", who, chosen, describe(spec)));
  return v;
}

// The pointer checks every call makes first, then resolve().
inline const ReduceVariant& resolve(const ReduceSpec& spec, const std::string& name, const void* in, const void* out,
                                    const char* who) {
  require(out != nullptr, fmt::format("{}: d_out is a null pointer", who));
  require(in != nullptr || spec.n == 0, fmt::format("{}: d_in is a null pointer but n = {}", who, spec.n));
  return resolve(spec, name, who);
}

inline ReduceSpec spec_of(Dtype dtype, std::size_t n, const ReduceOptions& o) { return {dtype, o.op, o.accum, n}; }

// The build's bodies of the public calls (api.cpp in CUDA builds, api_cpu.cpp
// in CPU-only builds). `out_on_host`: tessera::reduce's own result on the
// host, else tessera::reduce_into's `d_out`.
void reduce_entry(Dtype dtype, const void* in, std::size_t n, void* out, bool out_on_host, const ReduceOptions& o);
std::size_t reduce_entry_workspace(Dtype dtype, std::size_t n, const ReduceOptions& o);

}  // namespace tessera::reduce_impl
