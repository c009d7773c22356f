// Step 5 — early exit (seed 004 "Implantation en shared memory": idle threads
// `return`, one barrier per level, one atomicAdd per block).
//
// What it changes over step 4: a thread leaves as soon as it has nothing left
// to do (tid >= stride) instead of running through the remaining barriers
// idle, so the later levels schedule only the warps that still work. The
// block total is then combined in one of two ways:
//   early_exit_atomic    thread 0 folds it into a single accumulator with one
//                        atomic per block (float: atomicAdd(float*); double
//                        accumulation: atomicAdd(double*) into the workspace;
//                        integer sums: atomicAdd on unsigned long long; integer
//                        min/max: atomicMin/atomicMax; float min/max: a CAS
//                        loop applying MinOp/MaxOp, NaN-propagating). The
//                        accumulator starts at the identity, written by a
//                        kernel in the same stream. One kernel pass, but float
//                        sums depend on the order the atomics land in: not
//                        deterministic. Kahan and double-float states cannot
//                        be updated by one atomic: unsupported.
//   early_exit_two_pass  the block total goes to the workspace and further
//                        passes reduce the partials (multipass.cuh):
//                        deterministic.
//
// Bottleneck: still one element loaded per thread (half the threads idle
// after the first level, one load in flight each); the atomic version also
// serialises one atomic per block on a single address (for 2^28 floats,
// 2^20 atomics). Expected: two_pass ~40% of copy bandwidth, atomic well
// below (the atomics serialise in L2); measured two_pass 1.26 TB/s, atomic
// 0.52 TB/s (H100, 2^28 floats; a device-to-device copy moves ~3.0 TB/s).
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "tessera/blocks/block_reduce.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/reduce/cuda_rungs.hpp"

namespace tessera::reduce_impl {

namespace {

constexpr unsigned BLOCK_THREADS = 256;  // same block as step 4: only the tree's exit changes

// ---- one atomic per block --------------------------------------------------

// Applies R::combine to a float/double in memory with compare-and-swap on its
// bits. Stops without writing when the stored value already absorbs v: the
// stored values only move along combine (towards the min/max, or to NaN,
// which then stays), so a value read earlier that absorbs v means the
// current one does too.
template <class R, class T>
__device__ void atomic_combine_cas(T* target, T v) {
  if constexpr (sizeof(T) == 4) {
    auto* addr = reinterpret_cast<unsigned int*>(target);
    unsigned int old = *reinterpret_cast<volatile unsigned int*>(addr);
    while (true) {
      const unsigned int next = __float_as_uint(R::combine(__uint_as_float(old), v));
      if (next == old) return;
      const unsigned int seen = atomicCAS(addr, old, next);
      if (seen == old) return;
      old = seen;
    }
  } else {
    auto* addr = reinterpret_cast<unsigned long long*>(target);
    unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(addr);
    while (true) {
      const auto next = static_cast<unsigned long long>(__double_as_longlong(
          R::combine(__longlong_as_double(static_cast<long long>(old)), v)));
      if (next == old) return;
      const unsigned long long seen = atomicCAS(addr, old, next);
      if (seen == old) return;
      old = seen;
    }
  }
}

// How one block total is folded atomically into the accumulator, per reducer.
template <class R>
struct AtomicFold {
  static constexpr bool supported = false;  // Kahan, double-float: two-word states
};
template <class T, class A>
struct AtomicFold<PlainSum<T, A>> {
  static constexpr bool supported = true;
  static __device__ void apply(A* target, A v) { atomicAdd(target, v); }  // float or double (sm_60+)
};
template <class T>
struct AtomicFold<IntSum<T>> {
  static constexpr bool supported = true;
  static __device__ void apply(std::uint64_t* target, std::uint64_t v) {
    atomicAdd(reinterpret_cast<unsigned long long*>(target), static_cast<unsigned long long>(v));
  }
};
template <class T>
struct AtomicFold<MinOp<T>> {
  static constexpr bool supported = true;
  static __device__ void apply(T* target, T v) {
    if constexpr (std::is_same_v<T, std::int32_t>) atomicMin(target, v);
    else if constexpr (std::is_same_v<T, std::int64_t>)
      atomicMin(reinterpret_cast<long long*>(target), static_cast<long long>(v));
    else atomic_combine_cas<MinOp<T>>(target, v);
  }
};
template <class T>
struct AtomicFold<MaxOp<T>> {
  static constexpr bool supported = true;
  static __device__ void apply(T* target, T v) {
    if constexpr (std::is_same_v<T, std::int32_t>) atomicMax(target, v);
    else if constexpr (std::is_same_v<T, std::int64_t>)
      atomicMax(reinterpret_cast<long long*>(target), static_cast<long long>(v));
    else atomic_combine_cas<MaxOp<T>>(target, v);
  }
};

// ---- kernels ---------------------------------------------------------------

// One element per thread, then the early-exit tree. Returns false to the
// threads that must leave the kernel now; thread 0 gets true and the total.
template <class R>
__device__ __forceinline__ bool load_and_reduce_early_exit(const typename R::in_t* __restrict__ in, std::size_t n,
                                                           typename R::acc_t& v) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  v = i < n ? R::lift(in[i]) : R::identity();
  return gpu::block_reduce_smem_early_exit<R>(gpu::dynamic_smem<typename R::acc_t>(), v);
}

template <class R>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_early_exit_kernel(const typename R::in_t* __restrict__ in,
                                                                          std::size_t n,
                                                                          typename R::acc_t* __restrict__ partials) {
  typename R::acc_t v;
  if (!load_and_reduce_early_exit<R>(in, n, v)) return;
  partials[blockIdx.x] = v;  // only thread 0 is left
}

template <class R>
__global__ __launch_bounds__(BLOCK_THREADS) void reduce_early_exit_atomic_kernel(
    const typename R::in_t* __restrict__ in, std::size_t n, typename R::acc_t* __restrict__ target) {
  typename R::acc_t v;
  if (!load_and_reduce_early_exit<R>(in, n, v)) return;
  AtomicFold<R>::apply(target, v);  // only thread 0 is left
}

// ---- two-pass variant --------------------------------------------------------

struct EarlyExitRung {
  std::size_t blocks_for(std::size_t items) const { return detail::div_up(items, BLOCK_THREADS); }

