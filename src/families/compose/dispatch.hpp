// Element-type dispatch of the compositions: f.template operator()<T>() for
// the spec's dtype, restricted to the types a family supports so that kernels
// are instantiated only where they are used. Returns false for other types.
#pragma once

#include <cstdint>

#include "tessera/core/types.hpp"

namespace tessera::compose_impl {

// float, double, int32, uint32, int64: map and adjacent_difference.
template <class F>
bool dispatch_map_type(Dtype t, F&& f) {
  switch (t) {
    case Dtype::f32: f.template operator()<float>(); return true;
    case Dtype::f64: f.template operator()<double>(); return true;
    case Dtype::i32: f.template operator()<std::int32_t>(); return true;
    case Dtype::u32: f.template operator()<std::uint32_t>(); return true;
    case Dtype::i64: f.template operator()<std::int64_t>(); return true;
    default: return false;
  }
}

// float, int32, uint32, int64: compact, partition, unique, rle.
template <class F>
bool dispatch_key_type(Dtype t, F&& f) {
  switch (t) {
    case Dtype::f32: f.template operator()<float>(); return true;
    case Dtype::i32: f.template operator()<std::int32_t>(); return true;
    case Dtype::u32: f.template operator()<std::uint32_t>(); return true;
    case Dtype::i64: f.template operator()<std::int64_t>(); return true;
    default: return false;
  }
}

// uint8, int32, uint32: find_unique.
template <class F>
bool dispatch_distinct_type(Dtype t, F&& f) {
  switch (t) {
    case Dtype::u8: f.template operator()<std::uint8_t>(); return true;
    case Dtype::i32: f.template operator()<std::int32_t>(); return true;
    case Dtype::u32: f.template operator()<std::uint32_t>(); return true;
    default: return false;
  }
}

// Every type any family uses (host code: references, harness).
template <class F>
bool dispatch_any_type(Dtype t, F&& f) {
  if (t == Dtype::u8) {
    f.template operator()<std::uint8_t>();
    return true;
  }
  return dispatch_map_type(t, static_cast<F&&>(f));
}

}  // namespace tessera::compose_impl
