// The coulomb pattern's internal contract: what one call carries and what one
// registered variant provides. Every rung (CPU and CUDA) fills a
// CoulombVariant; the public API and the harness only go through this table.
//
// The sum every rung computes, for each lattice point p:
//   V(p) = sum_i q_i / |p - r_i|          (no constant factor: charges in e,
//                                           distances in the lattice's unit)
// A pair closer than MIN_DISTANCE (r^2 < MIN_R2) contributes nothing: the
// potential of a point that coincides with an atom leaves that atom out.
#pragma once

#include <cmath>
#include <cstddef>

#include "ladder/ladder.hpp"
#include "tessera/atoms.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::coulomb_impl {

// 1e-6 in the lattice's unit; every rung tests r^2 against its square.
inline constexpr float MIN_R2 = 1e-12f;

// The step-7 split's `newton` value that selects the FMA-pipe rsqrt's one
// series step (common.cuh, fma_rsqrt_series) instead of Newton steps.
inline constexpr int SERIES_STEP = -1;

struct CoulombSpec {
  std::size_t n_atoms;
  Lattice lattice;

  double pairs() const { return double(n_atoms) * double(lattice.points()); }
};

// One call. `atoms` and `potential` are device pointers for CUDA variants and
// host pointers for CPU variants. A CUDA run only enqueues work on `stream`:
// no allocation, no host synchronisation (graph-capturable). Every variant
// writes every lattice point (zeros when there are no atoms).
struct CoulombCall {
  CoulombSpec spec;
  const Atom* atoms;
  float* potential;
  stream_t stream;
};

struct CoulombVariant {
  VariantInfo info;
  bool (*supports)(const CoulombSpec&);
  void (*run)(const CoulombCall&);
};

// Lattice point coordinates as every rung computes them: origin + spacing * i
// with one rounding (fma; the kernels use fmaf, the same rounding), exact for
// the bench lattices (origin 0, spacing 0.5).
inline float lattice_coord(float origin, float spacing, std::size_t i) {
  return std::fma(float(i), spacing, origin);
}

// The ladder: ladder.cpp's table, in ladder order.
ladder::Ladder<CoulombVariant>& variants_ladder();

}  // namespace tessera::coulomb_impl
