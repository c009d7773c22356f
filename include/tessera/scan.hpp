// tessera::inclusive_scan / tessera::exclusive_scan — prefix sums, running
// minima and running maxima of an array.
//
//   tessera::inclusive_scan(d_x, n, d_y);                                  // sum, best variant
//   tessera::exclusive_scan(d_x, n, d_x);                                  // in place
//   tessera::inclusive_scan(d_x, n, d_y, {.op = tessera::Op::max, .stream = s});  // running maximum
//   tessera::inclusive_scan(d_x, n, d_y, {.accum = tessera::Accum::dfloat});
//   tessera::inclusive_scan(d_x, n, d_y, {.variant = "brent_kung_index"});
//
// inclusive: y[i] = x[0] op ... op x[i]; exclusive: y[0] = identity,
// y[i] = x[0] op ... op x[i-1]. Identities: 0 for sums; for min the type's
// largest value (+inf for floats), for max its lowest (-inf for floats).
//
// Types: float, double, int32, int64, uint32; outputs have the input's type.
// Integer sums wrap in that type (modulo 2^32 or 2^64, two's complement).
// Float sums may accumulate in float (native), double, Kahan-compensated
// float or double-float (options.accum, as for tessera::reduce); every output
// is the running state rounded once to float. min/max propagate NaN.
//
// d_out == d_in scans in place; any other overlap of the two arrays is
// rejected. n == 0 does nothing. Any n, including past 2^31. GPU variants
// (every variant without the cpu_ prefix) take device or managed pointers and
// run asynchronously on options.stream (their workspace is allocated and freed
// in stream order, or options.workspace is used when it holds
// scan_workspace_bytes<T>(n, options): then the call allocates nothing); the
// cpu_ variants, reachable by name, take host pointers and run synchronously
// after synchronising the stream.
// Errors (a null pointer with n > 0, overlapping arrays, a host pointer for a
// GPU variant, an unsupported type/op/accum combination, an unknown variant,
// a failed allocation, a workspace too small) throw tessera::Error before
// anything is written.
//
// A user-supplied associative operator on the GPU: include/tessera/scan.cuh
// (tessera::scan_with, header-only, for CUDA translation units).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct ScanOptions {
  Op op = Op::sum;
  Accum accum = Accum::native;  // float sums: native, f64, kahan or dfloat
  std::string variant = {};     // empty: the variant the policy picks for this size and type
  stream_t stream = nullptr;
  Workspace workspace = {};     // optional scratch of scan_workspace_bytes<T>(n, options) bytes
};

// T: float, double, std::int32_t, std::int64_t, std::uint32_t.
template <class T>
void inclusive_scan(const T* d_in, std::size_t n, T* d_out, const ScanOptions& options = {});

template <class T>
void exclusive_scan(const T* d_in, std::size_t n, T* d_out, const ScanOptions& options = {});

// Scratch bytes that inclusive_scan and exclusive_scan need for n elements
// with these options (the variant they pick or name): a workspace this large
// makes either call allocate nothing. Throws for what the calls reject
// (unknown variant, unsupported combination).
template <class T>
std::size_t scan_workspace_bytes(std::size_t n, const ScanOptions& options = {});

// The name of the variant the public calls pick for these arguments.
std::string scan_default_variant(Dtype type, Op op, Accum accum, bool exclusive, std::size_t n);

}  // namespace tessera
