// find_unique step 3 — the seed's known-domain method, as written (seed 003
// "Find Unique – Special case" and "Populating a Hash Flag Array"): bytes
// have 256 possible values, so instead of sorting, every thread writes
// table[x[i]] = 1 into a table in global memory — conflicting plain stores,
// benign because they all store the same value and one of them is
// guaranteed to land — then one block scans the 256 flags and gathers the
// values present (flag_table.cuh). Two kernels and a memset.
//
// What it changes over step 2: no sort (the seed's 0.349 s -> 0.055 s). What
// it runs into: 2^30 one-byte loads, one per thread, and 2^30 stores that all
// land on the same 1 KiB (8 lines) of L2: the L2 slices owning those lines
// serialise them. Expected (H100, 2^30 text bytes): a few percent of the copy
// bandwidth — store-throughput bound on 8 L2 lines, not DRAM bound.
#include <cuda_runtime.h>

#include <cstdint>

#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/compose/flag_table.cuh"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

constexpr int BLOCK_THREADS = 256;  // one element per thread, as the seed's maps

__global__ __launch_bounds__(BLOCK_THREADS) void flag_table_write_global_kernel(const std::uint8_t* __restrict__ in,
                                                                                std::size_t n,
                                                                                gpu::FlagWord* table) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  if (i < n) table[in[i]] = 1u;  // benign conflicting writes: every writer stores 1
}

__global__ __launch_bounds__(gpu::BYTE_VALUES) void flag_table_gather_kernel(const gpu::FlagWord* table,
                                                                             std::uint8_t* __restrict__ out,
                                                                             std::int64_t* __restrict__ count) {
  __shared__ unsigned long long warp_totals[gpu::BYTE_VALUES / 32];
  gpu::gather_flag_table(table, out, count, warp_totals);
}

constexpr std::size_t TABLE_BYTES = gpu::BYTE_VALUES * sizeof(gpu::FlagWord);

}  // namespace

void run_find_unique_flag_table_global(const Call& call) {
  const std::size_t n = call.spec.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(call.count, 0, sizeof(std::int64_t), call.stream));
    return;
  }
  auto* table = static_cast<gpu::FlagWord*>(call.workspace);
  TESSERA_CUDA(cudaMemsetAsync(table, 0, TABLE_BYTES, call.stream));
  const unsigned grid = gpu::checked_grid(detail::div_up(n, BLOCK_THREADS), "flag_table_write_global_kernel", n);
  detail::launch("flag_table_write_global_kernel", flag_table_write_global_kernel, dim3(grid), dim3(BLOCK_THREADS), 0,
                 call.stream, n, static_cast<const std::uint8_t*>(call.in), n, table);
  detail::launch("flag_table_gather_kernel", flag_table_gather_kernel, dim3(1), dim3(gpu::BYTE_VALUES), 0, call.stream,
                 n, table, static_cast<std::uint8_t*>(call.out), call.count);
}

std::size_t ws_find_unique_flag_table_global(const Spec& s) { return s.n == 0 ? 0 : TABLE_BYTES; }

bool supports_find_unique_flag_table_global(const Spec& s) {
  return s.family == Family::find_unique && s.dtype == Dtype::u8;
}

}  // namespace tessera::compose_impl