  template <class RR>
  void launch(const typename RR::in_t* in, std::size_t items, typename RR::acc_t* partials, unsigned blocks,
              cudaStream_t stream) const {
    detail::launch("reduce_early_exit_kernel", reduce_early_exit_kernel<RR>, dim3(blocks), dim3(BLOCK_THREADS),
                   BLOCK_THREADS * sizeof(typename RR::acc_t), stream, items, in, items, partials);
  }
};

// ---- atomic variant ----------------------------------------------------------

// The accumulator lives in call.out when acc_t is out_t (float and double
// sums in their own type, int64 and float/double min/max) — finish is then
// the identity; otherwise in the workspace, followed by the finish kernel.
template <class R>
constexpr bool accumulates_in_output = std::is_same_v<typename R::acc_t, typename R::out_t>;

template <class R>
void run_atomic(const ReduceCall& call) {
  using acc_t = typename R::acc_t;
  const std::size_t n = call.spec.n;
  cudaStream_t stream = call.stream;
  if (n == 0) {
    gpu::write_identity<R>(call.out, stream);
    return;
  }
  acc_t* target = accumulates_in_output<R> ? static_cast<acc_t*>(call.out) : gpu::workspace_at<acc_t>(call.workspace, 0);
  gpu::store_value<acc_t>(target, R::identity(), stream, n);
  const unsigned blocks = gpu::checked_grid(detail::div_up(n, BLOCK_THREADS), "reduce_early_exit_atomic_kernel", n);
  detail::launch("reduce_early_exit_atomic_kernel", reduce_early_exit_atomic_kernel<R>, dim3(blocks),
                 dim3(BLOCK_THREADS), BLOCK_THREADS * sizeof(acc_t), stream, n, static_cast<const typename R::in_t*>(call.in), n,
                 target);
  if constexpr (!accumulates_in_output<R>) gpu::launch_finish<R>(target, call.out, stream, n);
}

}  // namespace

void run_early_exit_atomic(const ReduceCall& call) {
  gpu::dispatch_or_throw("early_exit_atomic", call.spec, [&]<class R>() {
    if constexpr (AtomicFold<R>::supported) run_atomic<R>(call);
    else gpu::throw_unsupported("early_exit_atomic", call.spec);
  });
}

std::size_t ws_early_exit_atomic(const ReduceSpec& spec) {
  std::size_t bytes = 0;
  if (spec.n == 0) return 0;
  dispatch_reducer(spec.dtype, spec.op, spec.accum, [&]<class R>() {
    if constexpr (AtomicFold<R>::supported && !accumulates_in_output<R>)
      bytes = gpu::align_workspace(sizeof(typename R::acc_t));
  });
  return bytes;
}

bool supports_early_exit_atomic(const ReduceSpec& spec) {
  bool ok = false;
  dispatch_reducer(spec.dtype, spec.op, spec.accum, [&]<class R>() { ok = AtomicFold<R>::supported; });
  return ok;
}

void run_early_exit_two_pass(const ReduceCall& call) {
  gpu::run_multipass_rung("early_exit_two_pass", EarlyExitRung{}, call);
}

std::size_t ws_early_exit_two_pass(const ReduceSpec& spec) {
  return gpu::multipass_rung_workspace(EarlyExitRung{}, spec);
}

bool supports_early_exit_two_pass(const ReduceSpec& spec) { return gpu::reducer_exists(spec); }

}  // namespace tessera::reduce_impl
