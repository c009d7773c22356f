// Step 10 — the size-dependent choice among the warp-tiled configurations
// (tuning as data: the rate table below).
//
// Model. The grid's tiles are spread over the SMs; the busiest SM gets
// b = ceil(tiles / SMs) of them, and the blocks resident on an SM share its
// FFMA throughput, so the predicted time is
//     ceil(tiles / SMs) * BM * BN / tflops
// (K is common to all). The ceiling is the wave quantization that makes
// 1000 x 3000 (192 tiles of 128 x 128 for 132 SMs: 2 on the busiest SM, 1.45
// on average) prefer 128 x 64 tiles (3 of them, 2.85 on average); otherwise
// the fastest configuration wins. (An earlier model charged whole rounds of
// `resident` blocks, which picked 128 x 128 there: 0.81x cuBLAS measured,
// against 1.02x for 128 x 64.) The occupancy API only rules out
// configurations that do not fit on the device. A*A^T counts the tiles on and
// below the diagonal and takes
// square configurations only.
//
// The rates: measured on the H100 (tessera bench gemm, 8192^3, each
// configuration's variant warp_tiled_<config>; docs/gemm.md "Results",
// docs/results/gemm-h100-2026-11-23.json). Re-measure after changing a kernel.
#include <array>
#include <atomic>
#include <cmath>
#include <limits>

#include "tessera/blocks/device.cuh"
#include "families/gemm/gemm_common.cuh"
#include "families/gemm/cuda_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

constexpr int CONFIGS = 11;

// Resident blocks of each configuration on each device, queried once.
int resident_blocks(int config, const WarpTiledKernels& k) {
  static std::atomic<int> cache[tessera::gpu::device_detail::MAX_CACHED_DEVICES][CONFIGS] = {};
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  if (device < 0 || device >= tessera::gpu::device_detail::MAX_CACHED_DEVICES) return k.resident_blocks();
  std::atomic<int>& slot = cache[device][config];
  int blocks = slot.load(std::memory_order_relaxed);
  if (blocks == 0) {  // racing first queries store the same value
    blocks = k.resident_blocks();
    slot.store(blocks > 0 ? blocks : -1, std::memory_order_relaxed);
  }
  return blocks;
}

}  // namespace

std::span<const WarpTiledConfig> warp_tiled_configs() {
  // name, measured TFLOP/s (H100 FP32, 8192^3), kernels
  static const std::array<WarpTiledConfig, CONFIGS> table{{
      {"128x128x8", 39.6, warp_tiled_kernels_128x128x8()},
      {"128x128x16", 44.1, warp_tiled_kernels_128x128x16()},
      {"128x256x8", 43.3, warp_tiled_kernels_128x256x8()},
      {"128x64x16", 44.0, warp_tiled_kernels_128x64x16()},
      {"64x64x16", 38.5, warp_tiled_kernels_64x64x16()},
      {"128x128x16_ic", 46.3, warp_tiled_kernels_128x128x16_ic()},
      {"128x128x32_ic", 46.0, warp_tiled_kernels_128x128x32_ic()},
      {"128x256x16_ic", 43.6, warp_tiled_kernels_128x256x16_ic()},
      // Serpentine multiply-adds (docs/results/gemm-h100-2026-11-23c.json,
      // 8192^3): 49.5 and 49.1; 128x64x16_sp measured level with 128x64x16
      // (44.3 both), so it keeps 128x64x16's rate and loses the tie.
      {"128x128x16_sp", 49.5, warp_tiled_kernels_128x128x16_sp()},
      {"128x128x32_sp", 49.1, warp_tiled_kernels_128x128x32_sp()},
      {"128x64x16_sp", 44.0, warp_tiled_kernels_128x64x16_sp()},
  }};
  return table;
}

const WarpTiledConfig& choose_warp_tiled(const GemmSpec& s) {
  const auto configs = warp_tiled_configs();
  const double sms = tessera::gpu::sm_count();
  const WarpTiledConfig* best = nullptr;
  double best_cost = std::numeric_limits<double>::infinity();
  for (int i = 0; i < CONFIGS; ++i) {
    const WarpTiledConfig& c = configs[std::size_t(i)];
    if (s.op == GemmOp::aat && c.kernels.run_aat == nullptr) continue;
    const int resident = resident_blocks(i, c.kernels);
    if (resident <= 0) continue;  // does not fit on this device
    const double tiles_m = double(detail::div_up(s.m, std::size_t(c.kernels.bm)));
    const double tiles_n = double(detail::div_up(s.n, std::size_t(c.kernels.bn)));
    const double tiles = s.op == GemmOp::aat ? tiles_m * (tiles_m + 1) / 2 : tiles_m * tiles_n;
    const double cost = std::ceil(tiles / sms) * c.kernels.bm * c.kernels.bn / c.tflops;
    if (cost < best_cost) {
      best_cost = cost;
      best = &c;
    }
  }
  if (best == nullptr) throw Error("gemm warp_tiled: no tile configuration fits on this device");
  return *best;
}

void run_warp_tiled(const GemmCall& call) {
  if (call.spec.m == 0 || call.spec.n == 0) return;
  choose_warp_tiled(call.spec).kernels.run_ab(call);
}

void run_aat_warp_tiled(const GemmCall& call) {
  if (call.spec.m == 0) return;
  choose_warp_tiled(call.spec).kernels.run_aat(call);
}

}  // namespace tessera::gemm_impl
