// Host-side dispatch of the select rungs (compact, partition, unique): the
// spec picks the element type, the selection mode and whether the rejected
// elements are kept (partition).
#pragma once

#include "cuda/compose/select_tile.cuh"
#include "patterns/compose.hpp"
#include "patterns/compose_dispatch.hpp"

namespace tessera::compose_impl {

// f.template operator()<T, MODE, PARTITION>() for the spec.
template <class F>
void dispatch_select(const Spec& s, F&& f) {
  using gpu::SelectMode;
  dispatch_key_type(s.dtype, [&]<class T>() {
    if (s.family == Family::unique) f.template operator()<T, SelectMode::unique, false>();
    else if (s.family == Family::partition) f.template operator()<T, SelectMode::predicate, true>();
    else if (s.flagged) f.template operator()<T, SelectMode::flagged, false>();
    else f.template operator()<T, SelectMode::predicate, false>();
  });
}

template <class T>
gpu::SelectParams<T> select_params(const Spec& s) {
  return {s.pred, s.threshold<T>()};
}

inline bool is_select_family(const Spec& s) {
  return (s.family == Family::compact || s.family == Family::partition || s.family == Family::unique) &&
         family_supports(s);
}

}  // namespace tessera::compose_impl
