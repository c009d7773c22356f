// Step 2 — seed 002's gpu_cumsum_smem_v0, PAD = 0 (smem_v0_bank_conflicts) and
// PAD = 1 (smem_v0_padded).
//
// One warp (a 32-thread block) owns 32 rows. For each chunk of 32 columns,
// lane l loads column (chunk + l) of each of the 32 rows into a 32 x (32+PAD)
// shared tile (coalesced along rows), then lane l scans row l of the tile
// serially, carrying its float sum from chunk to chunk, and the tile is
// stored back the way it came. forward_backward is two passes through global
// memory: forward in -> out, then backward out -> out (the seed's in-place
// loop), so the forward result is rounded to float in between: float
// accumulation only (where that rounding is exact). Fixed relative to the
// seed: __syncwarp() between the tile's writes and reads (the seed's
// commented-out barriers are needed on Volta and later), the last chunk's
// columns past len are not scanned, pitches and exclusive scans.
//
// PAD = 0: lane l reads tile[l][k], word l*32 + k: all 32 lanes in one bank,
// a 32-way conflict on every read and write of the scan. PAD = 1: word
// l*33 + k, 32 different banks.
//
// Bottleneck: a warp has one row-chunk (32 floats) in flight per load
// instruction and a grid of rows/32 one-warp blocks (313 warps for 10,000
// rows: ~2 per SM), and every sample crosses DRAM twice for forward_backward.
// Expected: PAD = 0 ~3%, PAD = 1 ~8% of the copy bandwidth.
#include "families/batched_scan/common.cuh"
#include "families/batched_scan/cuda_rungs.hpp"
#include "families/batched_scan/seed_common.cuh"

namespace tessera::batched_scan_impl {

namespace {

using gpu_detail::SEED_WARP;

// One pass over rows [i, i + nrows) of src into dst (may be the same rows).
template <int PAD>
__device__ __forceinline__ void smem_v0_pass(const float* src, std::size_t src_pitch, float* dst,
                                             std::size_t dst_pitch, std::size_t i, unsigned nrows, std::size_t len,
                                             bool reverse, bool exclusive, float (&tile)[SEED_WARP][SEED_WARP + PAD]) {
  const unsigned lane = threadIdx.x;
  float sum = 0.0f;
  for (std::size_t j = 0; j < len; j += SEED_WARP) {
    const std::size_t idx = j + lane;
    const bool ok = idx < len;
    const std::size_t col = reverse ? len - 1 - idx : idx;
    for (unsigned k = 0; k < nrows; ++k)
      if (ok) tile[k][lane] = src[(i + k) * src_pitch + col];
    __syncwarp();
    const std::size_t left = len - j;
    const unsigned width = left < SEED_WARP ? static_cast<unsigned>(left) : SEED_WARP;
    if (lane < nrows)
      for (unsigned k = 0; k < width; ++k) {
        const float before = sum;
        sum += tile[lane][k];
        tile[lane][k] = exclusive ? before : sum;
      }
    __syncwarp();
    for (unsigned k = 0; k < nrows; ++k)
      if (ok) dst[(i + k) * dst_pitch + col] = tile[k][lane];
    __syncwarp();  // the next chunk overwrites the tile; the next pass reads dst
  }
}

template <int PAD>
__global__ __launch_bounds__(SEED_WARP) void batched_scan_smem_v0_kernel(const float* in, std::size_t in_pitch,
                                                                         float* out, std::size_t out_pitch,
                                                                         std::size_t rows, std::size_t len,
                                                                         ScanDirection dir, bool exclusive) {
  __shared__ float tile[SEED_WARP][SEED_WARP + PAD];
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * SEED_WARP; i < rows;
       i += static_cast<std::size_t>(gridDim.x) * SEED_WARP) {
    const unsigned nrows = rows - i < SEED_WARP ? static_cast<unsigned>(rows - i) : SEED_WARP;
    if (dir == ScanDirection::backward) {
      smem_v0_pass<PAD>(in, in_pitch, out, out_pitch, i, nrows, len, true, exclusive, tile);
    } else {
      smem_v0_pass<PAD>(in, in_pitch, out, out_pitch, i, nrows, len, false, exclusive, tile);
      if (dir == ScanDirection::forward_backward)
        smem_v0_pass<PAD>(out, out_pitch, out, out_pitch, i, nrows, len, true, exclusive, tile);
    }
  }
}

template <int PAD>
void run_smem_v0(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (!gpu_detail::has_work(s)) return;
  const char* name =
      PAD == 0 ? "batched_scan_smem_v0_bank_conflicts_kernel" : "batched_scan_smem_v0_padded_kernel";
  const unsigned grid = gpu_detail::seed_grid(s.rows, SEED_WARP, name, s);
  detail::launch(name, batched_scan_smem_v0_kernel<PAD>, dim3(grid), dim3(SEED_WARP), 0, call.stream,
                 s.rows * s.len, call.in, s.in_pitch, call.out, s.out_pitch, s.rows, s.len, s.direction, s.exclusive);
}

}  // namespace

void run_smem_v0_bank_conflicts(const ScanCall& call) { run_smem_v0<0>(call); }
void run_smem_v0_padded(const ScanCall& call) { run_smem_v0<1>(call); }
std::size_t ws_smem_v0_bank_conflicts(const ScanSpec&) { return 0; }
std::size_t ws_smem_v0_padded(const ScanSpec&) { return 0; }
bool supports_smem_v0_bank_conflicts(const ScanSpec& s) { return gpu_detail::seed_supports(s); }
bool supports_smem_v0_padded(const ScanSpec& s) { return gpu_detail::seed_supports(s); }

}  // namespace tessera::batched_scan_impl
