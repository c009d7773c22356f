// Step 10 — warp_tiled and aat_warp_tiled: the tile configurations of
// 10_warp_tiled_policies.cuh, instantiated here once (every op(A), op(B),
// data-parallel and split-k), and the shape-dependent choice among them
// (policy.hpp: the shape table, the rates and the wave model). The occupancy
// API only rules out configurations that do not fit on the device at hand.
#include <array>
#include <atomic>

#include "families/gemm/10_warp_tiled_policies.cuh"
#include "families/gemm/cuda_rungs.hpp"
#include "families/gemm/policy.hpp"
#include "tessera/blocks/device.cuh"

namespace tessera::gemm_impl {

namespace {

constexpr std::size_t TILES = policy::WARP_TILED_TILE_COUNT;

// The kernels of each configuration, in policy::WARP_TILED_TILES order.
const std::array<WarpTiledKernels, TILES>& kernels() {
  static const std::array<WarpTiledKernels, TILES> table{{
      dev::warp_tiled_kernels<dev::Tiles128x64x16>(),
      dev::warp_tiled_kernels<dev::Tiles64x64x16>(),
      dev::warp_tiled_kernels<dev::Tiles128x128x16Serpentine>(),
  }};
  return table;
}

// The policies and the rate table describe the same tiles.
template <class P>
constexpr bool same_tile(const policy::TileConfig& c) {
  return c.bm == P::BM && c.bn == P::BN && c.bk == P::BK;
}
static_assert(same_tile<dev::Tiles128x64x16>(policy::WARP_TILED_TILES[0]) &&
                  same_tile<dev::Tiles64x64x16>(policy::WARP_TILED_TILES[1]) &&
                  same_tile<dev::Tiles128x128x16Serpentine>(policy::WARP_TILED_TILES[2]),
              "10_warp_tiled_policies.cuh and policy.hpp list the same configurations in the same order");

// Resident blocks of each configuration on each device, queried once.
int resident_blocks(std::size_t config) {
  static std::atomic<int> cache[tessera::gpu::device_detail::MAX_CACHED_DEVICES][TILES] = {};
  const WarpTiledKernels& k = kernels()[config];
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

std::span<const WarpTiledKernels> warp_tiled_kernels() { return kernels(); }

WarpTiledChoice choose_warp_tiled(const GemmSpec& s) {
  const policy::Choice c = policy::choose(s.op, s.m, s.n, s.k, tessera::gpu::sm_count(),
                                          [](std::size_t config) { return resident_blocks(config) > 0; });
  if (c.tile == TILES) throw Error("gemm warp_tiled: no tile configuration fits on this device");
  return {c.tile, c.splits};
}

std::size_t warp_tiled_split_workspace_bytes(const GemmSpec& s, unsigned splits) {
  return s.op == GemmOp::ab ? dev::split_k_workspace_bytes(s.m, s.n, splits) : 0;
}

std::size_t warp_tiled_workspace_bytes(const GemmSpec& s) {
  if (s.op != GemmOp::ab || s.m == 0 || s.n == 0) return 0;
  return warp_tiled_split_workspace_bytes(s, choose_warp_tiled(s).splits);
}

void run_warp_tiled(const GemmCall& call) {
  if (call.spec.m == 0 || call.spec.n == 0) return;
  const WarpTiledChoice c = choose_warp_tiled(call.spec);
  kernels()[c.tile].run_ab_split(call, c.splits);
}

void run_aat_warp_tiled(const GemmCall& call) {
  if (call.spec.m == 0) return;
  kernels()[choose_warp_tiled(call.spec).tile].run_aat(call);
}

}  // namespace tessera::gemm_impl
