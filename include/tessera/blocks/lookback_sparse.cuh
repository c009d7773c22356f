// A 32-wide decoupled look-back whose re-polls touch only the slots still
// missing (the same protocol and status slots as lookback.cuh's
// warp_lookback<1>, which it can replace wherever one slot per lane is used).
//
// Why: the H100 bench of the scan's tuning rows (docs/scan.md) showed the
// look-back's L2 traffic, not its round-trip count, to be what costs: a
// 128-slot window (1 KiB per poll, 4 loads per lane) ran 10 points of copy
// slower than a 32-slot one (256 B per poll) with the same tiles. Every
// waiting warp polls the same few L2 lines (the ~2 KiB of status slots of the
// tiles in flight), which are also the lines the publishers write. warp_lookback
// re-reads its whole window on every poll, although usually only the one or
// two newest predecessors are still missing; here only the lanes whose slot
// is still TILE_INVALID right of the nearest inclusive prefix load again, so
// a poll is one or two 8-byte sectors instead of 8.
//
// Protocol (unchanged): lane l reads tile end - 32 + l (first end = tile);
// slots before tile 0 are inclusive identities; the nearest inclusive lane is
// found by ballot; the window is done once every lane right of it holds a
// valid flag; its values (the inclusive one and the aggregates right of it)
// are combined in lane order; without an inclusive prefix the aggregates are
// folded in and the window slides 32 tiles left. A value once read with a
// valid flag is kept: an aggregate never changes, and a lane left of the
// nearest inclusive prefix is not used, whatever it holds later.
//
// Self-contained (relative includes).
#pragma once

#include "tessera/blocks/lookback.cuh"

namespace tessera::gpu {

// The exclusive prefix of tile `tile` (> 0); call with all 32 lanes of one
// warp, every lane gets the result. `status` as for warp_lookback.
template <unsigned MAX_SLEEP_NS = LOOKBACK_MAX_SLEEP_NS, class F, class Status>
__device__ typename F::acc_t warp_lookback_sparse(const Status& status, unsigned tile, const F& f) {
  using acc_t = typename F::acc_t;
  constexpr long long WINDOW = 32;
  const int lane = static_cast<int>(lane_index());

  acc_t exclusive = f.identity();
  bool have = false;
  long long end = tile;
  while (true) {
    const long long t = end - WINDOW + lane;
    TileFlag flag = TILE_INCLUSIVE;
    acc_t value = f.identity();
    if (t >= 0) flag = status.load(static_cast<std::size_t>(t), value);

    int nearest_lane;
    unsigned sleep_ns = lookback_first_sleep_ns<MAX_SLEEP_NS>();
    while (true) {
      const unsigned inclusive_lanes = __ballot_sync(scan_detail::FULL_MASK, flag == TILE_INCLUSIVE);
      nearest_lane = inclusive_lanes ? 31 - __clz(inclusive_lanes) : -1;
      const bool waiting = flag == TILE_INVALID && lane > nearest_lane;
      if (!__any_sync(scan_detail::FULL_MASK, waiting)) break;
      lookback_back_off<MAX_SLEEP_NS>(sleep_ns);
      // t >= 0 here: lanes with t < 0 hold TILE_INCLUSIVE and never wait.
      if (waiting) flag = status.load(static_cast<std::size_t>(t), value);
    }

    const acc_t mine = lane >= nearest_lane ? value : f.identity();
    const acc_t window = warp_reduce_in_order(mine, f);
    exclusive = have ? f.combine(window, exclusive) : window;
    have = true;
    if (nearest_lane >= 0) return exclusive;
    end -= WINDOW;
  }
}

}  // namespace tessera::gpu
