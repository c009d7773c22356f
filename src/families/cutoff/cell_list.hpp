// The CPU rungs' cell list: atoms sorted by cubic cells at least c / 2 wide
// over the lattice grown by c on each side, so the atoms within c of a point
// are in the 5 x 5 x 5 cells around it (2.5 c wide: ~2.7x the sphere's volume
// tested, against 6.4x for 27 cells c wide). Atoms outside that box cannot
// reach a point and are left out.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "families/cutoff/contract.hpp"
#include "families/cutoff/geometry.hpp"

namespace tessera::cutoff_impl::cpu {

class CellList {
 public:
  CellList(const CutoffSpec& spec, const Atom* atoms) {
    const Lattice& l = spec.lattice;
    const double c = spec.cutoff;
    const std::size_t n[3] = {l.nx, l.ny, l.nz};
    double extent = 0;
    for (int a = 0; a < 3; ++a) extent = std::max(extent, double(l.spacing) * double(n[a] - 1) + 2 * c);
    // At most ~128 cells along the widest side: a tiny cutoff on a wide
    // lattice must not ask for billions of cells.
    side_ = std::max(c / REACH, extent / 128.0) * (1 + 1e-6);
    for (int a = 0; a < 3; ++a) {
      lo_[a] = double(l.origin[a]) - c;
      dims_[a] = int(std::floor((double(l.spacing) * double(n[a] - 1) + 2 * c) / side_)) + 1;
    }
    std::vector<long long> cell(spec.n_atoms);
    start_.assign(cells() + 1, 0);
    for (std::size_t i = 0; i < spec.n_atoms; ++i) {
      cell[i] = cell_of(atoms[i].x, atoms[i].y, atoms[i].z);
      if (cell[i] >= 0) ++start_[std::size_t(cell[i]) + 1];
    }
    for (std::size_t k = 0; k < cells(); ++k) start_[k + 1] += start_[k];
    sorted_.resize(start_.back());
    std::vector<std::size_t> fill(start_.begin(), start_.end() - 1);
    for (std::size_t i = 0; i < spec.n_atoms; ++i)
      if (cell[i] >= 0) sorted_[fill[std::size_t(cell[i])]++] = atoms[i];
  }

  // Cells on each side of a point's cell that can hold atoms within c.
  static constexpr int REACH = 2;

  // f(atom) for every atom in the 5^3 cells around point (x, y, z).
  template <class F>
  void for_near(double x, double y, double z, F&& f) const {
    const int cx = coord(x, 0), cy = coord(y, 1), cz = coord(z, 2);
    for (int kz = std::max(cz - REACH, 0); kz <= std::min(cz + REACH, dims_[2] - 1); ++kz)
      for (int ky = std::max(cy - REACH, 0); ky <= std::min(cy + REACH, dims_[1] - 1); ++ky) {
        // Cells along x are contiguous: one run of atoms per (ky, kz).
        const std::size_t row = (std::size_t(kz) * dims_[1] + ky) * dims_[0];
        const std::size_t b = start_[row + std::max(cx - REACH, 0)];
        const std::size_t e = start_[row + std::min(cx + REACH, dims_[0] - 1) + 1];
        for (std::size_t i = b; i < e; ++i) f(sorted_[i]);
      }
  }

 private:
  std::size_t cells() const { return std::size_t(dims_[0]) * dims_[1] * dims_[2]; }
  int coord(double v, int a) const { return int(std::floor((v - lo_[a]) / side_)); }
  long long cell_of(double x, double y, double z) const {
    const double v[3] = {x, y, z};
    int k[3];
    for (int a = 0; a < 3; ++a) {
      const double t = (v[a] - lo_[a]) / side_;
      if (!(t >= 0 && t < dims_[a])) return -1;
      k[a] = int(t);
    }
    return (static_cast<long long>(k[2]) * dims_[1] + k[1]) * dims_[0] + k[0];
  }

