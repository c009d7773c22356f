// The registry: every pattern, each with its ladder of variants. Built by one
// explicit register_all() (static self-registration gets dropped by linkers).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "harness/problem.hpp"

namespace tessera {

const std::vector<std::unique_ptr<harness::Pattern>>& patterns();
const harness::Pattern* find_pattern(std::string_view name);

}  // namespace tessera
