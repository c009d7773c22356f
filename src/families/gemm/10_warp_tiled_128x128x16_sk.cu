// Step 10, warp_tiled_128x128x16_sk: the 128x128x16_sp configuration
// (interior copies, serpentine multiply-adds) with the stream-K tail
// (10_warp_tiled_sk.cuh).
#include "families/gemm/10_warp_tiled_policies.cuh"
#include "families/gemm/10_warp_tiled_sk.cuh"

namespace tessera::gemm_impl {

void run_warp_tiled_128x128x16_sk(const GemmCall& call) { dev::run_warp_tiled_sk_ab<dev::Policy128x128x16_sp>(call); }

std::size_t warp_tiled_128x128x16_sk_workspace(const GemmSpec& spec) {
  return dev::stream_k_workspace_bytes<dev::Policy128x128x16_sp>(spec);
}

StreamKSplit warp_tiled_128x128x16_sk_split(const GemmSpec& spec) {
  const auto plan = dev::stream_k_plan_for<dev::Policy128x128x16_sp>(spec, true);
  return {plan.sk_ctas, plan.sk_tiles, plan.iters};
}

}  // namespace tessera::gemm_impl
