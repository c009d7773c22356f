// Decoupled look-back over tile counts (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016), for the single-pass
// compositions: each tile needs the number of elements selected before it.
//
// One 64-bit word per tile holds a status and a count together, so a single
// relaxed 64-bit store publishes both and a single load reads a consistent
// pair: no fence is needed to order a value against its flag.
//   bits 62-63  status: 0 = nothing yet (X), 1 = aggregate (A: the tile's own
//               count), 2 = inclusive prefix (P: everything up to and
//               including the tile)
//   bits 0-61   the count (n < 2^62)
// Accesses go through cuda::atomic_ref at device scope (ld/st.relaxed.gpu):
// they are served by L2, never by a stale L1 line. The words must be zero
// before the launch (cudaMemsetAsync on the workspace).
//
// Tiles are numbered in the order blocks start (an atomic counter, not
// blockIdx), so every tile a block waits on belongs to a block that is
// already running and never waits on a later tile: no deadlock, whatever the
// scheduler does.
//
// The look-back is one warp: lane i reads the word of tile (b - 1 - i) for a
// window of 32 predecessors, all lanes wait until none is X, the nearest P
// ends the walk, and the warp sums the counts up to and including it. Without
// a P in the window it moves 32 tiles further back.
#pragma once

#include <cuda/atomic>

#include <cstdint>

namespace tessera::gpu {

struct TileCounts {
  static constexpr unsigned long long STATUS_SHIFT = 62;
  static constexpr unsigned long long VALUE_MASK = (1ull << STATUS_SHIFT) - 1;
  static constexpr unsigned long long AGGREGATE = 1ull << STATUS_SHIFT;
  static constexpr unsigned long long PREFIX = 2ull << STATUS_SHIFT;
  static constexpr unsigned long long STATUS_MASK = 3ull << STATUS_SHIFT;

  unsigned long long* words;  // one per tile, zeroed before the launch

  __device__ __forceinline__ void publish(std::size_t tile, unsigned long long status, unsigned long long count) const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> w(words[tile]);
    w.store(status | (count & VALUE_MASK), cuda::std::memory_order_relaxed);
  }

  __device__ __forceinline__ unsigned long long load(std::size_t tile) const {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> w(words[tile]);
    return w.load(cuda::std::memory_order_relaxed);
  }

  // All 32 lanes: the word of `tile` once it is no longer X (tiles before
  // tile 0 read as an inclusive prefix of 0, which ends any walk).
  __device__ __forceinline__ unsigned long long window_word(long long tile) const {
    unsigned long long word = tile >= 0 ? load(static_cast<std::size_t>(tile)) : PREFIX;
    unsigned backoff = 8;
    while (__any_sync(0xffffffffu, (word & STATUS_MASK) == 0)) {
      if ((word & STATUS_MASK) == 0) {
        __nanosleep(backoff);
        word = load(static_cast<std::size_t>(tile));
      }
      backoff = backoff < 256 ? backoff * 2 : backoff;
    }
    return word;
  }

  // Of a window's words (lane i: tile newest - i): the lanes that count, 0 ..
  // last, where `last` is the nearest inclusive prefix (31 if none: the walk
  // goes on), and their counts summed (to every lane).
  __device__ __forceinline__ static unsigned long long window_sum(unsigned long long word, unsigned& last,
                                                                  bool& found_prefix) {
    const unsigned lane = threadIdx.x % 32;
    const unsigned prefixes = __ballot_sync(0xffffffffu, (word & STATUS_MASK) == PREFIX);
    found_prefix = prefixes != 0;
    last = found_prefix ? static_cast<unsigned>(__ffs(prefixes) - 1) : 31u;
    unsigned long long mine = lane <= last ? (word & VALUE_MASK) : 0ull;
#pragma unroll
    for (unsigned m = 16; m > 0; m >>= 1) mine += __shfl_xor_sync(0xffffffffu, mine, m);
    return mine;
  }

  // Called by all 32 lanes of one warp of tile b > 0's block; returns (to
  // every lane) the sum of the counts of tiles 0 .. b-1.
  __device__ unsigned long long exclusive_prefix(std::size_t b) const {
    const long long lane = threadIdx.x % 32;
    unsigned long long prefix = 0;
    for (long long newest = static_cast<long long>(b) - 1;; newest -= 32) {
      const unsigned long long word = window_word(newest - lane);
      unsigned last;
      bool done;
      prefix += window_sum(word, last, done);
      if (done) return prefix;
    }
  }
};

}  // namespace tessera::gpu
