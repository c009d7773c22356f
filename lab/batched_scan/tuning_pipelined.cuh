// The policies of the fused pipelined kernel (src/families/batched_scan/
// pipelined_kernel.cuh) that the H100 bench did not keep, each with the
// measurement that rejected it. 05_fused_pipelined_sweep.cu runs them, and
// it and 05_fused_pipelined_lean.cu the product's own policies (Wide,
// LeanChain<K>, LazyChain<K>) without their bulk copies, as the lab's step-5
// rows.
//
// Every figure: H100 80GB HBM3, 10,000 x 10,000 floats, forward_backward,
// % of the device-to-device copy (docs/results/batched_scan-h100-2026-11-23b
// to -23f; the product's picks on the same runs: fused_pipelined_bulk float
// 94.5-95.0, fused_pipelined_lazy_bulk double 91.8-93.1, Kahan 89.7-90.6,
// double-float 89.2-90.1).
#pragma once

#include "families/batched_scan/pipelined_kernel.cuh"

namespace tessera::batched_scan_impl::tuning {

using gpu_detail::PipelinedDefaults;

// fused_pipelined_two_blocks: the fused tile (384 x 28) at two blocks per SM
// (float 56 registers, Kahan and double-float 80: fused_occupancy's no-spill
// points; double spills ~300 bytes at 80, so it stays at one block of 136
// registers), 2 stages each: 2 x 2 x 42 KB = 168 KB per SM, two blocks
// interleaving their barriers. Run 2 (-23b): float 85.3, double 80.3, Kahan
// 66.8, double-float 63.5 (Wide: 91.4 / 72.4 / 49.0 / 47.6): the 8-byte
// accumulators' pick until two chains. ncu (double): 140 registers, 12
// warps per SM, 0.73 eligible warps of 3 per scheduler, issue 45% busy:
// latency of one 28-item dependent chain per pass, not DRAM.
struct TwoBlocksPolicy : PipelinedDefaults {
  static constexpr int BLOCK = TilePolicy::BLOCK;
  static constexpr int ITEMS = TilePolicy::ITEMS;
  template <class R>
  static constexpr int min_blocks() {
    return gpu_detail::occupancy_blocks<R>() < 2 ? gpu_detail::occupancy_blocks<R>() : 2;
  }
};

// fused_pipelined_two_chains: TwoBlocks with each thread's 28 items as 2
// interleaved chains of 14 (scan_chains.cuh: half the dependent chain per
// pass for one more combine per thread), one unpredicated copy of the item
// loops (edge warps zero their padding and mask with selects instead of
// diverging from a constant-bound copy), a tree-form block suffix scan, and
// two blocks per SM for double too (80 registers, no spills; 4 chains of 7
// spill 72 bytes). Run 3 (-23c): double 87.3, Kahan 73.1, double-float
// 68.7, float 87.0: the 8-byte accumulators' pick until LeanChain<2>.
struct TwoChainsPolicy : PipelinedDefaults {  // (EXCL_SPLIT off: the 8-byte states' code is large already)
  static constexpr int BLOCK = TilePolicy::BLOCK;
  static constexpr int ITEMS = TilePolicy::ITEMS;
  template <class R>
  static constexpr int min_blocks() { return 2; }
  template <class R>
  static constexpr int chains() { return 2; }
};

// fused_pipelined_masked: Wide's cut, occupancy and 3 stages through
// scan_chains.cuh with one chain: no FAST copy of the loops for the row's
// tail warp to diverge from (on 10,000-sample rows warp 26 runs both copies
// and every barrier waits for it), and inclusive / exclusive as separate
// copies (no FSEL per item per pass). Predicted 93-95% for float; run 3
// (-23c): float 90.9 against Wide's 92.4. Rejected.
struct WideMaskedPolicy : PipelinedDefaults {
  static constexpr int BLOCK = gpu_detail::WidePolicy::BLOCK;
  static constexpr int ITEMS = gpu_detail::WidePolicy::ITEMS;
  template <class R>
  static constexpr int min_blocks() { return 1; }
  template <class R>
  static constexpr int chains() { return 1; }
  static constexpr bool EXCL_SPLIT = true;
};

using gpu_detail::valid_policy;
static_assert(valid_policy<TwoBlocksPolicy> && valid_policy<TwoChainsPolicy> && valid_policy<WideMaskedPolicy> &&
                  valid_policy<gpu_detail::LeanChainPolicy<4>>,
              "the fused tile, conflict-free, fits an SM");
static_assert(2 * 2 * gpu_detail::slots_of<TwoBlocksPolicy>() * sizeof(float) <= 227 * 1024,
              "TwoBlocks: 2 blocks x 2 stages fit one SM");

}  // namespace tessera::batched_scan_impl::tuning
