// Tile status for look-backs over counts (compaction, select, unique): one
// 8-byte word per tile, {count << 2 | flag}, read and written with single
// relaxed 64-bit accesses at GPU scope, so flag and count can never tear
// apart and counts up to 2^62 fit (any n a device can hold).
//
// Why not TileStatus<unsigned long long> (lookback.cuh): its 64-bit values
// take the 16-byte {flag, value, flag} slot and .b128 accesses, so a
// look-back window of 32 * PER_LANE predecessors moves twice the bytes
// through the few L2 lines every resident tile polls; TileStatus<unsigned>
// would cap the counts at 2^32. Same interface as TileStatus (publish, load,
// bytes), so lookback.cuh's warp_lookback takes either.
//
// Workspace contract as TileStatus: bytes(tiles) bytes, 16-byte aligned,
// zeroed before every launch (TILE_INVALID == 0).
#pragma once

#include <cstddef>

#include "tessera/blocks/lookback.cuh"

namespace tessera::gpu {

class CountStatus {
 public:
  using value_type = unsigned long long;
  static constexpr unsigned FLAG_BITS = 2;  // TILE_INVALID, TILE_AGGREGATE, TILE_INCLUSIVE
  static constexpr unsigned long long FLAG_MASK = (1ull << FLAG_BITS) - 1;

  __host__ __device__ static constexpr std::size_t bytes(std::size_t tiles) {
    return lookback_detail::align16(tiles * 8);
  }

  CountStatus() = default;
  // `base`: bytes(tiles) bytes of device memory, 16-byte aligned, zeroed.
  __host__ __device__ CountStatus(void* base, std::size_t /*tiles*/) : base_(static_cast<unsigned char*>(base)) {}

  // Publishes `flag` with count `v` (< 2^62) for `tile`.
  __device__ __forceinline__ void publish(std::size_t tile, TileFlag flag, const value_type& v) const {
    lookback_detail::store_relaxed_u64(base_ + tile * 8, (v << FLAG_BITS) | static_cast<unsigned long long>(flag));
  }

  // The tile's flag; `v` is its count when the flag is not TILE_INVALID.
  __device__ __forceinline__ TileFlag load(std::size_t tile, value_type& v) const {
    const unsigned long long w = lookback_detail::load_relaxed_u64(base_ + tile * 8);
    v = w >> FLAG_BITS;
    return static_cast<TileFlag>(static_cast<unsigned>(w & FLAG_MASK));
  }

 private:
  unsigned char* base_ = nullptr;
};

}  // namespace tessera::gpu
