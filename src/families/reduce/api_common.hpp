// Argument validation shared by the CUDA and CPU-only builds of the public
// reduce API: everything is checked before anything runs or is written.
#pragma once

#include <fmt/format.h>

#include <string>

#include "tessera/blocks/reducers.hpp"
#include "families/reduce/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/reduce.hpp"

namespace tessera::reduce_impl {

inline std::string describe(const ReduceSpec& s) {
  return fmt::format("{} {} (accumulator {}, n = {})", to_string(s.dtype), to_string(s.op), to_string(s.accum), s.n);
}

// Resolves the variant (by name or the default) and checks that it can run
// `spec`; throws Error naming the problem otherwise.
inline const ReduceVariant& resolve(const ReduceSpec& spec, const std::string& name, const void* in, const void* out) {
  require(out != nullptr, "tessera::reduce: d_out is a null pointer");
  require(in != nullptr || spec.n == 0,
          fmt::format("tessera::reduce: d_in is a null pointer but n = {}", spec.n));
  require(dispatch_reducer(spec.dtype, spec.op, spec.accum, []<class>() {}),
          fmt::format("tessera::reduce: unsupported combination {}; accumulators other than native apply to "
                      "float sums only",
                      describe(spec)));
  const std::string chosen = name.empty() ? reduce_default_variant(spec.dtype, spec.op, spec.accum, spec.n) : name;
  const ReduceVariant* v = find_variant(chosen);
  if (v == nullptr) {
    std::string names;
    for (const auto& var : all_variants()) names += fmt::format("{}{}", names.empty() ? "" : ", ", var.info.name);
    throw Error(fmt::format("tessera::reduce: no variant named '{}' (variants: {})", chosen, names));
  }
  require(v->supports(spec), fmt::format("tessera::reduce: variant '{}' does not support {}", chosen, describe(spec)));
  return *v;
}

}  // namespace tessera::reduce_impl
