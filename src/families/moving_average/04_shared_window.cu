// Step 4 — any window width, any weights: a shared-memory sliding window
// (seed 004's overlapping blocks generalised: the block stages its tile of
// outputs plus a halo of w - 1 samples, so every product reads shared memory).
//
// What it changes over step 3: any odd w; the weights sit in shared memory
// (one broadcast read per tap); each thread computes R consecutive outputs
// from a window of R samples kept in registers and slid one sample per tap,
// so a tap costs one shared-memory read and R FMAs instead of R reads (the
// register-blocked direct form). R is odd, so the lanes of a warp, R samples
// apart, hit 32 different banks. The tile and its halo load as float4 where
// the input is 16-byte aligned, and the outputs leave through shared memory
// as float4 stores, whole lines per warp.
//
// Bottleneck: DRAM for small w (w = 3: ~90% of copy expected); past a few
// dozen taps, the FMAs (w per output: about 2^28 * w / 29 T FMA/s on an H100,
// equal to the copy time near w ~ 60) — where the running sum takes over for
// box filters (policy.hpp).
#include "core/kernel_resources.hpp"
#include "families/moving_average/cuda_rungs.hpp"
#include "families/moving_average/window.cuh"
#include "tessera/blocks/launch.cuh"

namespace tessera::moving_average_impl {

namespace {

constexpr int THREADS = 256;
constexpr int R = 7;                 // outputs per thread: odd (conflict-free), 7 FMAs per shared read
constexpr int TILE = THREADS * R;    // 1792 outputs per block: a multiple of 4 (16-byte stores)
static_assert(TILE % 4 == 0, "tiles start on 16-byte boundaries of the output");
// Float: 6 blocks of 256 threads per SM, at most 42 registers each: narrow
// windows need blocks in flight (their shared memory, ~7 KB, allows 8+), and
// the batched staging would otherwise take 76 registers (3 blocks per SM).
// Double: twice the registers per value, 3 blocks.
template <class T>
constexpr int MIN_BLOCKS = sizeof(T) == 4 ? 6 : 3;

// Dynamic shared memory: the staged samples (tile + halo + alignment), one
// quad of slack (the register window's last refill reads one sample past
// the window, never used), then the weights.
constexpr int SLACK = 4;
template <class T>
std::size_t shared_bytes(int w) {
  const window::TileSpan span = window::tile_span(0, TILE, w);
  return (static_cast<std::size_t>(span.count) + SLACK + static_cast<std::size_t>(w)) * sizeof(T);
}

__device__ __forceinline__ float fma_of(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ double fma_of(double a, double b, double c) { return fma(a, b, c); }

template <class T>
__global__ __launch_bounds__(THREADS, MIN_BLOCKS<T>) void moving_average_shared_window_kernel(
    window::Samples<T> s, const T* __restrict__ weights, int w, T* __restrict__ out) {
  extern __shared__ float4 shared_vec[];
  T* ys = reinterpret_cast<T*>(shared_vec);
  const std::int64_t t0 = static_cast<std::int64_t>(blockIdx.x) * TILE;
  const window::TileSpan span = window::tile_span(t0, TILE, w);
  T* ws = ys + span.count + SLACK;
  window::stage_samples<THREADS>(s, span.first, span.count, ys);
  for (int j = static_cast<int>(threadIdx.x); j < w; j += THREADS) ws[j] = weights[j];
  __syncthreads();

  // Outputs t0 + base + r read samples ys[offset + base + r + j], j < w.
  const int base = static_cast<int>(threadIdx.x) * R;
  const T* y = ys + span.offset + base;
  T win[R], acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    win[r] = y[r];
    acc[r] = T(0);
  }
  for (int j = 0; j < w; ++j) {
    const T c = ws[j];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = fma_of(c, win[r], acc[r]);
#pragma unroll
    for (int r = 0; r + 1 < R; ++r) win[r] = win[r + 1];
    win[R - 1] = y[j + R];  // for the last j, one sample past the window: the slack
  }
  __syncthreads();  // every thread is done reading ys: reuse it for the outputs
#pragma unroll
  for (int r = 0; r < R; ++r) ys[base + r] = acc[r];
  __syncthreads();

  const std::size_t first = static_cast<std::size_t>(t0);
  const std::size_t valid = s.n - first < static_cast<std::size_t>(TILE) ? s.n - first : TILE;
  const bool vec = (reinterpret_cast<std::uintptr_t>(out) & 15) == 0;
  if (vec && valid == static_cast<std::size_t>(TILE)) {
    for (int q = static_cast<int>(threadIdx.x); q < TILE / 4; q += THREADS)
      window::store_four(out + first + 4 * q, window::read_four(ys + 4 * q));
  } else {
    for (int k = static_cast<int>(threadIdx.x); k < static_cast<int>(valid); k += THREADS) out[first + k] = ys[k];
  }
}

template <class T>
void run_typed(const MovingAverageCall& call, const char* name) {
  const int w = static_cast<int>(call.spec.w);
  const std::size_t smem = shared_bytes<T>(w);
  auto* kernel = moving_average_shared_window_kernel<T>;
  // Opts the kernel in to more than 48 KB (wide windows) and checks it fits.
  (void)gpu::resident_blocks_per_sm(reinterpret_cast<const void*>(kernel), THREADS, smem, name);
  detail::launch(name, kernel, dim3(static_cast<unsigned>(detail::div_up(call.spec.n, TILE))), dim3(THREADS), smem,
                 call.stream, call.spec.n, window::samples_of<T>(call), static_cast<const T*>(call.weights), w,
                 static_cast<T*>(call.out));
}

}  // namespace

bool supports_shared_window(const MovingAverageSpec& spec) {
  if (spec.dtype == Dtype::f32) return spec.w <= MAX_SHARED_W;
  return spec.dtype == Dtype::f64 && spec.w <= MAX_TILED_W;  // doubles: half the taps in the same shared memory
}

void run_shared_window(const MovingAverageCall& call) {
  if (call.spec.n == 0) return;
  if (call.spec.dtype == Dtype::f64) run_typed<double>(call, "moving_average_shared_window_kernel<double>");
  else run_typed<float>(call, "moving_average_shared_window_kernel<float>");
}

}  // namespace tessera::moving_average_impl
