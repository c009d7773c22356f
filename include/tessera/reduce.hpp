// tessera::reduce — sum, min or max of a device array.
//
//   float s = tessera::reduce(d_x, n);                                   // sum, best variant
//   auto  m = tessera::reduce(d_x, n, {.op = tessera::Op::max});
//   auto  k = tessera::reduce(d_x, n, {.accum = tessera::Accum::dfloat});
//   tessera::reduce_into(d_x, n, d_result, {.stream = s});               // async, result on device
//   tessera::reduce(d_x, n, {.variant = "warp_shuffle_down"});           // any ladder rung by name
//
// Types: float, double, int32, int64. Integer results are int64 (sums of
// int32 are exact; int64 sums wrap modulo 2^64). Float sums may accumulate in
// float (native), double, Kahan-compensated float or double-float; the result
// is rounded once to float. Kahan is the classic compensated sum (one
// compensation term per accumulator, combined with two-sum across threads).
// min/max propagate NaN. n = 0 gives the identity: 0 for sum; for min the
// input type's largest value (+inf for floats, INT32_MAX or INT64_MAX), for
// max its lowest (-inf, INT32_MIN or INT64_MIN).
// GPU variants (every variant without the cpu_ prefix) take device or managed
// pointers; the cpu_ variants, reachable by name, take host pointers.
// Scratch memory is allocated stream-ordered and freed before the call
// returns, unless options.workspace holds reduce_workspace_bytes<T>(n,
// options) bytes: then the call allocates nothing.
// Errors (null pointer with n > 0, a host pointer, an unsupported type/op/accum
// combination, an unknown variant, a failed allocation, a workspace too small)
// throw tessera::Error before anything is written to the output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

template <class T>
using reduce_result_t = std::conditional_t<std::is_integral_v<T>, std::int64_t, T>;

struct ReduceOptions {
  Op op = Op::sum;
  Accum accum = Accum::native;  // float sums: native, f64, kahan or dfloat
  std::string variant = {};     // empty: the variant the policy picks for this size and type
  stream_t stream = nullptr;
  Workspace workspace = {};     // optional scratch of reduce_workspace_bytes<T>(n, options) bytes
};

// Synchronous: returns the result on the host (synchronises `options.stream`).
template <class T>
reduce_result_t<T> reduce(const T* d_in, std::size_t n, const ReduceOptions& options = {});

// Asynchronous: writes one reduce_result_t<T> to `d_out` (device memory for
// GPU variants), ordered on `options.stream`.
template <class T>
void reduce_into(const T* d_in, std::size_t n, reduce_result_t<T>* d_out, const ReduceOptions& options = {});

// Scratch bytes that reduce and reduce_into need for n elements with these
// options (the variant they pick or name): a workspace this large makes
// either call allocate nothing. Throws for what the calls reject (unknown
// variant, unsupported combination).
template <class T>
std::size_t reduce_workspace_bytes(std::size_t n, const ReduceOptions& options = {});

// The name of the variant the public API picks for these arguments.
std::string reduce_default_variant(Dtype type, Op op, Accum accum, std::size_t n);

}  // namespace tessera
