// Step 6 — tessera's box filter: a running sum re-anchored at each tile, in
// one pass over memory. A block owns TILE consecutive outputs; it stages
// their samples plus the w - 1 of the halo into shared memory (float4 loads),
// scans them there (tessera's block scan, blocks/block_scan.cuh: each thread
// sums ITEMS consecutive samples, the block scans the thread sums, each
// thread writes its ITEMS prefixes) and writes out[i] = c * (S[k + w] - S[k]).
//
// What it changes over step 5: no prefix in global memory (2 passes of 4n
// bytes, as a copy, instead of 5); the prefix restarts at every tile, so the
// subtraction cancels at most TILE + w samples' worth of magnitude instead of
// everything before the output. Two accumulators:
//   running_sum_tiled_float  the prefix in float: the re-anchoring alone
//                            (error ~ eps * |tile's sum|, ~ (TILE + w) / w
//                            times a direct sum's);
//   running_sum_tiled        the prefix in double (the compensated variant):
//                            the subtraction is exact to ~2^-53 of the
//                            tile's sum, so each output is its exact value
//                            rounded once to float. H100 double adds
//                            (64 per clock per SM) keep it memory-bound.
// The halo (w - 1 samples per tile) is read twice, by this tile and its
// neighbour, mostly from L2: DRAM traffic stays ~ read n + write n.
// Measured on the H100 at w = 1001 (docs/moving_average.md): 80 % of copy with
// the double prefix, 94 % with the float one: the double scan in shared
// memory, not DRAM, is the bottleneck (46 KB per block with the samples
// staged inside the prefixes' space, 4 blocks per SM).
#include "core/kernel_resources.hpp"
#include "families/moving_average/cuda_rungs.hpp"
#include "families/moving_average/window.cuh"
#include "tessera/blocks/block_scan.cuh"
#include "tessera/blocks/launch.cuh"

namespace tessera::moving_average_impl {

namespace {

constexpr int THREADS = 256;
constexpr int ITEMS = 8;                   // consecutive samples per thread per scan chunk
constexpr int CHUNK = THREADS * ITEMS;     // samples scanned per block scan
constexpr int TILE = 4096;                 // outputs per block
constexpr int OUTS = TILE / THREADS;       // outputs per thread
static_assert(TILE % THREADS == 0, "whole output rounds");
static_assert(ITEMS % 4 == 0, "the scan reads its samples as float4");
// The harness's tolerance (contract.hpp) assumes the prefix spans at most
// TILE_PREFIX_SPAN + w samples: the tile, the halo, up to 3 of alignment.
static_assert(TILE + 3 <= static_cast<int>(TILE_PREFIX_SPAN), "TILE_PREFIX_SPAN covers the tile");

// One pad slot after every 8 prefixes: thread t writes its 8 prefixes at
// 9t + k, so the 32 lanes of a warp hit 32 different banks (float) or 16
// different bank pairs per half warp (double).
__host__ __device__ __forceinline__ int padded(int m) { return m + (m >> 3); }

// Shared memory: the prefixes S[0 .. count] (padded) from the start, the
// staged samples in the last count floats. They overlap: chunk c's prefix
// writes (after its block scan's barrier, when its samples have been read)
// reach byte ~9 (c0 + CHUNK) for doubles (4.5 (c0 + CHUNK) for floats),
// while the next chunk's samples start at byte ys + 4 (c0 + CHUNK) with
// ys ~ 5 count (0.5 count): below it whenever a next chunk exists
// (c0 + CHUNK <= count). SLACK covers the rounding of the padding and of
// ys's 16-byte alignment. Saves the 4 bytes per sample the samples took
// apart: 46 KB instead of 66 KB at w = 1001 (4 blocks per SM, not 3).
constexpr int SLACK = 32;
template <class T, class Acc>
struct TiledLayout {
  int bytes;     // dynamic shared memory
  int ys_bytes;  // where the staged samples start (16-byte aligned)
  __host__ __device__ explicit TiledLayout(int count) {
    bytes = ((padded(count) + 1) * static_cast<int>(sizeof(Acc)) + SLACK + 15) / 16 * 16;
    ys_bytes = bytes - static_cast<int>(sizeof(T)) * count;  // count is a multiple of 4: 16-byte aligned
  }
};

template <class Acc>
struct Sum {
  using acc_t = Acc;
  __device__ __forceinline__ Acc identity() const { return Acc(0); }
  __device__ __forceinline__ Acc combine(Acc a, Acc b) const { return a + b; }
};

template <class T, class Acc>
std::size_t shared_bytes(int w) {
  return static_cast<std::size_t>(TiledLayout<T, Acc>(window::tile_span(0, TILE, w).count).bytes);
}

// 4 blocks of 256 threads per SM: at most 64 registers (62 without the bound).
template <class T, class Acc>
__global__ __launch_bounds__(THREADS, 4) void moving_average_running_sum_tiled_kernel(window::Samples<T> s,
                                                                                     const T* __restrict__ weights,
                                                                                     int w, T* __restrict__ out) {
  extern __shared__ float4 shared_vec[];
  __shared__ Acc warp_totals[THREADS / 32];
  const std::int64_t t0 = static_cast<std::int64_t>(blockIdx.x) * TILE;
  const window::TileSpan span = window::tile_span(t0, TILE, w);
  const TiledLayout<T, Acc> layout(span.count);
  Acc* S = reinterpret_cast<Acc*>(shared_vec);
  T* ys = reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(shared_vec) + layout.ys_bytes);
  window::stage_samples<THREADS>(s, span.first, span.count, ys);
  __syncthreads();

