// The multi-pass reduction driver (reduce's steps 2-9 run on it), plus the
// small pieces every multi-kernel variant shares: workspace alignment, the
// identity for n = 0, the finish kernel and the reducer dispatch. Generic:
// a Spec is anything with dtype, op and accum (and n); a Call anything with
// spec, in, out, workspace and stream.
//
// Multi-pass: pass 1 reads the in_t input and writes one acc_t partial per
// block into the workspace; each further pass reduces the acc_t partials with
// the same rung kernel (instantiated for partials_reducer_t<R>) until a
// single block remains; a 1-thread kernel then writes R::finish(total) as
// out_t to call.out. Everything is enqueued on call.stream: no allocation, no
// host synchronisation, so a run can be captured in a CUDA graph.
//
// Workspace layout (each sub-buffer starts on a 256-byte boundary):
//   [ A: blocks_for(n) acc_t ][ B: blocks_for(blocks_for(n)) acc_t ]
// passes ping-pong A -> B -> A ...; every later pass has fewer blocks than
// the pass that wrote its input, so A and B are always large enough.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/blocks/reducers.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/error.hpp"

namespace tessera::gpu {

// ---- workspace -----------------------------------------------------------

constexpr std::size_t WORKSPACE_ALIGN = 256;  // cudaMalloc's alignment: keeps every sub-buffer vector-aligned

constexpr std::size_t align_workspace(std::size_t bytes) {
  return (bytes + WORKSPACE_ALIGN - 1) / WORKSPACE_ALIGN * WORKSPACE_ALIGN;
}

// Byte offset `offset` into the workspace, as T*.
template <class T>
T* workspace_at(void* workspace, std::size_t offset) {
  return reinterpret_cast<T*>(static_cast<unsigned char*>(workspace) + offset);
}

// Largest grid.x a launch may use.
constexpr std::size_t MAX_GRID_X = static_cast<std::size_t>(INT_MAX);

inline unsigned checked_grid(std::size_t blocks, const char* kernel, std::size_t n) {
  if (blocks < 1 || blocks > MAX_GRID_X)
    throw Error(std::string("tessera: ") + kernel + " needs " + std::to_string(blocks) + " blocks for n = " +
                std::to_string(n) + " (grid.x limit " + std::to_string(MAX_GRID_X) + ")");
  return static_cast<unsigned>(blocks);
}

// ---- partial passes ------------------------------------------------------

// Reduces acc_t partials: every element is already a state, so lifting is
// the identity and folding is combine.
template <class R>
struct PartialsOf {
  using in_t = typename R::acc_t;
  using acc_t = typename R::acc_t;
  using out_t = typename R::out_t;
  static TESSERA_HD acc_t identity() { return R::identity(); }
  static TESSERA_HD acc_t lift(in_t x) { return x; }
  static TESSERA_HD void add(acc_t& a, in_t x) { a = R::combine(a, x); }
  static TESSERA_HD acc_t combine(acc_t a, acc_t b) { return R::combine(a, b); }
  static TESSERA_HD out_t finish(acc_t a) { return R::finish(a); }
};

// When in_t == acc_t (plain sums in the input type, min, max) the reducer
// already folds states with add == combine: reuse its instantiation rather
// than compiling the rung kernel a second time.
template <class R>
using partials_reducer_t = std::conditional_t<std::is_same_v<typename R::in_t, typename R::acc_t>, R, PartialsOf<R>>;

// ---- small kernels -------------------------------------------------------

// Stores one value (the identity for n = 0, the start value of an atomic
// accumulation). One thread.
template <class T>
__global__ void reduce_store_value_kernel(T* __restrict__ dst, T value) {
  *dst = value;
}

// Writes R::finish(*acc) to out. One thread.
template <class R>
__global__ void reduce_finish_kernel(const typename R::acc_t* __restrict__ acc, typename R::out_t* __restrict__ out) {
  *out = R::finish(*acc);
}

template <class T>
void store_value(T* dst, T value, cudaStream_t stream, std::size_t n) {
  detail::launch("reduce_store_value_kernel", reduce_store_value_kernel<T>, dim3(1), dim3(1), 0, stream, n, dst,
                 value);
}

// n = 0: the result is R::finish(R::identity()).
template <class R>
void write_identity(void* out, cudaStream_t stream) {
  using out_t = typename R::out_t;
  store_value<out_t>(static_cast<out_t*>(out), R::finish(R::identity()), stream, 0);
}

template <class R>
void launch_finish(const typename R::acc_t* acc, void* out, cudaStream_t stream, std::size_t n) {
  detail::launch("reduce_finish_kernel", reduce_finish_kernel<R>, dim3(1), dim3(1), 0, stream, n, acc,
                 static_cast<typename R::out_t*>(out));
}

// ---- reducer dispatch ----------------------------------------------------

// Whether dispatch_reducer has a reducer for (dtype, op, accum).
struct IgnoreReducer {
  template <class R> void operator()() const {}
};
template <class Spec>
bool reducer_exists(const Spec& spec) {
  return dispatch_reducer(spec.dtype, spec.op, spec.accum, IgnoreReducer{});
}

template <class Spec>
[[noreturn]] void throw_unsupported(const char* variant, const Spec& spec) {
  throw Error(std::string("variant '") + variant + "' does not support dtype " +
              std::string(to_string(spec.dtype)) + ", op " + std::string(to_string(spec.op)) + ", accum " +
              std::string(to_string(spec.accum)));
}

// f.template operator()<R>() for the spec's reducer, or Error.
template <class Spec, class F>
void dispatch_or_throw(const char* variant, const Spec& spec, F&& f) {
  if (!dispatch_reducer(spec.dtype, spec.op, spec.accum, std::forward<F>(f))) throw_unsupported(variant, spec);
}

// sizeof(acc_t) of the spec's reducer; 0 when there is none.
template <class Spec>
std::size_t acc_bytes(const Spec& spec) {
  std::size_t bytes = 0;
  dispatch_reducer(spec.dtype, spec.op, spec.accum, [&]<class R>() { bytes = sizeof(typename R::acc_t); });
  return bytes;
}

// ---- the driver ----------------------------------------------------------

// A Rung is an object with
//   std::size_t blocks_for(std::size_t items) const;
//     grid for one pass over `items` elements: >= 1, and < items when
//     items > 1 (so the chain of passes shrinks to one block);
//   template <class RR> void launch(const typename RR::in_t* in, std::size_t items,
//                                   typename RR::acc_t* partials, unsigned blocks,
//                                   cudaStream_t stream) const;
//     one pass: block b writes the reduction of its share to partials[b].
template <class Rung>
std::size_t multipass_workspace_bytes(const Rung& rung, std::size_t n, std::size_t acc_bytes) {
  if (n == 0) return 0;
  const std::size_t g1 = rung.blocks_for(n);
  const std::size_t g2 = g1 > 1 ? rung.blocks_for(g1) : 0;
  return align_workspace(g1 * acc_bytes) + align_workspace(g2 * acc_bytes);
}

template <class R, class Rung, class Call>
void run_multipass(const Rung& rung, const Call& call) {
  using acc_t = typename R::acc_t;
  using P = partials_reducer_t<R>;
  const std::size_t n = call.spec.n;
  cudaStream_t stream = call.stream;
  if (n == 0) {
    write_identity<R>(call.out, stream);
    return;
  }
  std::size_t blocks = rung.blocks_for(n);
  acc_t* src = workspace_at<acc_t>(call.workspace, 0);
  acc_t* dst = workspace_at<acc_t>(call.workspace, align_workspace(blocks * sizeof(acc_t)));
  rung.template launch<R>(static_cast<const typename R::in_t*>(call.in), n, src,
                          checked_grid(blocks, "reduce pass 1", n), stream);
  while (blocks > 1) {
    const std::size_t next = rung.blocks_for(blocks);
    rung.template launch<P>(src, blocks, dst, checked_grid(next, "reduce partials pass", blocks), stream);
    std::swap(src, dst);
    blocks = next;
  }
  launch_finish<R>(src, call.out, stream, n);
}

// run_X / ws_X of a multi-pass rung: dispatch on the spec's reducer.
template <class Rung, class Call>
void run_multipass_rung(const char* variant, const Rung& rung, const Call& call) {
  dispatch_or_throw(variant, call.spec, [&]<class R>() { run_multipass<R>(rung, call); });
}

template <class Rung, class Spec>
std::size_t multipass_rung_workspace(const Rung& rung, const Spec& spec) {
  const std::size_t bytes = acc_bytes(spec);
  return bytes == 0 ? 0 : multipass_workspace_bytes(rung, spec.n, bytes);
}

}  // namespace tessera::gpu
