// tessera::transform and tessera::adjacent_difference — element-wise maps of a
// device array (seed 003 "Data Parallel Algorithms - Map" and "When to Use
// Shared Memory?").
//
//   tessera::transform(d_x, n, d_y);                                   // y[i] = 2 x[i] (the seed's Fn)
//   tessera::transform(d_x, n, d_y, {.fn = tessera::MapFn::square, .stream = s});  // y[i] = x[i]^2, on s
//   tessera::adjacent_difference(d_x, n, d_d);                         // d[i] = |x[i] - x[i-1]|
//   tessera::adjacent_difference(d_x, n, d_d, {.variant = "shared_tile"});  // any rung by name
//
// Every call is (input, n, output, options): the map function is an option
// (default: twice), like the predicate of compact_if, so that every entry
// point of tessera keeps one argument order and a call names only what
// differs from the defaults.
//
// Types: float, double, int32, uint32, int64. Integer maps wrap modulo 2^bits
// (computed in the unsigned type: no undefined overflow). The absolute
// difference of integers is returned in the unsigned type of the same width
// (|INT32_MIN - INT32_MAX| = 2^32 - 1 fits a uint32, not an int32); of floats
// in the same type, rounded once (IEEE subtraction, then fabs: exact).
// out[0] = |x[0]|, as if a zero preceded the input.
//
// Both calls enqueue on `options.stream` and return without synchronising
// (GPU variants); the cpu_ variants, reachable by name, take host pointers and
// run synchronously. Scratch (only some variants need any) is allocated
// stream-ordered, or taken from options.workspace when it holds
// *_workspace_bytes(...): then the call allocates nothing. transform may run
// in place (d_out == d_in); adjacent_difference may not. Any other overlap of
// input and output, a null pointer with n > 0, an unknown variant or a
// pointer in the wrong memory throws tessera::Error before anything is
// written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

enum class MapFn {
  twice,   // y = x + x (the seed's Fn: 2x)
  square,  // y = x * x
};

std::string_view to_string(MapFn fn) noexcept;  // "twice", "square"

// The element type of |a - b|: unsigned for integers, the same for floats.
namespace detail {
template <class T, bool = std::is_integral_v<T>>
struct absdiff_type {
  using type = T;
};
template <class T>
struct absdiff_type<T, true> {
  using type = std::make_unsigned_t<T>;
};
}  // namespace detail
template <class T>
using absdiff_t = typename detail::absdiff_type<T>::type;

struct MapOptions {
  MapFn fn = MapFn::twice;
  std::string variant = {};  // empty: the variant the policy picks for this size and type
  stream_t stream = nullptr;
  Workspace workspace = {};
};

struct AdjacentDifferenceOptions {
  std::string variant = {};  // empty: the variant the policy picks for this size and type
  stream_t stream = nullptr;
  Workspace workspace = {};
};

template <class T>
void transform(const T* d_in, std::size_t n, T* d_out, const MapOptions& options = {});

template <class T>
void adjacent_difference(const T* d_in, std::size_t n, absdiff_t<T>* d_out,
                         const AdjacentDifferenceOptions& options = {});

// Bytes of options.workspace that make the call allocate nothing (0: it
// needs none), for the variant `options` names or the policy picks.
template <class T>
std::size_t transform_workspace_bytes(std::size_t n, const MapOptions& options = {});
template <class T>
std::size_t adjacent_difference_workspace_bytes(std::size_t n, const AdjacentDifferenceOptions& options = {});

// The names of the variants the calls above pick by default.
std::string transform_default_variant(Dtype type, std::size_t n);
std::string adjacent_difference_default_variant(Dtype type, std::size_t n);

}  // namespace tessera
