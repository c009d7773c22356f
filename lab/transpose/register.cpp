// The lab's rows of the transpose ladder (Role::tuning), added to the
// product's ladder by tessera-lab and tessera_lab_tests: the block-shape
// sweep of step 6 and tessera's step-7 experiments. None is picked by the
// public API (src/families/transpose/policy.hpp says what is and why).
#include "register_lab.hpp"

#if TESSERA_HAVE_CUDA
#include <vector>

#include "families/transpose/contract.hpp"
#include "transpose/lab_rungs.hpp"
#endif

namespace tessera::lab {

void register_transpose_lab() {
#if TESSERA_HAVE_CUDA
  using namespace transpose_impl;
  using ladder::roles::CUDA;
  using ladder::roles::TUNING;
  constexpr Output T = Output::transpose;
  static const TransposeVariant named[] = {
      {{"transpose", "grouped_order", 7, CUDA, TUNING, "unroll4 with blocks walking bands of 16 tile rows column by column: resident blocks cover a square, output rows written in KiB runs", true}, T, supports_words, nullptr, run_grouped_order},
      {{"transpose", "vec16_swizzle", 7, CUDA, TUNING, "16-byte loads and stores on both sides through an XOR-swizzled 16 KiB tile (no padding, no conflicts); padded tile when unaligned", true}, T, supports_words, nullptr, run_vec16_swizzle},
      {{"transpose", "vec16_grouped", 7, CUDA, TUNING, "vec16_swizzle in grouped tile order", true}, T, supports_words, nullptr, run_vec16_grouped},
  };
  std::vector<TransposeVariant> rows(std::begin(named), std::end(named));
  for (auto sweep : {block_shape_rows(), persistent_rows()}) rows.insert(rows.end(), sweep.begin(), sweep.end());
  variants_ladder().add(rows);
#endif
}

}  // namespace tessera::lab