  double lo_[3];
  double side_;
  int dims_[3];
  std::vector<std::size_t> start_;
  std::vector<Atom> sorted_;
};

// Runs f(i, j, k, x, y, z) for every lattice point of row (j, k).
template <class F>
void for_row(const Lattice& l, std::size_t j, std::size_t k, F&& f) {
  const float y = lattice_coord(l.origin[1], l.spacing, j), z = lattice_coord(l.origin[2], l.spacing, k);
  for (std::size_t i = 0; i < l.nx; ++i) f(i, lattice_coord(l.origin[0], l.spacing, i), y, z);
}

// How far a float evaluation of one pair's term can be from the double one,
// beyond the rounding of the term's own products and of the sum (which the
// check's 2^-24 (16 + 4 sqrt(k)) sum |terms| covers). To first order in
// u = 2^-24, for an atom at distance r from a point, M the largest coordinate
// magnitude of the two:
//   dx = x_atom - x_point    each component off by e <= u (4 M + r) (the point
//                            and the atom may be rebased, e.g. on a bin)
//   r^2                      off by d2 <= 2 sqrt(3) r e + 3 u r^2
//   s = 1 - r^2 / c^2        off by ds <= (d2 + 2 u r^2) / c^2 + u s
//                            (absolute: near the cutoff s cancels, and its
//                            relative error grows like 1 / s)
//   t = q / r s^2            off by |q| / r (2 s ds + ds^2 + s^2 d2 / (2 r^2))
// So the term's error scales with |q| / r * 2 s ds, not with the term itself.
// An atom just past c in double may fall inside in float (and the reverse):
// its float term is at most |q| / r ((d2 + 2 u c^2) / c^2)^2.
struct PairRounding {
  static constexpr double U = 0x1p-24;
  static double coordinate_error(double m, double r) { return U * (4 * m + r); }
  static double r2_error(double r, double e, double r2) { return 2 * 1.7320508075688772 * r * e + 3 * U * r2; }
  // Bound for an atom within c.
  static double inside(double q, double r2, double c2, double m) {
    const double r = std::sqrt(r2), s = 1 - r2 / c2;
    const double d2 = r2_error(r, coordinate_error(m, r), r2);
    const double ds = (d2 + 2 * U * r2) / c2 + U * s;
    return std::fabs(q) / r * (2 * s * ds + ds * ds + (r2 > 0 ? s * s * d2 / (2 * r2) : 0));
  }
  // Bound for an atom at or past c (0 when rounding cannot bring it inside).
  static double shell(double q, double r2, double c2, double m) {
    const double r = std::sqrt(r2);
    const double d2 = r2_error(r, coordinate_error(m, r), r2);
    if (r2 - c2 > d2 + 2 * U * r2) return 0;
    const double s = (d2 + 2 * U * r2) / c2;
    return std::fabs(q) / r * s * s;
  }
};

inline double max_magnitude(const Atom& a, float x, float y, float z) {
  return std::max({std::fabs(double(a.x)), std::fabs(double(a.y)), std::fabs(double(a.z)), std::fabs(double(x)),
                   std::fabs(double(y)), std::fabs(double(z))});
}

// The sums at one point, in double.
struct PointSums {
  double value = 0;
  double abs = 0;       // sum of |term|
  double pairs = 0;     // atoms within c
  double rounding = 0;  // sum of PairRounding bounds
};

// The sums at point (x, y, z), in double.
inline PointSums point_sums(const CellList& cells, double c2, float x, float y, float z) {
  PointSums p;
  cells.for_near(x, y, z, [&](const Atom& a) {
    const double dx = double(a.x) - x, dy = double(a.y) - y, dz = double(a.z) - z;
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (!(r2 < c2)) {
      p.rounding += PairRounding::shell(a.q, r2, c2, max_magnitude(a, x, y, z));
      return;
    }
    const double t = smoothed_term_double(a.q, r2, c2);
    p.value += t;
    p.abs += std::fabs(t);
    p.pairs += 1;
    p.rounding += PairRounding::inside(a.q, r2, c2, max_magnitude(a, x, y, z));
  });
  return p;
}

// out(i, PointSums) for every point of row (j, k), in double.
template <class Out>
void row_sums(const CellList& cells, const CutoffSpec& spec, std::size_t j, std::size_t k, Out&& out) {
  const double c2 = double(spec.cutoff) * double(spec.cutoff);
  for_row(spec.lattice, j, k, [&](std::size_t i, float x, float y, float z) { out(i, point_sums(cells, c2, x, y, z)); });
}

}  // namespace tessera::cutoff_impl::cpu
