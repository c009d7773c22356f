// The parts of a pattern's variant table that do not depend on the pattern:
// merge the per-backend tables into ladder order (by step; table order breaks
// ties) and look a variant up by name. V is a pattern's variant struct with a
// VariantInfo `info` member.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

namespace tessera {

template <class V>
std::vector<V> ladder_of(std::initializer_list<std::span<const V>> tables) {
  std::vector<V> all;
  for (auto table : tables) all.insert(all.end(), table.begin(), table.end());
  std::stable_sort(all.begin(), all.end(), [](const V& a, const V& b) { return a.info.step < b.info.step; });
  return all;
}

template <class V>
const V* find_by_name(std::span<const V> all, std::string_view name) {
  for (const auto& v : all)
    if (v.info.name == name) return &v;
  return nullptr;
}

}  // namespace tessera
