// The sweep of step 10's kernel (10_warp_tiled.cuh) as one policy table: each
// configuration that was measured, with the result that kept or rejected it.
// Each becomes a tuning row warp_tiled_<config> so that one `tessera-lab
// bench gemm` re-measures them all; the rates in policy.hpp come from these
// rows. The configurations the product keeps run the product's own
// instantiations (10_warp_tiled_dispatch.cu), the others are instantiated
// here.
//
// Results: FP32 TFLOP/s at 4096^3 / 8192^3 / 1000x3000x777 on the H100
// (60.7 TFLOP/s measured FP32 ceiling), docs/results/gemm-h100-2026-11-23c.json
// unless said otherwise; cublas_sgemm ran 50.4 / 51.4 / 33.7 there.
// Registers and spills: docs/gemm.md ("Compiler report").
#include <string_view>
#include <vector>

#include "families/gemm/10_warp_tiled.cuh"
#include "families/gemm/policy.hpp"
#include "gemm/warp_tiled_sweep.hpp"
#include "ladder/ladder.hpp"
#include "tessera/core/error.hpp"

namespace tessera::gemm_lab {

namespace {

using gemm_impl::dev::WarpTiledPolicy;
using gemm_impl::GemmVariant;
using gemm_impl::WarpTiledKernels;
using namespace ladder::roles;

constexpr unsigned WHOLE_SLABS = gemm_impl::dev::codegen::WHOLE_SLAB_COPIES;
constexpr unsigned INTERIOR = gemm_impl::dev::codegen::INTERIOR_COPIES;
constexpr unsigned PAIRED = gemm_impl::dev::codegen::PAIRED_LANES;
constexpr unsigned SERPENTINE = gemm_impl::dev::codegen::SERPENTINE_FMA;

constexpr std::string_view PREFIX = "warp_tiled_";

// A product configuration runs every op(A), op(B); one instantiated here N,N only.
SweepEntry entry(std::string_view name, std::string_view adds, const WarpTiledKernels& kernels) {
  return {{{"gemm", name, 10, CUDA, TUNING, adds, true},
           gemm_impl::Fill::full,
           0,
           kernels.run_ab_split != nullptr ? gemm_impl::is_ab : gemm_impl::is_ab_nn,
           gemm_impl::no_workspace,
           kernels.run_ab},
          kernels};
}

// A configuration instantiated here (N,N, data-parallel only: the sweep
// compares tile shapes and code generation, not operand reads).
template <class P>
SweepEntry swept(std::string_view name, std::string_view adds) {
  return entry(name, adds, gemm_impl::dev::warp_tiled_kernels<P, false>());
}

// A configuration the product keeps (policy.hpp's WARP_TILED_TILES, named
// by the row's suffix): the row runs the product's instantiation.
SweepEntry kept(std::string_view name, std::string_view adds) {
  const std::string_view tile = name.substr(PREFIX.size());
  for (std::size_t i = 0; i < gemm_impl::policy::WARP_TILED_TILE_COUNT; ++i)
    if (gemm_impl::policy::WARP_TILED_TILES[i].name == tile)
      return entry(name, adds, gemm_impl::warp_tiled_kernels()[i]);
  throw Error("gemm lab: '" + std::string(tile) + "' is not a tile configuration of policy.hpp");
}

std::vector<SweepEntry> make_sweep() {
  // clang-format off
  //                                  BM   BN  BK  WM  WN TM  TN ST MIN_BLOCKS options
  return {
      // Tile shapes (the first sweep, rated 3401ece). 39.0 / 39.6 / 26.0: BK 8
      // is a barrier per 8 k; rejected. The whole-slab copy path removed the
      // 4-byte spill of its 16-byte-B kernel at the 128-register cap (1bda377).
      swept<WarpTiledPolicy<128, 128,  8, 64, 32, 8,  8, 3, 2, WHOLE_SLABS>>("warp_tiled_128x128x8",
          "warp_tiled pinned to 128x128x8 block tiles, 64x32 warp tiles, 8x8 per thread, 256 threads, 2 blocks/SM, a copy path for whole slabs"),
      // 43.3 / 44.1 / 28.6: the base of the interior copies, which replaced it.
      swept<WarpTiledPolicy<128, 128, 16, 64, 32, 8,  8, 3, 2>>("warp_tiled_128x128x16",
          "warp_tiled pinned to 128x128x16 block tiles: half the barriers per flop, 51 KiB of shared memory"),
      // 42.8 / 43.2 / 28.7: one block per SM idles at every barrier; rejected.
      swept<WarpTiledPolicy<128, 256,  8, 64, 64, 8, 16, 3, 1>>("warp_tiled_128x256x8",
          "warp_tiled pinned to 128x256x8 block tiles, 64x64 warp tiles, 8x16 per thread: 128 FFMA per 6 LDS.128, 1 block/SM"),
      // Kept: 42.7 / 44.3 / 35.9, 1.06x cuBLAS at 1000x3000x777 (wave model, 68089ba).
      kept("warp_tiled_128x64x16",
          "warp_tiled pinned to 128x64x16 block tiles, 128 threads: more, smaller tiles for sizes that leave SMs idle (a product configuration)"),
      // Kept: 38.1 / 39.0 / 33.1: the smallest tiles, for small and ragged sizes.
      kept("warp_tiled_64x64x16",
          "warp_tiled pinned to 64x64x16 block tiles, 4x8 per thread, 128 threads: small and ragged sizes (a product configuration)"),

      // Interior copies (245163b, a21800e; rated 68089ba). 45.6 / 46.4 / 29.1:
      // +2 TFLOP/s over the guarded copies (FFMA 82% -> 88% of issue, SASS);
      // the base of the serpentine order, which replaced it.
      swept<WarpTiledPolicy<128, 128, 16, 64, 32, 8,  8, 3, 2, INTERIOR>>("warp_tiled_128x128x16_interior_copies",
          "128x128x16 whose interior threads copy without bound tests, immediate offsets (~110 fewer issue slots per 1024 FFMA)"),
      // 45.1 / 45.9 / 28.2: half the barriers per FFMA bought nothing; rejected.
      swept<WarpTiledPolicy<128, 128, 32, 64, 32, 8,  8, 3, 2, INTERIOR>>("warp_tiled_128x128x32_interior_copies",
          "128x128x32 block tiles with the interior copies: half the barriers and slab bookkeeping per FFMA, 99 KiB smem, 2 blocks/SM"),
      // 43.3 / 43.6 / 28.8: one block per SM still idles at the barriers; rejected.
      swept<WarpTiledPolicy<128, 256, 16, 64, 64, 8, 16, 3, 1, INTERIOR>>("warp_tiled_128x256x16_interior_copies",
          "128x256x16 block tiles, 8x16 per thread (128 FFMA per 6 LDS.128), interior copies: half 128x256x8's barriers per FFMA, 1 block/SM"),

      // Paired lanes (7486be7; gemm-h100-2026-11-23b.json, 4235965): within 1%
      // of the interior copies they build on (45.3 / 46.3 / 29.2 here): the
      // shared-memory return path was not the limit; rejected.
      swept<WarpTiledPolicy<128, 128, 16, 64, 32, 8,  8, 3, 2, INTERIOR | PAIRED>>("warp_tiled_128x128x16_paired_lanes",
          "128x128x16 interior copies with paired lanes (lanes n, n^1 share A words, n, n^2 B words): LDS.128 in 2 shared-memory return cycles instead of 4 for B, 8 instead of 12 per 64 FFMA"),
      // 44.8 / 45.6 / 27.6: rejected.
      swept<WarpTiledPolicy<128, 128, 32, 64, 32, 8,  8, 3, 2, INTERIOR | PAIRED>>("warp_tiled_128x128x32_paired_lanes",
          "128x128x32 interior copies with paired lanes: a third fewer shared-memory return cycles per FFMA, half the barriers per FFMA"),
      // 43.5 / 43.8 / 28.7: rejected.
      swept<WarpTiledPolicy<128, 256, 16, 64, 64, 8, 16, 3, 1, INTERIOR | PAIRED>>("warp_tiled_128x256x16_paired_lanes",
          "128x256x16 interior copies (8x16 per thread) with paired lanes: 12 instead of 20 shared-memory return cycles per 128 FFMA, 1 block/SM"),

      // Serpentine multiply-adds (ebebbc6, picked in cb23979). Kept: 48.1 /
      // 49.5 / 30.9, 0.95x / 0.96x cuBLAS (+5% / +7% over the interior copies).
      kept("warp_tiled_128x128x16_serpentine",
          "128x128x16 interior copies with serpentine multiply-adds (odd micro-tile rows run their columns backwards): half the FFMA whose uncached sources share a register bank, fewer dispatch stalls (a product configuration)"),
      // 48.3 / 49.1 / 29.8: level with BK 16 for twice the shared memory; not kept.
      swept<WarpTiledPolicy<128, 128, 32, 64, 32, 8,  8, 3, 2, INTERIOR | SERPENTINE>>("warp_tiled_128x128x32_serpentine",
          "128x128x32 interior copies with serpentine multiply-adds"),
      // 42.6 / 44.3 / 36.3: level with 128x64x16 on large squares (rated the
      // same, so the plain one wins the tie); +1-2% at 1000x3000x777 (open work).
      swept<WarpTiledPolicy<128,  64, 16, 64, 32, 8,  8, 3, 4, SERPENTINE>>("warp_tiled_128x64x16_serpentine",
          "128x64x16 (many small tiles for ragged sizes) with serpentine multiply-adds"),
  };
  // clang-format on
}

}  // namespace

std::span<const SweepEntry> warp_tiled_sweep() {
  static const std::vector<SweepEntry> sweep = make_sweep();
  return sweep;
}

}  // namespace tessera::gemm_lab
