// warp_tiled_128x128x16_stream_k: the product's 128x128x16 serpentine
// configuration (10_warp_tiled_policies.cuh) with the stream-K tail
// (warp_tiled_stream_k.cuh). A tuning row: measured 0.84x cuBLAS against the
// data-parallel kernel's 0.95x (2e7a0c4).
#include "families/gemm/10_warp_tiled_policies.cuh"
#include "gemm/warp_tiled_stream_k.cuh"
#include "gemm/warp_tiled_sweep.hpp"
#include "ladder/ladder.hpp"

namespace tessera::gemm_lab {

namespace {

using Tiles = gemm_impl::dev::Tiles128x128x16Serpentine;

void run_stream_k(const gemm_impl::GemmCall& call) { gemm_impl::dev::run_warp_tiled_sk_ab<Tiles>(call); }

std::size_t stream_k_workspace(const gemm_impl::GemmSpec& spec) {
  return gemm_impl::dev::stream_k_workspace_bytes<Tiles>(spec);
}

}  // namespace

const gemm_impl::GemmVariant& warp_tiled_stream_k_row() {
  using namespace ladder::roles;
  static const gemm_impl::GemmVariant row{
      {"gemm", "warp_tiled_128x128x16_stream_k", 10, CUDA, TUNING,
       "stream-K tail: warp_tiled_128x128x16_serpentine with full waves data-parallel and the partial wave plus one "
       "full wave (busiest-SM model) split by k slabs evenly over all resident blocks: every slot does the same work; "
       "deterministic fixup (last arriver sums partials in k order, no waiting)",
       true},
      gemm_impl::Fill::full, 0, gemm_impl::is_ab_nn, stream_k_workspace, run_stream_k};
  return row;
}

StreamKSplit warp_tiled_stream_k_split(const gemm_impl::GemmSpec& spec) {
  const auto plan = gemm_impl::dev::stream_k_plan_for<Tiles>(spec, true);
  return {plan.sk_ctas, plan.sk_tiles, plan.iters};
}

}  // namespace tessera::gemm_lab
