// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan
// with Decoupled Look-back", 2016): the inter-tile protocol of tessera's
// single-pass scan, reusable by any single-pass pattern (compaction, select,
// unique, run-length encode).
//
// Each tile of the input has a status slot. A tile's block:
//   1. takes its tile index from an atomic counter (take_tile_index), so that
//      tiles are handed out in the order blocks start running: a block only
//      ever waits on tiles owned by blocks that already run, whatever order
//      the hardware schedules blocks in (no deadlock);
//   2. reduces its tile and publishes the aggregate (TILE_AGGREGATE), or, for
//      tile 0, the inclusive prefix straight away (TILE_INCLUSIVE);
//   3. looks back with one warp (warp_lookback): PER_LANE predecessors per
//      lane, 32 * PER_LANE per round trip to L2, combining aggregates until
//      the nearest inclusive prefix, waiting only for predecessors between
//      that prefix and itself that have published nothing yet;
//   4. publishes its inclusive prefix (TILE_INCLUSIVE) and scans its tile
//      with the exclusive prefix it found.
// tile_exclusive_prefix() does 2-4 for warp 0 of a block.
//
// Status slots (TileStatus<T>, T the scan state):
//   sizeof(T) <= 4   one 8-byte word {flag, value}: a single relaxed 64-bit
//                    load/store, so flag and value can never tear apart;
//   sizeof(T) <= 8   one 16-byte word {flag, value, flag}: one relaxed .b128
//                    store, one relaxed .b128 load (PTX ISA 8.3, sm_70+). The
//                    hardware may still move the two 8-byte halves apart (a
//                    torn read showed on the H100: the high half of a value
//                    from before the store), so the flag is written into both
//                    halves and a read whose two flags differ counts as
//                    TILE_INVALID and is retried. Each flag value is stored
//                    once per slot, so equal flags mean one store's halves;
//   larger           a flag array plus separate aggregate and inclusive value
//                    arrays: the value is stored, then the flag with release
//                    semantics; readers load the flag with acquire semantics,
//                    then the value from the array the flag names (two arrays,
//                    so that a reader who saw AGGREGATE never reads an
//                    inclusive value written later into the same slot).
// Packed slots need no fence at all: the value travels inside the flag word,
// and nothing else a tile writes is read by other tiles. All accesses are at
// GPU scope (.gpu) and go to L2: the status array is small (8 or 16 bytes per
// tile of several KiB) and stays L2-resident.
//
// Workspace contract (host side): TileStatus<T>::bytes(tiles) bytes,
// 16-byte aligned, zeroed before every launch (TILE_INVALID == 0: one
// cudaMemsetAsync, together with the tile counter), since workspace contents
// are undefined on entry.
//
// Self-contained (relative includes) for include/tessera/scan.cuh.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tessera/blocks/warp_scan.cuh"

