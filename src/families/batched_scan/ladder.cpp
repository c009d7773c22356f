// The batched_scan ladder in order: CPU rungs, CUDA rungs, vendor baseline,
// sorted by step (stable, so table order breaks ties). Compiled in every
// build, CPU-only included.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "families/batched_scan/contract.hpp"
#include "ladder/ladder.hpp"

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

ladder::Ladder<ScanVariant>& variants_ladder() {
  static ladder::Ladder<ScanVariant> ladder = [] {
    std::vector<ScanVariant> rows;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) rows.insert(rows.end(), table.begin(), table.end());
    return ladder::Ladder<ScanVariant>(rows);
  }();
  return ladder;
}

std::span<const ScanVariant> all_variants() { return variants_ladder().all(); }

const ScanVariant* find_variant(std::string_view name) { return variants_ladder().find(name); }

std::string describe(const ScanSpec& s) {
  return fmt::format("{} {}, accumulator {}, {} rows x {} samples (pitches {}/{}{})", to_string(s.direction),
                     s.exclusive ? "exclusive" : "inclusive", to_string(s.accum), s.rows, s.len, s.in_pitch,
                     s.out_pitch, s.in_place ? ", in place" : "");
}

}  // namespace tessera::batched_scan_impl
