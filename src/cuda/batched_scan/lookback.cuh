// Decoupled look-back along one row (Merrill & Garland, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back", 2016), per row of a batch: the
// building block of the long-row rung.
//
// Each tile of a row publishes, as soon as it knows them, its aggregate
// (status AGGREGATE) and then its inclusive prefix (status INCLUSIVE); a
// tile's carry is found by one warp that examines 32 predecessors at a time
// (lane i: the (i+1)-th nearest), spinning on those not yet published, and
// stops at the nearest one with an inclusive prefix. Predecessors always
// started earlier (tile indices come from an atomic counter in launch order),
// so the spin ends: the scheme is deadlock-free on any number of resident
// blocks.
//
// Publication: the value is stored with a plain store, then the status word
// with st.release.gpu; readers load the status with ld.acquire.gpu and then
// the value through L2 (ld.global.cg), so they never see a stale L1 line.
// Status words are zeroed by the host (cudaMemsetAsync) before every launch.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/reducers.hpp"
#include "cuda/common/warp_reduce.cuh"

namespace tessera::batched_scan_impl::gpu_detail {

constexpr unsigned STATUS_EMPTY = 0;
constexpr unsigned STATUS_AGGREGATE = 1;
constexpr unsigned STATUS_INCLUSIVE = 2;

__device__ __forceinline__ unsigned load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Spins until *status != STATUS_EMPTY; returns the status.
__device__ __forceinline__ unsigned wait_status(const unsigned* status) {
  unsigned s = load_acquire(status);
  while (s == STATUS_EMPTY) {
    __nanosleep(32);  // back off: the L2 slice serves every spinning warp
    s = load_acquire(status);
  }
  return s;
}

// Spins until *status == want.
__device__ __forceinline__ void wait_status_is(const unsigned* status, unsigned want) {
  while (load_acquire(status) != want) __nanosleep(32);
}

// Accumulator loads through L2 (after an acquire on its status word).
template <class T>
__device__ __forceinline__ T load_cg(const T* p) {
  if constexpr (std::is_same_v<T, KahanState> || std::is_same_v<T, DFloatState>) {
    static_assert(sizeof(T) == sizeof(float2) && alignof(T) <= alignof(float2));
    const float2 v = __ldcg(reinterpret_cast<const float2*>(p));  // workspace arrays are 256-byte aligned
    return T{v.x, v.y};
  } else {
    return __ldcg(p);  // float, double
  }
}

// The sum of the tiles before tile k (step = -1: tiles k-1, k-2, ...; the
// forward direction) or after it (step = +1: k+1, ..., the backward
// direction) of a row of T tiles. Called by all 32 lanes of one warp; every
// lane returns the same value. probe(p, inclusive, value) fills tile p's
// published value, spinning until there is one; `inclusive` says whether it
// already covers everything from p to the row's end in this direction.
template <class R, class Probe>
__device__ __forceinline__ typename R::acc_t lookback(long long k, long long T, int step, Probe&& probe) {
  using acc_t = typename R::acc_t;
  const int lane = static_cast<int>(threadIdx.x % gpu::WARP_SIZE);
  acc_t carry = R::identity();
  long long nearest = k + step;
  while (true) {
    const long long p = nearest + static_cast<long long>(step) * lane;
    bool inclusive = true;  // past the row's end: an inclusive identity stops the walk
    acc_t value = R::identity();
    if (p >= 0 && p < T) probe(p, inclusive, value);
    const unsigned found = __ballot_sync(gpu::FULL_WARP_MASK, inclusive);
    const int stop = found != 0 ? __ffs(static_cast<int>(found)) - 1 : gpu::WARP_SIZE - 1;
    // Lanes 0..stop cover consecutive tiles ending at the nearest inclusive.
    const acc_t window = gpu::warp_reduce_xor<R>(lane <= stop ? value : R::identity());
    carry = R::combine(window, carry);
    if (found != 0) break;
    nearest += static_cast<long long>(step) * gpu::WARP_SIZE;
  }
  return carry;
}

}  // namespace tessera::batched_scan_impl::gpu_detail
