// The GEMM default policy as data: which variant the public API picks for
// each product, and which tile configuration the picked warp_tiled kernel
// runs for a shape, in how many k slices (split-k). Each rule carries the
// measurement that chose it; the
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

// ---- the shape table: tile configuration and split-k ---------------------------

// Middling sizes leave SMs idle with one block per tile: 1024^2 has 128
// tiles of 128 x 64 for 132 SMs, one block each where an SM holds four.
// Split-k runs `splits` blocks per tile, each over a k slice, and a
// reduction adds the slices in order (deterministic; workspace splits * m *
// n floats). A rule applies to A*B when the output per SM, m * n / SMs
// (elements of C), is at most `max_c_per_sm` and k is at least `min_k`; the
// first rule that applies (and whose tile fits on the device) wins. Past the
// last, the wave model above picks the tile and nothing is split.
//
// Filling the table: `tessera-lab bench gemm --input lab/gemm/size_grid.txt
// --json grid.json` times every configuration at every split factor
// (rows warp_tiled_<tile>_split<S>) on the size grid; per size band, the
// fastest (tile, splits) becomes a rule, its JSON numbers the `measured`
// string (docs/gemm.md, "Middling sizes").
struct ShapeRule {
  double max_c_per_sm;       // the band: m * n / SMs up to this
  std::size_t min_k;         // and k from this on
  std::string_view tile;     // a WARP_TILED_TILES name
  unsigned splits;           // k slices (1: none)
  std::string_view measured;
};

// 132 SMs: 1024 elements of C per SM is 368^2, 3000 is 629^2, 6000 is 890^2,
// 9000 is 1090^2, 20000 is 1625^2. Measured on the H100 (132 SMs) with the
// lab's rows warp_tiled_<tile>_split<S>, ratios to cublas_sgemm in the same
// run (docs/results/gemm-grid-h100-2026-11-27.json).
inline constexpr ShapeRule SHAPE_RULES[] = {
    {1024, 0, "64x64x16", 6, "256^3: 1.00x cuBLAS (split 8 1.00x, 4 0.94x, unsplit 0.56x)"},
    {3000, 0, "64x64x16", 4, "512^3: 0.88x (128x64x16 split 4 0.86x, 64x64x16 split 2 0.85x)"},
    {6000, 0, "64x64x16", 6, "768^3: 0.90x (split 4 0.89x, 128x64x16 split 3 0.86x, unsplit 0.63x)"},
    {9000, 0, "64x64x16", 1,
     "1000^3: 0.82x, 1024^3: 0.85x, the best at both (128x64x16 split 3 0.84x at 1024^3, split 2 0.77x at "
     "1000^3; 128x64x16 unsplit 0.77x / 0.80x)"},
    {20000, 4096, "128x128x16_serpentine", 2,
     "512x4096x4096: 0.90x, 4096x512x4096: 0.85x (128x64x16 split 3 0.87x / 0.82x, unsplit 128x128 0.88x / "
     "0.83x)"},
    {20000, 0, "128x64x16", 3, "1536^3: 0.93x (split 4 0.92x, split 2 0.88x, unsplit 0.80x)"},
};

// Split-k's slices are at least this many k slabs deep (a shallower slice
// spends its time in the pipeline's prologue and the partial's store).
inline constexpr std::size_t MIN_SLABS_PER_SLICE = 2;  // 256^3: 8 slices of 2 slabs 1.00x cuBLAS, as fast as 6

// The index of a WARP_TILED_TILES configuration by name; WARP_TILED_TILE_COUNT if none.
constexpr std::size_t tile_index(std::string_view name) {
  for (std::size_t i = 0; i < WARP_TILED_TILE_COUNT; ++i)
    if (WARP_TILED_TILES[i].name == name) return i;
  return WARP_TILED_TILE_COUNT;
}

struct Choice {
  std::size_t tile;  // WARP_TILED_TILE_COUNT: none fits
  unsigned splits;
};

// The splits a slice depth allows: at most k / (MIN_SLABS_PER_SLICE * bk).
constexpr unsigned splits_for_depth(unsigned splits, std::size_t k, int bk) {
  const std::size_t most = k / (MIN_SLABS_PER_SLICE * std::size_t(bk));
  return most < 2 ? 1u : (splits < most ? splits : static_cast<unsigned>(most));
}

// The configuration and k slices for a shape: SHAPE_RULES for A*B, then the
// wave model (A*A^T: the wave model, never split).
template <class Fits>
Choice choose(GemmOp op, std::size_t m, std::size_t n, std::size_t k, double sms, Fits&& fits) {
  if (op == GemmOp::ab && m != 0 && n != 0) {
    const double c_per_sm = double(m) * double(n) / sms;
    for (const ShapeRule& r : SHAPE_RULES) {
      if (c_per_sm > r.max_c_per_sm || k < r.min_k) continue;
      const std::size_t i = tile_index(r.tile);
      if (i == WARP_TILED_TILE_COUNT || !fits(i)) continue;
      return {i, splits_for_depth(r.splits, k, WARP_TILED_TILES[i].bk)};
    }
  }
  return {choose_tile(op, m, n, sms, fits), 1};
}

}  // namespace tessera::gemm_impl::policy
