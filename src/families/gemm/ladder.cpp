// The GEMM ladders in order: CPU rungs, CUDA rungs, vendor baselines, sorted
// by step (stable, so table order breaks ties). Steps 0-11 are the C = A*B
// ladder, 12-16 the C = A*A^T ladder; the CPU rungs serve both.
#include <algorithm>
#include <vector>

#include "families/gemm/contract.hpp"
#include "ladder/ladder.hpp"

namespace tessera::gemm_impl {

#if !TESSERA_HAVE_CUDA
std::span<const GemmVariant> cuda_variants() { return {}; }
std::span<const GemmVariant> vendor_variants() { return {}; }
#endif

std::string_view to_string(GemmOp op) noexcept { return op == GemmOp::ab ? "ab" : "aat"; }

ladder::Ladder<GemmVariant>& variants_ladder() {
  static ladder::Ladder<GemmVariant> ladder = [] {
    std::vector<GemmVariant> rows;
    for (auto table : {cpu_variants(), cuda_variants(), vendor_variants()}) rows.insert(rows.end(), table.begin(), table.end());
    return ladder::Ladder<GemmVariant>(rows);
  }();
  return ladder;
}

std::span<const GemmVariant> all_variants() { return variants_ladder().all(); }

const GemmVariant* find_variant(std::string_view name) { return variants_ladder().find(name); }

}  // namespace tessera::gemm_impl
