// Building blocks shared by the CUDA histogram rungs (steps 2-7) and the CUB
// baseline:
//   - rule_t<T> / rule_of<T>(spec): the bin rule of an input type
//     (bins.hpp), passed to kernels by value;
//   - with_input_type(spec, f): the uint8 / float dispatch of a run;
//   - 16-byte vector loads and for_each_bin over one vector (16 bytes or 4
//     floats, in memory order);
//   - sweep_vec16: the persistent-grid sweep of steps 6 and 7 (scalar head up
//     to a 128-byte boundary, tiles of BLOCK x UNROLL vectors grid-strided
//     over blocks with the next tile's loads in flight while the current one
//     is counted, leftover vectors, scalar tail);
//   - shared-memory copies: zeroing and the merge into the global counts;
//   - the host side of every run: zero the counts, write out_of_range, size
//     a persistent grid.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "families/histogram/bins.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/vector_load.cuh"
#include "families/histogram/contract.hpp"
#include "tessera/core/error.hpp"

namespace tessera::histogram_impl {

// ---- bin rules -----------------------------------------------------------

template <class T>
using rule_t = std::conditional_t<std::is_same_v<T, std::uint8_t>, ByteBins, EvenBins>;

template <class T>
rule_t<T> rule_of(const HistogramSpec& s) {
  if constexpr (std::is_same_v<T, std::uint8_t>) return ByteBins{};
  else return EvenBins::make(s.bins, s.lo, s.hi);
}

// f.template operator()<T>() for the spec's input type (uint8 or float).
template <class F>
void with_input_type(const char* variant, const HistogramSpec& s, F&& f) {
  if (s.dtype == Dtype::u8) f.template operator()<std::uint8_t>();
  else if (s.dtype == Dtype::f32) f.template operator()<float>();
  else throw Error(std::string("histogram variant '") + variant + "' does not support " + std::string(to_string(s.dtype)));
}

inline bool input_type_supported(const HistogramSpec& s) { return s.dtype == Dtype::u8 || s.dtype == Dtype::f32; }

// Shared memory a histogram kernel may ask for per block: fits sm_90 (227 KB)
// and sm_80 (163 KB); a rung whose copies need more declines the problem.
constexpr std::size_t SMEM_LIMIT = std::size_t(160) << 10;

// ---- 16-byte vectors -----------------------------------------------------

template <class T> struct Vec16Of;
template <> struct Vec16Of<std::uint8_t> { using type = uint4; static constexpr int N = 16; };
template <> struct Vec16Of<float> { using type = float4; static constexpr int N = 4; };

// p must be 16-byte aligned.
template <class T>
__device__ __forceinline__ typename Vec16Of<T>::type load_vec16(const T* p) {
  return *reinterpret_cast<const typename Vec16Of<T>::type*>(p);
}

// f(bin) for each of the 16 bytes, in memory order (little-endian words).
template <class F>
__device__ __forceinline__ void for_each_bin(const uint4& v, const ByteBins&, F&& f) {
  const unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int k = 0; k < 4; ++k) f(static_cast<int>((w[i] >> (8 * k)) & 0xFFu));
}

// f(bin) for each of the 4 floats (bin -1: out of range or NaN).
template <class F>
__device__ __forceinline__ void for_each_bin(const float4& v, const EvenBins& r, F&& f) {
  f(r.bin(v.x));
  f(r.bin(v.y));
  f(r.bin(v.z));
  f(r.bin(v.w));
}

// ---- the persistent vector sweep -------------------------------------------

// The body starts on a 128-byte line, so a warp's 512-byte vector load covers
// whole lines; the scalar head has fewer than 128 / sizeof(T) elements.
constexpr std::size_t BODY_ALIGN = 128;

