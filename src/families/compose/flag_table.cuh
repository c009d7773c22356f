// The known-domain unique of bytes (seed 003 "Find Unique – Special case"):
// a flag table with one entry per possible value, set by every element
// ("hash insertion ... leverage the semantics of conflicting writes for
// non-atomic memory accesses: at least one conflicting write to a device
// memory location is guaranteed to succeed"), then scanned (the unique
// index) and gathered (the unique list). No sort; the output comes out in
// ascending order because the table is indexed by value.
//
// Shared by the two flag-table rungs: the table layout, and the block that
// scans the 256 flags and gathers the present values.
#pragma once

#include <cstdint>

#include "tessera/blocks/block_scan.cuh"
#include "families/compose/swar.cuh"

namespace tessera::gpu {

constexpr int BYTE_VALUES = 256;  // the domain of uint8
using FlagWord = unsigned;        // one table entry: 0 absent, non-zero present

// One block of BYTE_VALUES threads: thread v reads flag v, a block scan gives
// its place among the present values, present values are gathered in
// ascending order; thread 0 writes the count. `table` is read through L2
// (__ldcg): other blocks wrote it during this launch or the previous one.
// `warp_totals`: BYTE_VALUES / 32 words of shared memory.
__device__ __forceinline__ void gather_flag_table(const FlagWord* table, std::uint8_t* __restrict__ out,
                                                  std::int64_t* __restrict__ count,
                                                  unsigned long long* warp_totals) {
  const unsigned v = threadIdx.x;
  const unsigned long long present = __ldcg(table + v) != 0u ? 1ull : 0ull;
  unsigned long long total = 0;
  const unsigned long long before = block_exclusive_scan<BYTE_VALUES>(present, SumU64{}, warp_totals, total);
  if (present) out[before] = static_cast<std::uint8_t>(v);
  if (v == 0) *count = static_cast<std::int64_t>(total);
}

}  // namespace tessera::gpu
