// The GEMM default policy as data: which variant the public API picks for
// each product, and which tile configuration the picked warp_tiled kernel
// runs for a shape. Each rule carries the measurement that chose it; the
// rejected alternatives are in docs/gemm.md ("What was tried") and in the
// lab (lab/gemm/warp_tiled_sweep.cu). Plain C++: the CPU tests check the
// choices without a GPU.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <string_view>

#include "families/gemm/contract.hpp"

namespace tessera::gemm_impl::policy {

// ---- the API's variant ---------------------------------------------------------

struct VariantRule {
  GemmOp op;
  bool gpu;                  // a CUDA build (false: the CPU-only build)
  std::string_view variant;  // picked at every size: it chooses its own tiles (below)
  std::string_view measured;
};

inline constexpr VariantRule VARIANT_RULES[] = {
    {GemmOp::ab, true, "warp_tiled",
     "H100, FP32: 48.1 TFLOP/s at 4096^3 (0.95x cublas_sgemm), 49.5 at 8192^3 (0.96x), 35.2 at 1000x3000x777 "
     "(1.05x); every other rung is slower at every bench size (docs/results/gemm-h100-2026-11-23c.json, cb23979)"},
    {GemmOp::aat, true, "aat_warp_tiled",
     "H100, FP32: 44.9 TFLOP/s at m = k = 4096 on the SYRK count, 1.20x cublas_ssyrk "
     "(docs/results/gemm-h100-2026-11-23c.json, cb23979)"},
    // Without a GPU (CPU-only builds, or none found): the CPU rungs; the serial reference is the
    // check's ground truth, not a product.
    {GemmOp::ab, false, "cpu_openmp",
     "the only parallel CPU rung: 0.08 TFLOP/s at 1000x3000x777 on the H100 host, where cpu_reference "
     "(serial, ~1 G multiply-adds/s) is not run (docs/results/gemm-h100-2026-11-23c.json)"},
    {GemmOp::aat, false, "cpu_openmp", "as for A*B: the same rung with A's rows as the right operand"},
};

constexpr std::string_view default_variant(GemmOp op, bool gpu) {
  for (const VariantRule& r : VARIANT_RULES)
    if (r.op == op && r.gpu == gpu) return r.variant;
  return {};
}

// ---- warp_tiled's tile configuration ---------------------------------------------

// One configuration of step 10's kernel (10_warp_tiled_policies.cuh holds its
// full policy; the lab row warp_tiled_<name> measures it). The rate is the
// lab row's FP32 rate on a large square, full occupancy, H100.
struct TileConfig {
  std::string_view name;
  int bm, bn, bk;
  double tflops;
  std::string_view measured;
};

// Table order breaks exact cost ties (the first wins), as it always has.
inline constexpr TileConfig WARP_TILED_TILES[] = {
    {"128x64x16", 128, 64, 16, 44.0,
     "H100 8192^3: 44.0 TFLOP/s (3401ece; 44.1-44.4 in gemm-h100-2026-11-23{,b,c}.json). Picked at 1000x3000x777: "
     "1.02x cuBLAS against 0.81x for 128x128 tiles (gemm-h100-2026-11-23.json, 68089ba)"},
    {"64x64x16", 64, 64, 16, 38.5,
     "H100 8192^3: 38.5 TFLOP/s (3401ece; 38.5-39.1 in gemm-h100-2026-11-23{,b,c}.json): small and ragged sizes"},
    {"128x128x16_serpentine", 128, 128, 16, 49.5,
     "H100 8192^3: 49.5 TFLOP/s, 0.96x cuBLAS; 48.1 at 4096^3, 0.95x (gemm-h100-2026-11-23c.json, ebebbc6 / "
     "cb23979): the fastest configuration measured, picked wherever the wave model allows"},
};
inline constexpr std::size_t WARP_TILED_TILE_COUNT = std::size(WARP_TILED_TILES);

// The wave model (68089ba). The grid's tiles are spread over the SMs; the
// busiest SM gets ceil(tiles / SMs) of them and the blocks resident on an SM
// share its FFMA throughput, so a configuration's predicted time is
//     ceil(tiles / SMs) * BM * BN / tflops
// (k is common to all). It is the wave quantization that makes 1000 x 3000
// (192 tiles of 128 x 128 for 132 SMs: 2 on the busiest SM, 1.45 on
// average) prefer 128 x 64 tiles (3 of them, 2.85 on average); otherwise the
// fastest configuration wins. A*A^T counts the tiles on and below the
// diagonal and takes square configurations only (the mirrored stores).
// `fits(i)`: whether configuration i fits on the device (occupancy > 0).
// Returns WARP_TILED_TILE_COUNT when none fits.
template <class Fits>
std::size_t choose_tile(GemmOp op, std::size_t m, std::size_t n, double sms, Fits&& fits) {
  std::size_t best = WARP_TILED_TILE_COUNT;
  double best_cost = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < WARP_TILED_TILE_COUNT; ++i) {
    const TileConfig& c = WARP_TILED_TILES[i];
    if (op == GemmOp::aat && c.bm != c.bn) continue;
    if (!fits(i)) continue;
    const double tiles_m = double((m + std::size_t(c.bm) - 1) / std::size_t(c.bm));
    const double tiles_n = double((n + std::size_t(c.bn) - 1) / std::size_t(c.bn));
    const double tiles = op == GemmOp::aat ? tiles_m * (tiles_m + 1) / 2 : tiles_m * tiles_n;
    const double cost = std::ceil(tiles / sms) * c.bm * c.bn / c.tflops;
    if (cost < best_cost) {
      best_cost = cost;
      best = i;
    }
  }
  return best;
}

}  // namespace tessera::gemm_impl::policy
