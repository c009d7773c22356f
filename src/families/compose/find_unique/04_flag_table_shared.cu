// find_unique step 4 — tessera's known-domain unique of bytes: the flag table
// privatised in shared memory, one launch.
//
// What it changes over step 3: the 2^30 flag writes never leave the SM. Each
// thread owns a private 256-entry byte table in shared memory and marks the
// values it reads there; the block merges its 256 tables once at the end and
// writes only the values it saw into the global table (at most 256 stores
// per block). A persistent grid (SMs x resident blocks) strides over 16 KiB
// tiles read with 16-byte loads (4 in flight per thread); the first and last
// tile go byte by byte. The last block to finish (a ticket taken after a
// __threadfence(), as the reduce single_pass) scans the 256 flags and
// gathers the present values: the whole method is one kernel after a 1 KiB
// memset.
//
// Why private tables rather than one shared table written by every thread
// (the seed's benign conflicting writes, moved on chip): a thread's table is
// laid out as 64 words, word g (values 4g..4g+3) at words[g * 256 + t], so
// every store of thread t lands in bank t % 32 — no bank conflicts whatever
// the bytes — and no two threads ever write the same location, so the kernel
// is race-free by construction (compute-sanitizer racecheck has nothing to
// report) instead of relying on conflicting writes being benign. The merge
// reads the 256 x 64 words once per block, rotated so that a warp's 32 loads
// hit 32 banks. 64 KiB of shared memory per block: 3 blocks (768 threads) per
// SM, 48 KiB of loads in flight per SM, twice what H100 needs.
//
// Per byte: extract, address, one shared byte store (~4 instructions).
// Bottleneck: DRAM read bandwidth, with the issue rate at about half its
// limit. Expected (H100, 2^30 text bytes): 85-100% of the copy bandwidth on
// the cost model (the input read once), > 20x step 3.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/device.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "tessera/blocks/aligned_tiles.cuh"
#include "families/compose/flag_table.cuh"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

// 256 threads (a thread per table entry for the merge and the gather) x 4
// vectors of 16 bytes in flight: a 16 KiB tile.
constexpr int BLOCK_THREADS = gpu::BYTE_VALUES;
constexpr int VECS = 4;
constexpr std::size_t TILE = static_cast<std::size_t>(BLOCK_THREADS) * VECS * 16;
constexpr int GROUPS = gpu::BYTE_VALUES / 4;  // a word holds the flags of 4 values
constexpr int QUARTERS = 4;                   // the merge splits the 256 tables in 4 quarters of 64
constexpr int PER_QUARTER = BLOCK_THREADS / QUARTERS;
static_assert(BLOCK_THREADS == GROUPS * QUARTERS, "one merge thread per (group, quarter)");

struct Smem {
  unsigned tables[GROUPS * BLOCK_THREADS];  // word g of thread t's table at [g * BLOCK_THREADS + t]
  unsigned merged[QUARTERS][GROUPS];
  unsigned long long warp_totals[gpu::BYTE_VALUES / 32];
  bool is_last_block;
};
constexpr std::size_t SMEM_BYTES = sizeof(Smem);

// Byte address, inside the tables, of value v's flag in thread t's table.
__device__ __forceinline__ unsigned flag_byte(unsigned v, unsigned t) {
  return ((v >> 2) * BLOCK_THREADS + t) * 4u + (v & 3u);
}

