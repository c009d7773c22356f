// The lab's rows of the gemm ladder (Role::tuning), added to the product's
// ladder by tessera-lab and tessera_lab_tests: step 10's tile and
// code-generation sweep, the split-k factors and the stream-K tail (CUDA builds; the CPU-only
// build has none).
#include "register_lab.hpp"

#if TESSERA_HAVE_CUDA
#include <vector>

#include "families/gemm/contract.hpp"
#include "gemm/warp_tiled_sweep.hpp"
#endif

namespace tessera::lab {

void register_gemm_lab() {
#if TESSERA_HAVE_CUDA
  std::vector<gemm_impl::GemmVariant> rows;
  for (const auto& entry : gemm_lab::warp_tiled_sweep()) rows.push_back(entry.row);
  for (const auto& row : gemm_lab::warp_tiled_split_k_rows()) rows.push_back(row);
  rows.push_back(gemm_lab::warp_tiled_stream_k_row());
  gemm_impl::variants_ladder().add(rows);
#endif
}

}  // namespace tessera::lab