  // S[m] = ys[0] + ... + ys[m-1], chunk by chunk, carried across chunks.
  const Sum<Acc> f;
  Acc carry = 0;
  if (threadIdx.x == 0) S[0] = 0;
  for (int c0 = 0; c0 < span.count; c0 += CHUNK) {
    const int m0 = c0 + static_cast<int>(threadIdx.x) * ITEMS;
    // Quads of 16-byte reads (m0 is a multiple of 8, count of 4: each quad
    // is wholly inside or past the staged samples); for floats, lanes 32
    // bytes apart cost 2 shared-memory wavefronts per quarter warp instead
    // of 8 scalar reads' 8-way conflicts.
    Acc v[ITEMS];
    Acc thread_sum = 0;
#pragma unroll
    for (int q = 0; q < ITEMS / 4; ++q) {
      window::Four<T> f4 = {{T(0), T(0), T(0), T(0)}};
      if (m0 + 4 * q < span.count) f4 = window::read_four(ys + m0 + 4 * q);
#pragma unroll
      for (int e = 0; e < 4; ++e) v[4 * q + e] = static_cast<Acc>(f4.v[e]);
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) thread_sum += v[k];
    Acc chunk_total;
    Acc running = carry + gpu::block_exclusive_scan<THREADS>(thread_sum, f, warp_totals, chunk_total);
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      running += v[k];
      if (m0 + k < span.count) S[padded(m0 + k + 1)] = running;
    }
    carry += chunk_total;
    __syncthreads();  // warp_totals is written again by the next chunk's scan; S is read after the loop
  }

  // Output t0 + k sums ys[offset + k .. offset + k + w): S[offset + k + w] - S[offset + k].
  const Acc c = static_cast<Acc>(weights[0]);
#pragma unroll 4
  for (int r = 0; r < OUTS; ++r) {
    const int k = r * THREADS + static_cast<int>(threadIdx.x);
    const std::size_t i = static_cast<std::size_t>(t0) + k;
    if (i < s.n) out[i] = static_cast<T>(c * (S[padded(span.offset + k + w)] - S[padded(span.offset + k)]));
  }
}

template <class T, class Acc>
void run_tiled(const MovingAverageCall& call, const char* name) {
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  const int w = static_cast<int>(call.spec.w);
  const std::size_t smem = shared_bytes<T, Acc>(w);
  auto* kernel = moving_average_running_sum_tiled_kernel<T, Acc>;
  (void)gpu::resident_blocks_per_sm(reinterpret_cast<const void*>(kernel), THREADS, smem, name);
  detail::launch(name, kernel, dim3(static_cast<unsigned>(detail::div_up(n, TILE))), dim3(THREADS), smem,
                 call.stream, n, window::samples_of<T>(call), static_cast<const T*>(call.weights), w,
                 static_cast<T*>(call.out));
}

}  // namespace

bool supports_running_sum_tiled_float(const MovingAverageSpec& spec) {
  return spec.dtype == Dtype::f32 && spec.uniform && spec.w <= MAX_TILED_W;
}

// Doubles accumulate in double: the same kernel on double samples.
bool supports_running_sum_tiled(const MovingAverageSpec& spec) {
  return (spec.dtype == Dtype::f32 || spec.dtype == Dtype::f64) && spec.uniform && spec.w <= MAX_TILED_W;
}

void run_running_sum_tiled_float(const MovingAverageCall& call) {
  run_tiled<float, float>(call, "moving_average_running_sum_tiled_kernel<float, float>");
}

void run_running_sum_tiled(const MovingAverageCall& call) {
  if (call.spec.dtype == Dtype::f64)
    run_tiled<double, double>(call, "moving_average_running_sum_tiled_kernel<double, double>");
  else run_tiled<float, double>(call, "moving_average_running_sum_tiled_kernel<float, double>");
}

}  // namespace tessera::moving_average_impl