__global__ __launch_bounds__(BLOCK_THREADS) void flag_table_shared_kernel(const std::uint8_t* __restrict__ in,
                                                                          gpu::AlignedTiles tiles, bool vec_in,
                                                                          gpu::FlagWord* table, unsigned* ticket,
                                                                          std::uint8_t* __restrict__ out,
                                                                          std::int64_t* __restrict__ count) {
  Smem& s = *gpu::dynamic_smem<Smem>();
  auto* flags = reinterpret_cast<unsigned char*>(s.tables);
  const unsigned t = threadIdx.x;
#pragma unroll 8
  for (int g = 0; g < GROUPS; ++g) s.tables[g * BLOCK_THREADS + t] = 0u;  // the thread's own words only

  for (std::size_t b = blockIdx.x; b < tiles.count; b += gridDim.x) {
    if (vec_in && tiles.full(b)) {
      std::uint8_t x[VECS][16];
      gpu::load_striped<BLOCK_THREADS, VECS>(in - tiles.pad + b * tiles.tile, x);  // 16-byte aligned
#pragma unroll
      for (int k = 0; k < VECS; ++k)
#pragma unroll
        for (int j = 0; j < 16; ++j) flags[flag_byte(x[k][j], t)] = 1;
    } else {
      const std::size_t lo = tiles.lo(b), hi = tiles.hi(b);
      for (std::size_t q = lo + t; q < hi; q += BLOCK_THREADS) flags[flag_byte(in[tiles.element(b, q)], t)] = 1;
    }
  }
  __syncthreads();  // every table complete before the merge reads them

  // Merge: thread (quarter q, group g) ORs word g of the 64 tables of its
  // quarter, starting at a different table in each lane (32 banks per load).
  {
    const unsigned q = t / GROUPS, g = t % GROUPS;
    unsigned acc = 0;
    for (unsigned i = 0; i < PER_QUARTER; ++i)
      acc |= s.tables[g * BLOCK_THREADS + q * PER_QUARTER + ((i + g) % PER_QUARTER)];
    s.merged[q][g] = acc;
  }
  __syncthreads();

  // Flush: thread v writes the global flag of value v if the block saw it; the
  // fence makes the store visible device-wide before this block's ticket.
  {
    unsigned word = 0;
#pragma unroll
    for (int q = 0; q < QUARTERS; ++q) word |= s.merged[q][t / 4];
    if ((word >> (8 * (t % 4))) & 0xFFu) table[t] = 1u;
  }
  __threadfence();
  __syncthreads();
  if (t == 0) s.is_last_block = atomicAdd(ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!s.is_last_block) return;

  // Last block: every other block's flush happened before its ticket.
  __threadfence();
  gpu::gather_flag_table(table, out, count, s.warp_totals);
  if (t == 0) *ticket = 0u;  // ready for the next launch (the run also zeroes it)
}

// Workspace: [ table: 256 words ][ ticket ], zeroed by one memset per run.
constexpr std::size_t TABLE_BYTES = gpu::BYTE_VALUES * sizeof(gpu::FlagWord);
constexpr std::size_t WORKSPACE_BYTES = TABLE_BYTES + sizeof(unsigned);

// Opts the kernel into 64+ KiB of dynamic shared memory (once per process:
// a function attribute, not stream work) and returns its resident blocks
// per SM.
int blocks_per_sm() {
  static std::atomic<int> cached{0};
  int value = cached.load(std::memory_order_relaxed);
  if (value == 0) {
    TESSERA_CUDA(cudaFuncSetAttribute(flag_table_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(SMEM_BYTES)));
    TESSERA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&value, flag_table_shared_kernel, BLOCK_THREADS,
                                                               SMEM_BYTES));
    value = std::max(value, 1);
    cached.store(value, std::memory_order_relaxed);
  }
  return value;
}

}  // namespace

void run_find_unique_flag_table_shared(const Call& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  const auto* in = static_cast<const std::uint8_t*>(call.in);
  auto* table = gpu::workspace_at<gpu::FlagWord>(call.workspace, 0);
  auto* ticket = gpu::workspace_at<unsigned>(call.workspace, TABLE_BYTES);
  TESSERA_CUDA(cudaMemsetAsync(call.workspace, 0, WORKSPACE_BYTES, call.stream));
  const gpu::AlignedTiles tiles = gpu::aligned_tiles(in, n, TILE);
  const std::size_t resident = static_cast<std::size_t>(gpu::sm_count()) * blocks_per_sm();
  const unsigned grid = gpu::checked_grid(std::min(resident, tiles.count), "flag_table_shared_kernel", n);
  detail::launch("flag_table_shared_kernel", flag_table_shared_kernel, dim3(grid), dim3(BLOCK_THREADS), SMEM_BYTES,
                 call.stream,
                 n, in, tiles, gpu::vector_ok(in), table, ticket, static_cast<std::uint8_t*>(call.out), call.count);
}

std::size_t ws_find_unique_flag_table_shared(const Spec& s) { return s.n == 0 ? 0 : WORKSPACE_BYTES; }

bool supports_find_unique_flag_table_shared(const Spec& s) {
  return s.family == Family::find_unique && s.dtype == Dtype::u8;
}

}  // namespace tessera::compose_impl
