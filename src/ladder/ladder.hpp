// The one generic ladder: a family's variant table in ladder order, lookup by
// name, the "no variant named X" error, and the lab's tuning rows merged in.
// V is a family's variant struct: a VariantInfo `info` plus its supports /
// workspace / run functions. Every family keeps one table and one Ladder.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/core/variant.hpp"

namespace tessera::ladder {

// Short names for a table's role column.
namespace roles {
inline constexpr Role REFERENCE = Role::reference;
inline constexpr Role TAUGHT = Role::taught;
inline constexpr Role PRODUCT = Role::product;
inline constexpr Role VENDOR = Role::vendor;
inline constexpr Role TUNING = Role::tuning;
inline constexpr Backend CPU = Backend::cpu;
inline constexpr Backend CUDA = Backend::cuda;
}  // namespace roles

// "<who>: no variant named '<name>' (variants: a, b, ...)".
[[noreturn]] void throw_no_variant(std::string_view who, std::string_view name, std::span<const VariantInfo> all);

// Names of the variants, comma-separated, ladder order.
std::string names_of(std::span<const VariantInfo> all);

template <class V>
class Ladder {
 public:
  // The family's table: any order; kept sorted by step (table order breaks ties).
  explicit Ladder(std::span<const V> table) : rows_(table.begin(), table.end()) { sort(); }

  std::span<const V> all() const { return rows_; }

  const V* find(std::string_view name) const {
    for (const auto& v : rows_)
      if (v.info.name == name) return &v;
    return nullptr;
  }

  // The named variant, or tessera::Error naming every variant there is.
  const V& at(std::string_view name, std::string_view who) const {
    if (const V* v = find(name)) return *v;
    throw_no_variant(who, name, infos());
  }

  std::vector<VariantInfo> infos() const {
    std::vector<VariantInfo> out;
    out.reserve(rows_.size());
    for (const auto& v : rows_) out.push_back(v.info);
    return out;
  }

  // The lab build's tuning rows (lab/), merged in ladder order. Called once at
  // start-up, before any lookup.
  void add(std::span<const V> rows) {
    rows_.insert(rows_.end(), rows.begin(), rows.end());
    sort();
  }

 private:
  void sort() {
    std::stable_sort(rows_.begin(), rows_.end(), [](const V& a, const V& b) { return a.info.step < b.info.step; });
  }
  std::vector<V> rows_;
};

}  // namespace tessera::ladder
