// Point charges and the lattice a potential is computed on: the types shared
// by the electrostatics families (coulomb.hpp: the direct sum; cutoff.hpp:
// the cutoff-smoothed sum) and the `tessera potential` tool.
#pragma once

#include <cstddef>

namespace tessera {

// One point charge: position in ångström, charge in elementary charges. 16
// bytes, laid out as a float4 (x, y, z, q) so a GPU reads an atom in one load.
struct Atom {
  float x, y, z, q;
};

// A regular 3D lattice: point (i, j, k) sits at origin + spacing·(i, j, k);
// values are stored x fastest, then y, then z: index i + nx·(j + ny·k).
// A 2D slice is a lattice with nz = 1.
struct Lattice {
  float origin[3] = {0, 0, 0};
  float spacing = 0.5f;
  std::size_t nx = 0, ny = 0, nz = 0;

  std::size_t points() const { return nx * ny * nz; }
};

}  // namespace tessera
