#include "ladder/ladder.hpp"

#include <fmt/format.h>

#include "tessera/core/error.hpp"

namespace tessera::ladder {

std::string names_of(std::span<const VariantInfo> all) {
  std::string names;
  for (const auto& v : all) names += fmt::format("{}{}", names.empty() ? "" : ", ", v.name);
  return names;
}

void throw_no_variant(std::string_view who, std::string_view name, std::span<const VariantInfo> all) {
  throw Error(fmt::format("{}: no variant named '{}' (variants: {})", who, name, names_of(all)));
}

}  // namespace tessera::ladder