namespace tessera::gpu {

enum TileFlag : unsigned { TILE_INVALID = 0u, TILE_AGGREGATE = 1u, TILE_INCLUSIVE = 2u };

namespace lookback_detail {

__device__ __forceinline__ unsigned long long load_relaxed_u64(const void* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed_u64(void* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void load_relaxed_b128(const void* p, unsigned long long& lo, unsigned long long& hi) {
  asm volatile(
      "{\n\t.reg .b128 t;\n\tld.relaxed.gpu.b128 t, [%2];\n\tmov.b128 {%0, %1}, t;\n\t}"
      : "=l"(lo), "=l"(hi)
      : "l"(p)
      : "memory");
}
__device__ __forceinline__ void store_relaxed_b128(void* p, unsigned long long lo, unsigned long long hi) {
  asm volatile("{\n\t.reg .b128 t;\n\tmov.b128 t, {%1, %2};\n\tst.relaxed.gpu.b128 [%0], t;\n\t}" ::"l"(p), "l"(lo),
               "l"(hi)
               : "memory");
}
__device__ __forceinline__ unsigned load_acquire_u32(const void* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release_u32(void* p, unsigned v) {
  asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
// Value loads after an acquire: through L2 (ld.relaxed.gpu), never a stale L1
// line.
__device__ __forceinline__ unsigned load_relaxed_u32(const void* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed_u32(void* p, unsigned v) {
  asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__host__ __device__ constexpr std::size_t align16(std::size_t b) { return (b + 15) / 16 * 16; }

}  // namespace lookback_detail

// Per-tile status slots for a scan state T (trivially copyable). A plain view
// of workspace memory, passed to kernels by value.
template <class T>
class TileStatus {
  static_assert(std::is_trivially_copyable_v<T>, "tile states are stored as raw words");

 public:
  enum class Layout { packed8, packed16, split };
  static constexpr Layout LAYOUT =
      sizeof(T) <= 4 ? Layout::packed8 : (sizeof(T) <= 8 ? Layout::packed16 : Layout::split);
  static constexpr std::size_t WORDS = (sizeof(T) + 3) / 4;  // split layout: 32-bit words per value

  // Workspace bytes for `tiles` slots (a multiple of 16).
  __host__ __device__ static constexpr std::size_t bytes(std::size_t tiles) {
    if constexpr (LAYOUT == Layout::packed8) return lookback_detail::align16(tiles * 8);
    else if constexpr (LAYOUT == Layout::packed16) return tiles * 16;
    else return lookback_detail::align16(tiles * 4) + 2 * lookback_detail::align16(tiles * WORDS * 4);
  }

  TileStatus() = default;
  // `base`: bytes(tiles) bytes of device memory, 16-byte aligned, zeroed.
  __host__ __device__ TileStatus(void* base, std::size_t tiles)
      : base_(static_cast<unsigned char*>(base)), tiles_(tiles) {}

  // Publishes `flag` (TILE_AGGREGATE or TILE_INCLUSIVE) with value `v` for
  // `tile`. A tile publishes AGGREGATE at most once, then INCLUSIVE once.
  __device__ __forceinline__ void publish(std::size_t tile, TileFlag flag, const T& v) const {
    if constexpr (LAYOUT == Layout::packed8) {
      unsigned bits = 0;
      memcpy(&bits, &v, sizeof(T));
      const unsigned long long word = static_cast<unsigned long long>(flag) | (static_cast<unsigned long long>(bits) << 32);
      lookback_detail::store_relaxed_u64(base_ + tile * 8, word);
    } else if constexpr (LAYOUT == Layout::packed16) {
      unsigned w[4] = {static_cast<unsigned>(flag), 0u, 0u, static_cast<unsigned>(flag)};
      memcpy(w + 1, &v, sizeof(T));
      const unsigned long long lo = w[0] | (static_cast<unsigned long long>(w[1]) << 32);
      const unsigned long long hi = w[2] | (static_cast<unsigned long long>(w[3]) << 32);
      lookback_detail::store_relaxed_b128(base_ + tile * 16, lo, hi);
    } else {
      unsigned w[WORDS] = {};
      memcpy(w, &v, sizeof(T));
      unsigned char* slot = values(flag) + tile * WORDS * 4;
#pragma unroll
      for (std::size_t i = 0; i < WORDS; ++i) lookback_detail::store_relaxed_u32(slot + i * 4, w[i]);
      lookback_detail::store_release_u32(base_ + tile * 4, flag);  // orders the value stores before it
    }
  }

  // The tile's flag; `v` is its value when the flag is not TILE_INVALID.
  __device__ __forceinline__ TileFlag load(std::size_t tile, T& v) const {
    if constexpr (LAYOUT == Layout::packed8) {
      const unsigned long long word = lookback_detail::load_relaxed_u64(base_ + tile * 8);
      const unsigned bits = static_cast<unsigned>(word >> 32);
      memcpy(&v, &bits, sizeof(T));
      return static_cast<TileFlag>(static_cast<unsigned>(word));
    } else if constexpr (LAYOUT == Layout::packed16) {
      unsigned long long lo, hi;
      lookback_detail::load_relaxed_b128(base_ + tile * 16, lo, hi);
      const unsigned w[4] = {static_cast<unsigned>(lo), static_cast<unsigned>(lo >> 32), static_cast<unsigned>(hi),
                             static_cast<unsigned>(hi >> 32)};
      memcpy(&v, w + 1, sizeof(T));
      return w[0] == w[3] ? static_cast<TileFlag>(w[0]) : TILE_INVALID;  // torn: read again
    } else {
      const auto flag = static_cast<TileFlag>(lookback_detail::load_acquire_u32(base_ + tile * 4));
      if (flag != TILE_INVALID) {
        unsigned w[WORDS];
        const unsigned char* slot = values(flag) + tile * WORDS * 4;
#pragma unroll
        for (std::size_t i = 0; i < WORDS; ++i) w[i] = lookback_detail::load_relaxed_u32(slot + i * 4);
        memcpy(&v, w, sizeof(T));
      }
      return flag;
    }
  }

 private:
  // Split layout: [flags][aggregate values][inclusive values].
  __device__ __forceinline__ unsigned char* values(TileFlag flag) const {
    const std::size_t flags_bytes = lookback_detail::align16(tiles_ * 4);
    const std::size_t array_bytes = lookback_detail::align16(tiles_ * WORDS * 4);
    return base_ + flags_bytes + (flag == TILE_INCLUSIVE ? array_bytes : 0);
  }

  unsigned char* base_ = nullptr;
  std::size_t tiles_ = 0;
};

// ---- tile index ------------------------------------------------------------

// The block's tile, from the zeroed counter: thread 0 takes the next index,
// a barrier hands it to the block. `slot` is a __shared__ unsigned of the
// kernel; a block that takes several tiles must pass a barrier between the
// last read of one index and the next call.
__device__ __forceinline__ unsigned take_tile_index(unsigned* counter, unsigned& slot) {
  if (threadIdx.x == 0) slot = atomicAdd(counter, 1u);
  __syncthreads();
  return slot;
}

// ---- the look-back ---------------------------------------------------------

// Waiting for a predecessor that has published nothing yet: exponential
// back-off between re-reads, so that spinning warps leave L2 bandwidth to the
// tiles still loading. Starts short (the predecessor is usually about to
// publish) and stays below an L2 round trip under load (~0.5 us).
constexpr unsigned LOOKBACK_MIN_SLEEP_NS = 32;
constexpr unsigned LOOKBACK_MAX_SLEEP_NS = 256;

// Exponential back-off between polls of a look-back window: the first
// sleep, and one wait that doubles the next up to MAX_SLEEP_NS (0: spin).
template <unsigned MAX_SLEEP_NS>
__host__ __device__ constexpr unsigned lookback_first_sleep_ns() {
  return LOOKBACK_MIN_SLEEP_NS < MAX_SLEEP_NS ? LOOKBACK_MIN_SLEEP_NS : MAX_SLEEP_NS;
}
template <unsigned MAX_SLEEP_NS>
__device__ __forceinline__ void lookback_back_off(unsigned& sleep_ns) {
  if constexpr (MAX_SLEEP_NS > 0) {
    __nanosleep(sleep_ns);
    sleep_ns = sleep_ns * 2 < MAX_SLEEP_NS ? sleep_ns * 2 : MAX_SLEEP_NS;
  } else {
    (void)sleep_ns;
  }
}

// The exclusive prefix of tile `tile` (> 0): the combination, in order, of
// every tile before it. Call with all 32 lanes of one warp; every lane gets
// the result. Lane l reads tiles [end - 32*PER_LANE + l*PER_LANE, + PER_LANE)
// of the window ending at `end` (first end = tile); slots before tile 0 count
// as inclusive identities. A window is done once every tile to the right of
// its nearest inclusive prefix has published; without an inclusive prefix,
// its aggregates are folded in and the window slides left.
//
// `status`: a TileStatus<F::acc_t>, or any view with the same load(tile, v)
// (e.g. count_status.cuh's CountStatus, 8-byte slots for 64-bit counts).
// MAX_SLEEP_NS caps the back-off; 0 spins without sleeping (a tuning row
// measures whether the sleep costs more latency than the L2 traffic it saves).
template <int PER_LANE, unsigned MAX_SLEEP_NS = LOOKBACK_MAX_SLEEP_NS, class F, class Status>
__device__ typename F::acc_t warp_lookback(const Status& status, unsigned tile, const F& f) {
  static_assert(PER_LANE >= 1 && PER_LANE <= 8, "PER_LANE: 1..8 status slots per lane");
  using acc_t = typename F::acc_t;
  constexpr long long WINDOW = 32LL * PER_LANE;
  const int lane = static_cast<int>(lane_index());

  acc_t exclusive = f.identity();
  bool have = false;
  long long end = tile;
  while (true) {
    const long long first = end - WINDOW + static_cast<long long>(lane) * PER_LANE;
    TileFlag flag[PER_LANE];
    acc_t value[PER_LANE];
    auto read = [&] {
#pragma unroll
      for (int j = 0; j < PER_LANE; ++j) {
        const long long t = first + j;
        if (t < 0) {
          flag[j] = TILE_INCLUSIVE;
          value[j] = f.identity();
        } else {
          flag[j] = status.load(static_cast<std::size_t>(t), value[j]);
        }
      }
    };
    read();

    // Wait until every slot right of the nearest inclusive prefix is valid.
    int nearest_lane, last_inclusive;  // the warp's nearest inclusive: lane, and this lane's own last one
    unsigned sleep_ns = lookback_first_sleep_ns<MAX_SLEEP_NS>();
    while (true) {
      last_inclusive = -1;
#pragma unroll
      for (int j = 0; j < PER_LANE; ++j)
        if (flag[j] == TILE_INCLUSIVE) last_inclusive = j;
      const unsigned lanes_with_inclusive = __ballot_sync(scan_detail::FULL_MASK, last_inclusive >= 0);
      nearest_lane = lanes_with_inclusive ? 31 - __clz(lanes_with_inclusive) : -1;
      bool waiting = false;
#pragma unroll
      for (int j = 0; j < PER_LANE; ++j)
        waiting |= flag[j] == TILE_INVALID && (lane > nearest_lane || (lane == nearest_lane && j > last_inclusive));
      if (!__any_sync(scan_detail::FULL_MASK, waiting)) break;
      lookback_back_off<MAX_SLEEP_NS>(sleep_ns);
      read();
    }

    // This lane's share of the window, in order: everything for lanes right
    // of the nearest inclusive prefix, from that prefix on for its own lane.
    acc_t mine = f.identity();
    bool mine_set = false;
#pragma unroll
    for (int j = 0; j < PER_LANE; ++j) {
      if (lane > nearest_lane || (lane == nearest_lane && j >= last_inclusive)) {
        mine = mine_set ? f.combine(mine, value[j]) : value[j];
        mine_set = true;
      }
    }
    const acc_t window = warp_reduce_in_order(mine, f);
    exclusive = have ? f.combine(window, exclusive) : window;
    have = true;
    if (nearest_lane >= 0) return exclusive;
    end -= WINDOW;
  }
}

// Steps 2-4 of the protocol for one tile, by warp 0 of its block once the
// tile's aggregate is known in every lane of that warp: publish, look back,
// publish the inclusive prefix. Returns the exclusive prefix (meaningless for
// tile 0, which has none: callers skip it there).
template <int PER_LANE, unsigned MAX_SLEEP_NS = LOOKBACK_MAX_SLEEP_NS, class F>
__device__ __forceinline__ typename F::acc_t tile_exclusive_prefix(const TileStatus<typename F::acc_t>& status,
                                                                    unsigned tile,
                                                                    const typename F::acc_t& aggregate, const F& f) {
  const unsigned lane = lane_index();
  if (tile == 0) {
    if (lane == 0) status.publish(0, TILE_INCLUSIVE, aggregate);
    return f.identity();
  }
  if (lane == 0) status.publish(tile, TILE_AGGREGATE, aggregate);
  const typename F::acc_t exclusive = warp_lookback<PER_LANE, MAX_SLEEP_NS>(status, tile, f);
  if (lane == 0) status.publish(tile, TILE_INCLUSIVE, f.combine(exclusive, aggregate));
  return exclusive;
}

}  // namespace tessera::gpu
