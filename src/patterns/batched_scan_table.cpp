// The batched_scan ladder in order: CPU rungs, CUDA rungs, vendor baseline,
// sorted by step (stable, so table order breaks ties). Compiled in every
// build, CPU-only included.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "patterns/batched_scan.hpp"

namespace tessera {

std::string_view to_string(ScanDirection d) noexcept {
  switch (d) {
    case ScanDirection::forward: return "forward";
    case ScanDirection::backward: return "backward";
    case ScanDirection::forward_backward: return "forward_backward";
  }
  return "?";
}

}  // namespace tessera

namespace tessera::batched_scan_impl {

#if !TESSERA_HAVE_CUDA
std::span<const ScanVariant> cuda_variants() { return {}; }
std::span<const ScanVariant> vendor_variants() { return {}; }
#endif

std::span<const ScanVariant> all_variants() {
  static const std::vector<ScanVariant> all = [] {
    std::vector<ScanVariant> v;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) v.insert(v.end(), table.begin(), table.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.info.step < b.info.step; });
    return v;
  }();
  return all;
}

const ScanVariant* find_variant(std::string_view name) {
  for (const auto& v : all_variants())
    if (v.info.name == name) return &v;
  return nullptr;
}

std::string describe(const ScanSpec& s) {
  return fmt::format("{} {}, accumulator {}, {} rows x {} samples (pitches {}/{}{})", to_string(s.direction),
                     s.exclusive ? "exclusive" : "inclusive", to_string(s.accum), s.rows, s.len, s.in_pitch,
                     s.out_pitch, s.in_place ? ", in place" : "");
}

}  // namespace tessera::batched_scan_impl
