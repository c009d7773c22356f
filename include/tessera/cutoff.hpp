// tessera::cutoff_potential — the electrostatic potential of point charges on
// a lattice, counting only the atoms within a cutoff distance c of each point,
// smoothed so that the potential goes to zero continuously at c:
//
//   V(p) = sum over |p - r_i| < c of  q_i / |p - r_i| * (1 - |p - r_i|^2 / c^2)^2
//
//   tessera::cutoff_potential(d_atoms, n, lattice, 12.0f, d_potential);                 // the policy's variant
//   tessera::cutoff_potential(d_atoms, n, lattice, 12.0f, d_potential, {.stream = s});
//   tessera::cutoff_potential(d_atoms, n, lattice, 12.0f, d_potential, {.variant = "cylinder"});
//
// `atoms` holds n tessera::Atom (x, y, z in ångström, q in elementary charges);
// `potential` receives lattice.points() floats, x fastest (i + nx * (j + ny * k)),
// in units of e/Å (multiply by 332.06 for kcal/(mol·e)). Atoms may lie outside
// the lattice: they count wherever they are within c of a point. An atom that
// sits exactly on a lattice point makes the potential there infinite, as in
// the direct sum. Every point is written.
//
// Cost: about n_points x (density x 4/3 pi c^3) pair evaluations (one
// reciprocal square root each), against n_points x n for the direct sum
// (tessera/coulomb.hpp): with water's 0.1 atoms/Å^3 and c = 12 Å, ~720 atoms
// per point whatever the system's size.
//
// GPU variants (every variant without the cpu_ prefix) take device pointers and
// run on options.stream; the seed's rungs with host binning (const_bins,
// offsets_constant, shared_tiles, cylinder) copy the atoms to the host and
// synchronise the stream. Scratch (bins, sorted atoms, overflow list) is
// allocated stream-ordered and freed on return, unless options.workspace holds
// cutoff_workspace_bytes(...): then nothing is allocated. The rungs that keep
// neighbour-bin offsets in constant memory (offsets_constant to gpu_binning)
// share that constant memory: do not run them concurrently on several streams
// with different cutoffs or spacings. The cpu_ variants take host pointers and
// run synchronously after synchronising the stream.
//
// Errors throw tessera::Error before anything is written: a null pointer, an
// atom with a NaN or infinite coordinate or charge (its index named), a cutoff
// that is not a finite number > 0, an empty lattice, a spacing that is not
// finite and > 0, a non-finite origin, memory of the wrong kind for the
// variant, an unknown variant or one that does not support the problem (the
// constant-memory rungs refuse cutoffs past ~8.5 region widths:
// 34 Å at 0.5 Å spacing).
#pragma once

#include <cstddef>
#include <string>

#include "tessera/atoms.hpp"
#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct CutoffOptions {
  std::string variant = {};  // empty: the variant the policy picks
  stream_t stream = nullptr;
  Workspace workspace = {};  // optional scratch of cutoff_workspace_bytes(...) bytes
};

void cutoff_potential(const Atom* atoms, std::size_t n_atoms, const Lattice& lattice, float cutoff, float* potential,
                      const CutoffOptions& options = {});

// Scratch bytes a call with these arguments needs (the variant it picks or
// names); a workspace this large makes the call allocate nothing. Throws for
// what the call rejects (unknown variant, bad lattice or cutoff).
std::size_t cutoff_workspace_bytes(std::size_t n_atoms, const Lattice& lattice, float cutoff,
                                   const CutoffOptions& options = {});

// The name of the variant the public call picks for these arguments.
std::string cutoff_default_variant(std::size_t n_atoms, const Lattice& lattice, float cutoff);

}  // namespace tessera
