// The persistent, pipelined look-back kernel (the lab's step-9 rows
// lookback_persistent and lookback_persistent_large; H100, float sum 2^28: 31%
// and 51% of copy, tuning_lookback.cuh): grid = the blocks that fit on the GPU
// at once; each block loops over tiles taken from the same atomic counter as
// scan_lookback_kernel (lookback_tile.cuh, which documents the data layout,
// the fold and the output formula this kernel repeats), and issues the 16-byte
// loads of its NEXT tile into registers right after the first barrier of the
// current one, before warp 0 looks back and before the stores: DRAM reads keep
// flowing while the look-back waits on L2, which the one-tile-per-block kernel
// leaves to other resident blocks. Likely why it lost (not profiled): the next
// tile's index is taken at the top of the current iteration, so that tile's
// aggregate goes out only after the current tile's look-back and stores, and
// the delays compound into a convoy (lookback_bulk publishes each aggregate as
// its tile lands).
//
// Deadlock-free like the one-tile kernel: a block takes a tile only while it
// runs, and a tile's look-back waits only on tiles taken before it, all held
// by running blocks. Shared memory reused across tiles: the warp totals are
// rewritten only after the second barrier of the previous tile (every read of
// them lies between the first and second), the tile prefix only after the
// first barrier of the next tile (every read lies before it), and the next
// tile index alternates between two slots (a slot is rewritten two tiles
// later, after barriers every reader has passed).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "families/scan/lookback_rows.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/lookback_tile.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::gpu {

template <class P, class F>
__global__ __launch_bounds__(P::THREADS, P::MIN_BLOCKS) void scan_lookback_persistent_kernel(
    const typename F::in_t* in, typename F::out_t* out, ScanLayout layout, void* workspace,
    typename F::out_t* total, F f) {
  using L = LookbackScan<P, F>;
  using in_t = typename F::in_t;
  using acc_t = typename F::acc_t;
  static_assert(vectorizable16<in_t> && std::is_same_v<in_t, acc_t>, "4-byte-class native scans only");
  constexpr int VECTORS = P::VECTORS;
  constexpr int VEC = L::VEC;
  constexpr int WARPS = P::THREADS / 32;

  __shared__ unsigned s_next[2];
  __shared__ alignas(16) unsigned char s_raw[sizeof(acc_t) * (WARPS + 1)];
  acc_t* s_warp_totals = reinterpret_cast<acc_t*>(s_raw);
  acc_t* s_tile_prefix = s_warp_totals + WARPS;

  unsigned char* ws = static_cast<unsigned char*>(workspace);
  unsigned* counter = reinterpret_cast<unsigned*>(ws);
  const TileStatus<acc_t> status(ws + L::COUNTER_BYTES, layout.tiles);
  const unsigned lane = lane_index();
  const unsigned warp = threadIdx.x / 32;
  const long long n = static_cast<long long>(layout.n);

  // Where tile t lies for this thread, and whether it takes the vector path.
  auto first_of = [&](unsigned t) {
    const long long begin = static_cast<long long>(t) * static_cast<long long>(L::TILE_ITEMS) - layout.shift;
    return begin + static_cast<long long>(warp) * L::WARP_ITEMS + static_cast<long long>(lane) * VEC;
  };
  auto full_of = [&](unsigned t) {
    const long long begin = static_cast<long long>(t) * static_cast<long long>(L::TILE_ITEMS) - layout.shift;
    return begin >= 0 && begin + static_cast<long long>(L::TILE_ITEMS) <= n;
  };

  unsigned tile = take_tile_index(counter, s_next[1]);
  in_t x[VECTORS][VEC];  // the current tile's elements when prefetched
  bool have_x = false;
  for (unsigned iter = 0; tile < layout.tiles; ++iter) {
    if (threadIdx.x == 0) s_next[iter & 1] = atomicAdd(counter, 1u);
    const long long first = first_of(tile);
    const bool full = full_of(tile);

    // ---- load (unless prefetched) and fold -----------------------------------
    if (!have_x && full && layout.vec_in) {
#pragma unroll
      for (int k = 0; k < VECTORS; ++k) load_vec16<P::HINT>(in + first + k * 32 * VEC, x[k]);
      have_x = true;
    }
    acc_t s[VECTORS][VEC];
    if (have_x) fold_tile_vectors<P>(f, x, s);
    else fold_tile_scalar<P>(f, in, first, n, s);

    // ---- rows -------------------------------------------------------------------
    acc_t row_prefix[VECTORS];
    const acc_t warp_total = tile_row_prefixes<P>(f, lane, s, row_prefix);
    if (lane == 0) s_warp_totals[warp] = warp_total;
    __syncthreads();
    const unsigned next = s_next[iter & 1];

    // ---- prefetch the next tile: its reads overlap this tile's look-back ---------
    have_x = false;
    if (next < layout.tiles && full_of(next) && layout.vec_in) {
      const long long nfirst = first_of(next);
#pragma unroll
      for (int k = 0; k < VECTORS; ++k) load_vec16<P::HINT>(in + nfirst + k * 32 * VEC, x[k]);
      have_x = true;
    }

    // ---- look-back (warp 0), second barrier, this thread's head -------------------
    acc_t head;
    const bool has_head = tile_head<P>(f, status, tile, layout, warp, lane, s_warp_totals, s_tile_prefix, total, head);
    write_tile<P>(f, layout, lane, has_head, head, s, row_prefix, full && layout.vec_out, out, first, n);
    tile = next;
  }
}

}  // namespace tessera::gpu

namespace tessera::scan_impl {

// The launch: the one-tile kernel's workspace and clear, grid = the blocks
// resident at once (occupancy query; no allocation, no sync), capped by the
// tile count.
template <class P, class F>
void run_lookback_persistent(const char* kernel_name, const F& f, const typename F::in_t* in,
                             typename F::out_t* out, std::size_t n, bool exclusive, void* workspace,
                             cudaStream_t stream) {
  using L = gpu::LookbackScan<P, F>;
  if (n == 0) return;
  const gpu::ScanLayout layout = L::layout(in, out, n, exclusive);
  int device = 0, sms = 0, per_sm = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TESSERA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gpu::scan_lookback_persistent_kernel<P, F>,
                                                             P::THREADS, 0));
  const std::size_t resident = static_cast<std::size_t>(sms) * static_cast<std::size_t>(per_sm > 0 ? per_sm : 1);
  const unsigned grid = gpu::checked_grid(layout.tiles < resident ? layout.tiles : resident, kernel_name, n);
  TESSERA_CUDA(cudaMemsetAsync(workspace, 0, L::clear_bytes(layout), stream));
  detail::launch(kernel_name, gpu::scan_lookback_persistent_kernel<P, F>, dim3(grid), dim3(P::THREADS), 0, stream,
                 n, in, out, layout, workspace, static_cast<typename F::out_t*>(nullptr), f);
}

// The row template of lookback_rows.cuh for this kernel.
template <class P>
struct PersistentLookback {
  static void run(const char* variant, const ScanCall& call) {
    run_four_byte_native(variant, call, [&](const auto& f, const auto* in, auto* out) {
      run_lookback_persistent<P>("scan_lookback_persistent_kernel", f, in, out, call.spec.n, call.spec.exclusive,
                                 call.workspace, call.stream);
    });
  }
  static std::size_t workspace(const ScanSpec& spec) { return lookback_workspace<P>(spec); }
};

}  // namespace tessera::scan_impl