// Every element of [0, n) is counted by exactly one thread, once: whole
// 16-byte vectors through on_vec(vector), scalar elements through
// on_bin(bin) (bin -1 for dropped floats); count_vec16(rule, on_bin) makes an
// on_vec that feeds each element to on_bin. Block b takes tiles b, b + grid, ... of
// BLOCK * UNROLL vectors; thread t counts vectors t, t + BLOCK, ... of a tile
// (coalesced), and loads the next tile before counting the current one.
//
// before_tile() runs before every tile and once more before the remainder
// (head, leftover vectors, tail), the same number of times in every thread of
// a block: it may hold a __syncthreads(). Between two calls a thread counts at
// most UNROLL * VEC + 2 elements (a tile; or the remainder: at most UNROLL
// vectors, one head and one tail element, given BLOCK >= 128).
template <class T, int BLOCK, int UNROLL, class Rule, class BeforeTile, class OnVec, class OnBin>
__device__ __forceinline__ void sweep_vec16(const T* __restrict__ in, std::size_t n, const Rule& rule,
                                            BeforeTile&& before_tile, OnVec&& on_vec, OnBin&& on_bin) {
  static_assert(BLOCK >= 128 && BLOCK % 32 == 0, "BLOCK: whole warps, >= 128 (one head element per thread)");
  using V = typename Vec16Of<T>::type;
  constexpr int VEC = Vec16Of<T>::N;
  constexpr std::size_t TILE = static_cast<std::size_t>(BLOCK) * UNROLL;  // vectors

  const unsigned tid = threadIdx.x;
  const std::size_t gthread = static_cast<std::size_t>(blockIdx.x) * BLOCK + tid;
  const std::size_t nthreads = static_cast<std::size_t>(gridDim.x) * BLOCK;
  const gpu::VecSplit split = gpu::split_for_vec16<BODY_ALIGN>(in, n);
  const T* __restrict__ body = in + split.head;
  const std::size_t full_tiles = split.vectors / TILE;

  auto load_tile = [&](V (&dst)[UNROLL], std::size_t tile) {
    const T* p = body + (tile * TILE + tid) * VEC;
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) dst[k] = load_vec16(p + static_cast<std::size_t>(k) * BLOCK * VEC);
  };

  V cur[UNROLL], next[UNROLL] = {};
  std::size_t tile = blockIdx.x;
  if (tile < full_tiles) load_tile(cur, tile);
  for (; tile < full_tiles; tile += gridDim.x) {
    if (tile + gridDim.x < full_tiles) load_tile(next, tile + gridDim.x);
    before_tile();
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) on_vec(cur[k]);
#pragma unroll
    for (int k = 0; k < UNROLL; ++k) cur[k] = next[k];
  }

  before_tile();
  for (std::size_t i = gthread; i < split.head; i += nthreads) on_bin(rule.bin(in[i]));
  for (std::size_t v = full_tiles * TILE + gthread; v < split.vectors; v += nthreads)
    on_vec(load_vec16(body + v * VEC));
  for (std::size_t i = split.tail + gthread; i < n; i += nthreads) on_bin(rule.bin(in[i]));
}

// The on_vec of sweep_vec16 that passes every element of a vector to on_bin.
template <class Rule, class OnBin>
__device__ __forceinline__ auto count_vec16(const Rule& rule, OnBin& on_bin) {
  return [&rule, &on_bin](const auto& v) { for_each_bin(v, rule, on_bin); };
}

// ---- shared-memory copies --------------------------------------------------

// The kernel's dynamic shared memory as uint32 counters.
__device__ __forceinline__ std::uint32_t* smem_counters() {
  extern __shared__ __align__(16) std::uint32_t hist_smem[];
  return hist_smem;
}

// Zeroes words [0, words) of s; every thread of the block; ends with a barrier.
__device__ __forceinline__ void zero_smem(std::uint32_t* s, std::size_t words) {
  for (std::size_t i = threadIdx.x; i < words; i += blockDim.x) s[i] = 0u;
  __syncthreads();
}

// Adds `copies` shared-memory histograms (copy c starts at s + c * stride)
// into the global counts: one atomic per non-zero bin per block. Every thread
// of the block, after the barrier that ends the counting.
__device__ __forceinline__ void merge_copies_to_global(const std::uint32_t* s, int copies, int stride, int bins,
                                                       std::uint32_t* __restrict__ counts) {
  for (int b = threadIdx.x; b < bins; b += blockDim.x) {
    std::uint32_t sum = 0;
    for (int c = 0; c < copies; ++c) sum += s[c * stride + b];
    if (sum != 0) atomicAdd(counts + b, sum);
  }
}

// ---- host side of a run ----------------------------------------------------

// First thing of every CUDA run: counts[0, bins) = 0 (the kernels add into
// them with atomics).
void zero_counts(const HistogramCall& call);

// Last thing of every CUDA run: *out_of_range = 0 for bytes; for floats
// n - (sum of the counts), by one single-block kernel (counts are exact and
// n < 2^32, so the difference is the number of dropped values).
void write_out_of_range(const HistogramCall& call);

// Grid of a persistent kernel: every resident block (SMs x blocks per SM at
// this block size and shared memory), but no more than `useful` blocks.
unsigned persistent_grid(const void* kernel, int block_threads, std::size_t smem_bytes, std::size_t useful,
                         const char* name);

// Checked launch of a histogram kernel (detail::launch with the problem size).
template <class... KernelArgs, class... Args>
void launch_kernel(const char* name, void (*kernel)(KernelArgs...), unsigned grid, int block, std::size_t smem,
                   const HistogramCall& call, Args&&... args) {
  detail::launch(name, kernel, dim3(grid), dim3(static_cast<unsigned>(block)), smem, call.stream, call.spec.n,
                 std::forward<Args>(args)...);
}

}  // namespace tessera::histogram_impl
