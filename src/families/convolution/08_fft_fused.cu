// Step 8 (fused) — the FFT convolution in one pass over memory: each block
// reads two overlap-save segments of 4,096 inputs straight from the signal
// into registers as one complex signal z = a + i b, transforms it in shared
// memory and registers (three radix-16 stages, fft_fused_math.hpp),
// multiplies by the mask's spectrum (computed once per call by one block
// into 35 KB of workspace with the twiddle table, read by every block
// through L2), transforms back and writes both segments' valid outputs. The mask is real, so
// conv(a + i b, h) = conv(a, h) + i conv(b, h): the real part is segment a's
// result, the imaginary part segment b's, with no split of the spectrum.
//
// Against fft_overlap_save (cuFFT: R2C, multiply, C2R, scatter, ~2.4 GB
// moved at 1,025 taps over 2^26 samples) this reads the signal once (with
// the 1,024-sample overlaps, mostly L2 hits between neighbouring blocks) and
// writes it once: ~0.6 GB. Bottleneck expected: FP32 issue (about 80 flops
// per output at 1,025 taps: 2 transforms of 5 N log2 N over 2 (N - 1,024)
// outputs; ~2,650 instructions a thread, 64 registers, 4 blocks an SM) and
// the block's 8 barriers, not DRAM: predicted ~0.35 ms (docs/convolution.md).
//
// Masks of up to FUSED_MAX_TAPS (2,049) taps: at least half of each
// transform is output (fft_geometry.hpp); longer masks take fft_overlap_save.
#include <climits>
#include <string>

#include "families/convolution/common.cuh"
#include "families/convolution/cuda_rungs.hpp"
#include "families/convolution/fft_fused_math.hpp"
#include "tessera/core/error.hpp"

namespace tessera::convolution_impl {

namespace {

using namespace fused;

// The block's shared state: the exchange buffer and the twiddle tables
// (38 KB + 3.2 KB, static: under the 48 KB default; 4 blocks an SM).
struct SharedFft {
  float re[EXCHANGE];
  float im[EXCHANGE];
  Cx table[TABLE_ENTRIES];
};

// The mask kernel computes the twiddle table (sincospif) and leaves a copy
// in the workspace; the convolution's blocks copy it (3.2 KB from L2)
// instead of recomputing it, which would cost each thread ~2 sincospif.
__device__ inline void compute_tables(SharedFft& sh, Cx* __restrict__ global_copy) {
  for (int i = int(threadIdx.x); i < TABLE_ENTRIES; i += THREADS) global_copy[i] = sh.table[i] = table_entry(i);
}
__device__ inline void copy_tables(SharedFft& sh, const Cx* __restrict__ global_copy) {
  for (int i = int(threadIdx.x); i < TABLE_ENTRIES; i += THREADS) sh.table[i] = global_copy[i];
}

// The forward transform of the block's v (thread t holds x[256 a + t] in
// v[a]); ends with v[k2] = X[t + 256 k2]. Every thread calls it (barriers).
__device__ inline void forward_fft(Cx v[16], SharedFft& sh) {
  const int t = int(threadIdx.x);
  const Exchange ex{sh.re, sh.im};
  const Twiddles tw{sh.table};
  __syncthreads();  // tables written (and the exchange free)
  forward_stage1(v, t, tw);
  store_a_by_bc(ex, v, t);
  __syncthreads();
  load_a_by_k0c(v, ex, t);
  __syncthreads();  // every read of A done before B overwrites it
  forward_stage2(v, t, tw);
  store_b_by_k0c(ex, v, t);
  __syncthreads();
  load_b_by_k0k1(v, ex, t);
  forward_stage3(v);
}

// The inverse of forward_fft's layout (unnormalised): v[k2] = Y[t + 256 k2]
// in, v[a] = N y[256 a + t] out.
__device__ inline void inverse_fft(Cx v[16], SharedFft& sh) {
  const int t = int(threadIdx.x);
  const Exchange ex{sh.re, sh.im};
  const Twiddles tw{sh.table};
  inverse_stage1(v, t, tw);
  __syncthreads();  // the forward transform's last reads of B done
  store_b_by_k0k1(ex, v, t);
  __syncthreads();
  load_b_by_k0c(v, ex, t);
  __syncthreads();
  inverse_stage2(v, t, tw);
  store_a_by_k0c(ex, v, t);
  __syncthreads();
  load_a_by_bc(v, ex, t);
  inverse_stage3(v);
}

// The spectrum of the reversed mask (P[i] = sum_j M[j] N[i - r + j] is a
// correlation; the FFT convolves), zero-padded to N, scaled by 1 / N (the
// inverse transform's normalisation, exact: a power of two). One block.
// Also writes the twiddle table after the spectrum (workspace_of).
__global__ void __launch_bounds__(THREADS) conv_fft_fused_mask_kernel(const float* __restrict__ mask, int taps,
                                                                      Cx* __restrict__ spectrum) {
  __shared__ SharedFft sh;
  const int t = int(threadIdx.x);
  compute_tables(sh, spectrum + N);
  Cx v[16];
  load_reversed_mask(v, mask, taps, t);
  forward_fft(v, sh);
  constexpr float SCALE = 1.0f / float(N);
#pragma unroll
  for (int k2 = 0; k2 < 16; ++k2) spectrum[t + 256 * k2] = {v[k2].re * SCALE, v[k2].im * SCALE};
}

// Block g: segments 2 g (real part) and 2 g + 1 (imaginary part).
__global__ void __launch_bounds__(THREADS) conv_fft_fused_kernel(const float* __restrict__ in, std::int64_t n,
                                                                 int overlap, std::int64_t valid,
                                                                 const Cx* __restrict__ spectrum,
                                                                 float* __restrict__ out) {
  __shared__ SharedFft sh;
  const int t = int(threadIdx.x);
  const std::int64_t g = blockIdx.x;
  copy_tables(sh, spectrum + N);
  Cx v[16];
  load_segments(v, in, n, g, valid, overlap, t);
  forward_fft(v, sh);
  multiply_spectrum(v, spectrum, t);
  inverse_fft(v, sh);
  store_segments(out, v, n, g, valid, overlap, t);
}

}  // namespace

bool supports_fft_fused(const ConvSpec& s) {
  return s.one_d() && s.mask_w <= FUSED_MAX_TAPS && fused_blocking_of(s).blocks <= std::size_t(INT_MAX);
}

// The mask's spectrum (N bins) and the twiddle table.
std::size_t ws_fft_fused(const ConvSpec&) { return std::size_t(N + TABLE_ENTRIES) * sizeof(Cx); }

void run_fft_fused(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  require(supports_fft_fused(s), "fft_fused: mask_width = " + std::to_string(s.mask_w) + " is over " +
                                     std::to_string(FUSED_MAX_TAPS) + " taps (or not 1D)");
  const FusedBlocking f = fused_blocking_of(s);
  auto* spectrum = static_cast<Cx*>(call.workspace);
  detail::launch("conv_fft_fused_mask_kernel", conv_fft_fused_mask_kernel, dim3(1), dim3(THREADS), 0, call.stream,
                 s.mask_w, call.mask, int(s.mask_w), spectrum);
  detail::launch("conv_fft_fused_kernel", conv_fft_fused_kernel, dim3(unsigned(f.blocks)), dim3(THREADS), 0,
                 call.stream, s.width, call.in, std::int64_t(s.width), int(s.mask_w - 1), std::int64_t(f.valid),
                 static_cast<const Cx*>(spectrum), call.out);
}

}  // namespace tessera::convolution_impl
