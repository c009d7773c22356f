// The registry's description of one ladder rung. Each pattern keeps a table of
// these next to its run functions (one line per variant: the only place a
// variant's name, step and `adds` are written).
#pragma once

#include <string_view>

#include "tessera/core/types.hpp"

namespace tessera {

struct VariantInfo {
  std::string_view pattern;  // "reduce"
  std::string_view name;     // "interleaved"
  int step;                  // place on the ladder; 0 = CPU reference
  Backend backend;
  Role role;
  std::string_view adds;     // what this step changes, and the seed section it comes from
  bool deterministic;        // bitwise-identical results run after run on one GPU

  constexpr Kind kind() const noexcept { return kind_of(role); }
};

}  // namespace tessera
