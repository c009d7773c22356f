// Decoupled look-back for run-length encoding: each tile needs the number of
// runs that start before it (where its runs go) and the position of the last
// run start before it (the start of a run that enters the tile from the
// left, to complete its length).
//
// The run count travels in gpu::TileCounts' packed status words (one 64-bit
// store publishes status and count together). The last run start, a second
// 64-bit value, sits in two side arrays: `aggregate_last[b]` (the last run
// start inside tile b, -1 if none) and `inclusive_last[b]` (the last run
// start up to and including tile b). A publisher writes the side value,
// __threadfence(), then the status word; a reader that sees the status word
// issues __threadfence() before reading the side value: fence-to-fence
// message passing, so the reader sees the value written before the status.
// All accesses go through cuda::atomic_ref at device scope (L2, never a stale
// L1 line). Only the status words need zeroing before a launch.
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "cuda/compose/lookback_count.cuh"

namespace tessera::gpu {

struct RunPrefix {
  unsigned long long runs;  // runs started before the tile
  long long last_start;     // where the last of them started (-1 if none)
};

struct RunTileState {
  TileCounts counts;
  long long* aggregate_last;
  long long* inclusive_last;

  __device__ __forceinline__ static void store(long long* p, long long v) {
    cuda::atomic_ref<long long, cuda::thread_scope_device>(*p).store(v, cuda::std::memory_order_relaxed);
  }
  __device__ __forceinline__ static long long load(long long* p) {
    return cuda::atomic_ref<long long, cuda::thread_scope_device>(*p).load(cuda::std::memory_order_relaxed);
  }

  // One thread: tile b's own runs and last run start (-1 if none).
  __device__ __forceinline__ void publish_aggregate(std::size_t b, unsigned long long runs, long long last) const {
    store(aggregate_last + b, last);
    __threadfence();
    counts.publish(b, TileCounts::AGGREGATE, runs);
  }
  // One thread: everything up to and including tile b.
  __device__ __forceinline__ void publish_prefix(std::size_t b, unsigned long long runs, long long last) const {
    store(inclusive_last + b, last);
    __threadfence();
    counts.publish(b, TileCounts::PREFIX, runs);
  }

  // All 32 lanes of one warp of tile b > 0's block; returns (to every lane)
  // the runs started in tiles 0 .. b-1 and the last of their starts.
  __device__ RunPrefix exclusive_prefix(std::size_t b) const {
    const long long lane = threadIdx.x % 32;
    RunPrefix p{0ull, -1};
    bool have_last = false;
    for (long long newest = static_cast<long long>(b) - 1;; newest -= 32) {
      const long long tile = newest - lane;
      const unsigned long long word = counts.window_word(tile);
      unsigned last_lane;
      bool done;
      p.runs += TileCounts::window_sum(word, last_lane, done);
      if (!have_last) {  // warp-uniform
        __threadfence();  // the status words above before the side values below
        long long start = -1;
        if (tile >= 0 && static_cast<unsigned>(lane) <= last_lane) {
          const bool prefix = (word & TileCounts::STATUS_MASK) == TileCounts::PREFIX;
          start = load((prefix ? inclusive_last : aggregate_last) + tile);
        }
        const unsigned with_start = __ballot_sync(0xffffffffu, start >= 0);
        if (with_start != 0) {  // the nearest tile that has a run start
          p.last_start = __shfl_sync(0xffffffffu, start, __ffs(with_start) - 1);
          have_last = true;
        }
      }
      if (done) return p;
    }
  }
};

}  // namespace tessera::gpu
