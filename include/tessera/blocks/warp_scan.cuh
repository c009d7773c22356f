// Warp-level scans for any associative operator: the register-shuffle
// building blocks of the scan ladder (step 6 on), of tessera's look-back scan
// and of every pattern built on scans (compaction, select, run-length encode).
//
// The scan-functor contract ("ScanFn"), shared by warp_scan.cuh,
// block_scan.cuh and lookback.cuh:
//
//   struct F {
//     using acc_t = ...;                                 // the state carried along the
//                                                        // array; trivially copyable
//     __device__ acc_t identity() const;                 // combine(identity(), a) == a
//     __device__ acc_t combine(acc_t left, acc_t right) const;
//   };
//
// combine must be associative; it need not be commutative: `left` always
// covers earlier elements than `right`, and every function below keeps that
// order, so matrix products or the composition of affine maps scan correctly.
// (The pattern's own functors, src/common/scan_ops.hpp, and the public
// include/tessera/scan.cuh add in_t/out_t, lift() and output() for the tile
// kernels; the building blocks here need only the two members above.)
//
// Conventions: one-dimensional blocks of whole warps (lane = threadIdx.x % 32);
// every lane of the warp calls (full mask). States of any size are shuffled as
// 32-bit words, so a 16-byte 2x2 matrix costs four shuffles per step.
//
// Self-contained on purpose (CUDA headers only, relative includes): the public
// header include/tessera/scan.cuh builds on it outside the library's build.
#pragma once

#include <cstring>
#include <type_traits>

namespace tessera::gpu {

namespace scan_detail {

constexpr unsigned FULL_MASK = 0xffffffffu;
constexpr unsigned WARP_THREADS = 32;

// Applies `shfl` (a 32-bit shuffle) to every 32-bit word of `v`.
template <class T, class Shfl>
__device__ __forceinline__ T shuffle_words(const T& v, Shfl shfl) {
  static_assert(std::is_trivially_copyable_v<T>, "scan states are shuffled as raw words");
  constexpr int WORDS = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned w[WORDS] = {};
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < WORDS; ++i) w[i] = shfl(w[i]);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

}  // namespace scan_detail

__device__ __forceinline__ unsigned lane_index() { return threadIdx.x % scan_detail::WARP_THREADS; }

// ---- shuffles of any trivially copyable state ------------------------------

template <class T>
__device__ __forceinline__ T shfl_up_any(const T& v, unsigned delta) {
  return scan_detail::shuffle_words(v, [delta](unsigned w) { return __shfl_up_sync(scan_detail::FULL_MASK, w, delta); });
}

template <class T>
__device__ __forceinline__ T shfl_xor_any(const T& v, unsigned mask) {
  return scan_detail::shuffle_words(v, [mask](unsigned w) { return __shfl_xor_sync(scan_detail::FULL_MASK, w, mask); });
}

// The value of lane `src` (same for every lane or not: any source lane).
template <class T>
__device__ __forceinline__ T shfl_idx_any(const T& v, int src) {
  return scan_detail::shuffle_words(v, [src](unsigned w) { return __shfl_sync(scan_detail::FULL_MASK, w, src); });
}

// ---- scans and reductions in lane order ----------------------------------

// warp_inclusive_scan for the first LANES lanes only (a block's warp totals:
// LANES = its warps): the steps of distance >= LANES are skipped. Lanes below
// LANES never combine in those steps (lane l combines at distance d only if
// l >= d), so they end bitwise as in warp_inclusive_scan; the other lanes end
// with partial values the caller must not use.
template <int LANES, class F>
__device__ __forceinline__ typename F::acc_t warp_inclusive_scan_first(typename F::acc_t v, const F& f) {
  static_assert(LANES >= 1 && LANES <= static_cast<int>(scan_detail::WARP_THREADS), "1 to 32 lanes");
  const unsigned lane = lane_index();
#pragma unroll
  for (unsigned d = 1; d < static_cast<unsigned>(LANES); d <<= 1) {
    const typename F::acc_t up = shfl_up_any(v, d);
    if (lane >= d) v = f.combine(up, v);
  }
  return v;
}

// Inclusive scan over the 32 lanes (Kogge-Stone with __shfl_up_sync: five
// steps, lane l ends with combine(v_0, ..., v_l)).
template <class F>
__device__ __forceinline__ typename F::acc_t warp_inclusive_scan(typename F::acc_t v, const F& f) {
  return warp_inclusive_scan_first<scan_detail::WARP_THREADS>(v, f);
}

// The exclusive scan that goes with an inclusive one: lane l gets lane l-1's
// inclusive value, lane 0 the identity.
template <class F>
__device__ __forceinline__ typename F::acc_t warp_exclusive_from_inclusive(typename F::acc_t inclusive, const F& f) {
  const typename F::acc_t up = shfl_up_any(inclusive, 1);
  return lane_index() == 0 ? f.identity() : up;
}

// combine(v_0, ..., v_31) in lane order, returned to every lane: a butterfly
// in which lane l and its partner l ^ m both compute combine(lower half, upper
// half) from the same operands, so all lanes hold bitwise the same total.
template <class F>
__device__ __forceinline__ typename F::acc_t warp_reduce_in_order(typename F::acc_t v, const F& f) {
  const unsigned lane = lane_index();
#pragma unroll
  for (unsigned m = 1; m < scan_detail::WARP_THREADS; m <<= 1) {
    const typename F::acc_t other = shfl_xor_any(v, m);
    v = (lane & m) ? f.combine(other, v) : f.combine(v, other);
  }
  return v;
}

}  // namespace tessera::gpu
