// Host-side dispatch of the select rungs (compact, partition, unique): the
// spec picks the element type, the selection mode and whether the rejected
// elements are kept (partition).
#pragma once

#include "tessera/blocks/multipass.cuh"
#include "families/compose/select_tile.cuh"
#include "families/compose/contract.hpp"
#include "families/compose/dispatch.hpp"

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

// The launch parameters every select tile kernel takes, for call `c`.
template <class T, class Tile>
struct SelectLaunch {
  gpu::AlignedTiles tiles;
  bool vec_in, vec_flags;
  gpu::SelectParams<T> params;
  unsigned grid;

  SelectLaunch(const Call& c, const char* kernel) {
    const T* in = static_cast<const T*>(c.in);
    tiles = gpu::aligned_tiles(in, c.spec.n, Tile::TILE);
    vec_in = gpu::vector_ok(in);
    // The VEC flags of a vector start at element b * TILE + slot - pad: word
    // aligned when flags - pad is.
    vec_flags = (reinterpret_cast<std::uintptr_t>(c.flags) - tiles.pad) % gpu::VEC16<T> == 0;
    params = select_params<T>(c.spec);
    grid = gpu::checked_grid(tiles.count, kernel, c.spec.n);
  }
};

// Workspace sizing: tiles a spec can need whatever its pointers.
inline std::size_t select_tiles_bound(const Spec& s) {
  std::size_t tiles = 0;
  dispatch_select(s, [&]<class T, gpu::SelectMode MODE, bool PARTITION>() {
    tiles = gpu::max_aligned_tiles<T>(s.n, gpu::SelectTile<T, MODE, PARTITION>::TILE);
  });
  return tiles;
}

inline bool is_select_family(const Spec& s) {
  return (s.family == Family::compact || s.family == Family::partition || s.family == Family::unique) &&
         family_supports(s);
}

}  // namespace tessera::compose_impl
