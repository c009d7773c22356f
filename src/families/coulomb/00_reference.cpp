// Coulomb steps 0: the seed's three serial C loops (scatter, gather, improved
// output-oriented), and the double reference of the checks. All of them
// accumulate in float except the reference.
#include <algorithm>
#include <cmath>
#include <vector>

#include "families/coulomb/cpu_rungs.hpp"

namespace tessera::coulomb_impl::cpu {

namespace {
// One pair's contribution, with the coincident-pair rule of contract.hpp:
// computed on a safe r^2 first and selected after, so that the loops
// vectorise (no branch, no division by zero in a masked lane).
inline float term(float q, float r2) {
  const float v = q / std::sqrt(std::max(r2, MIN_R2));
  return r2 < MIN_R2 ? 0.0f : v;
}
}  // namespace

void run_scatter(const CoulombCall& call) {
  const Lattice& L = call.spec.lattice;
  float* out = call.potential;
  for (std::size_t p = 0; p < L.points(); ++p) out[p] = 0.0f;
  for (std::size_t a = 0; a < call.spec.n_atoms; ++a) {
    const Atom at = call.atoms[a];
    for (std::size_t k = 0; k < L.nz; ++k) {
      const float dz = lattice_coord(L.origin[2], L.spacing, k) - at.z;
      for (std::size_t j = 0; j < L.ny; ++j) {
        const float dy = lattice_coord(L.origin[1], L.spacing, j) - at.y;
        const float dyz = dy * dy + dz * dz;
        float* row = out + L.nx * (j + L.ny * k);
        for (std::size_t i = 0; i < L.nx; ++i) {
          const float dx = lattice_coord(L.origin[0], L.spacing, i) - at.x;
          row[i] += term(at.q, dx * dx + dyz);
        }
      }
    }
  }
}

void run_gather(const CoulombCall& call) {
  const Lattice& L = call.spec.lattice;
  for (std::size_t k = 0; k < L.nz; ++k)
    for (std::size_t j = 0; j < L.ny; ++j)
      for (std::size_t i = 0; i < L.nx; ++i) {
        const float x = lattice_coord(L.origin[0], L.spacing, i);
        const float y = lattice_coord(L.origin[1], L.spacing, j);
        const float z = lattice_coord(L.origin[2], L.spacing, k);
        float v = 0.0f;
        for (std::size_t a = 0; a < call.spec.n_atoms; ++a) {
          const Atom at = call.atoms[a];
          const float dx = x - at.x, dy = y - at.y, dz = z - at.z;
          v += term(at.q, dx * dx + dy * dy + dz * dz);
        }
        call.potential[i + L.nx * (j + L.ny * k)] = v;
      }
}

// One row (j, k) of the output-oriented loop; `xs` holds the row's x
// coordinates (computed once per row, not per pair).
void output_oriented_row(const CoulombCall& call, std::size_t j, std::size_t k, const float* xs) {
  const Lattice& L = call.spec.lattice;
  float* row = call.potential + L.nx * (j + L.ny * k);
  for (std::size_t i = 0; i < L.nx; ++i) row[i] = 0.0f;
  const float y = lattice_coord(L.origin[1], L.spacing, j);
  const float z = lattice_coord(L.origin[2], L.spacing, k);
  for (std::size_t a = 0; a < call.spec.n_atoms; ++a) {
    const Atom at = call.atoms[a];
    const float dy = y - at.y, dz = z - at.z;
    const float dyz = dy * dy + dz * dz;
    for (std::size_t i = 0; i < L.nx; ++i) {
      const float dx = xs[i] - at.x;
      row[i] += term(at.q, dx * dx + dyz);
    }
  }
}

std::vector<float> row_coords(const Lattice& L) {
  std::vector<float> xs(L.nx);
  for (std::size_t i = 0; i < L.nx; ++i) xs[i] = lattice_coord(L.origin[0], L.spacing, i);
  return xs;
}

void run_output_oriented(const CoulombCall& call) {
  const Lattice& L = call.spec.lattice;
  const std::vector<float> xs = row_coords(L);
  for (std::size_t k = 0; k < L.nz; ++k)
    for (std::size_t j = 0; j < L.ny; ++j) output_oriented_row(call, j, k, xs.data());
}

ReferenceValue reference_at(const Atom* atoms, std::size_t n_atoms, const Lattice& L, std::size_t point) {
  const std::size_t i = point % L.nx, j = (point / L.nx) % L.ny, k = point / (L.nx * L.ny);
  // The lattice point exactly as the rungs place it (contract.hpp), then
  // everything in double.
  const double x = lattice_coord(L.origin[0], L.spacing, i);
  const double y = lattice_coord(L.origin[1], L.spacing, j);
  const double z = lattice_coord(L.origin[2], L.spacing, k);
  double v = 0, s = 0;
  for (std::size_t a = 0; a < n_atoms; ++a) {
    const double dx = x - atoms[a].x, dy = y - atoms[a].y, dz = z - atoms[a].z;
    const double r2 = dx * dx + dy * dy + dz * dz;
    // The same rule on the float r^2 the rungs test.
    const float dxf = float(x) - atoms[a].x, dyf = float(y) - atoms[a].y, dzf = float(z) - atoms[a].z;
    if (dxf * dxf + dyf * dyf + dzf * dzf < MIN_R2 || r2 == 0) continue;
    const double inv = 1.0 / std::sqrt(r2);
    v += atoms[a].q * inv;
    s += std::fabs(double(atoms[a].q)) * inv;
  }
  return {v, s};
}

}  // namespace tessera::coulomb_impl::cpu
