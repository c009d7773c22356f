// The files of `tessera potential` (tessera::potential): PQR point charges in,
// OpenDX potential maps out, and the lattice around a molecule.
//
// PQR, as PDB2PQR and APBS write it: whitespace-separated ATOM and HETATM
// records
//   record serial atom-name residue-name [chain] residue-number x y z charge radius
// (the chain column is optional, so fields are read from the end of the
// line); every other record (REMARK, TER, END, ...) is skipped. A record with
// too few fields, a field that is not a number, a NaN or infinite value, or
// a file without a single atom is an error naming the file, the line and the
// problem.
//
// OpenDX, in the layout APBS writes and VMD, PyMOL and APBS read: a
// gridpositions object (counts, origin, three delta lines), gridconnections,
// and a rank-0 array of nx·ny·nz values, three per line, z fastest (then y,
// then x), the transpose of tessera's x-fastest Lattice order.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/atoms.hpp"

namespace tessera::potential {

// The atoms of a PQR file (charges in e, coordinates in Å; radii are read
// and checked but not kept: the direct sum does not use them).
std::vector<Atom> read_pqr(const std::string& path);
// The same from text already in memory; `name` is the file name errors give.
std::vector<Atom> parse_pqr(std::string_view text, const std::string& name);

// The lattice that covers the atoms' bounding box plus `padding` on every
// side, `spacing` apart: origin = min - padding, n = floor((max - min +
// 2 padding) / spacing) + 1 along each axis. Throws for spacing <= 0,
// padding < 0, non-finite values, no atoms, or a lattice past 2^31 points.
Lattice lattice_around(std::span<const Atom> atoms, float spacing, float padding);

// The OpenDX text of `values` (x-fastest, lattice.points() of them).
// `comment` goes on the first line after "# ".
std::string format_dx(const Lattice& lattice, std::span<const float> values, std::string_view comment = {});
// Writes format_dx(...) to `path` through tessera::AtomicFile: the file
// appears whole or not at all.
void write_dx(const std::string& path, const Lattice& lattice, std::span<const float> values,
              std::string_view comment = {});

}  // namespace tessera::potential
