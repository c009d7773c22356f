// Generated systems (water.hpp).
#include "families/cutoff/water.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <random>

namespace tessera::cutoff_impl {

std::vector<Atom> water_box(std::size_t n, const double box[3], std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const std::size_t molecules = n / 3;
  // Oxygens in the cells of a grid at least as fine as one molecule per
  // cell, one molecule in each of a random choice of cells, jittered within
  // a third of a cell: no two molecules overlap, the density is even, none
  // sits on a lattice plane.
  const double cell = std::cbrt(3.0 / WATER_ATOMS_PER_A3);
  int dims[3];
  for (int a = 0; a < 3; ++a) dims[a] = std::max(1, int(std::ceil(box[a] / cell)));
  double step[3];
  for (int a = 0; a < 3; ++a) step[a] = box[a] / dims[a];
  std::vector<std::size_t> slots(std::size_t(dims[0]) * dims[1] * dims[2]);
  std::iota(slots.begin(), slots.end(), std::size_t(0));
  std::shuffle(slots.begin(), slots.end(), rng);
  std::vector<Atom> atoms;
  atoms.reserve(n);
  constexpr double OH = 0.9572, HALF_ANGLE = 104.52 / 2 * std::numbers::pi / 180;
  for (std::size_t m = 0; m < molecules; ++m) {
    // Molecules past the grid's count (a box too small for n) reuse cells,
    // jittered: still random, denser.
    const std::size_t s = slots[m % slots.size()];
    const std::size_t idx[3] = {s % dims[0], (s / dims[0]) % dims[1], s / (std::size_t(dims[0]) * dims[1])};
    double o[3];
    for (int a = 0; a < 3; ++a) o[a] = (double(idx[a]) + 0.5 + (u(rng) - 0.5) * 0.66) * step[a];
    // A random orientation: bisector b and in-plane normal e, orthonormal.
    double b[3], e[3];
    {
      const double z = 2 * u(rng) - 1, phi = 2 * std::numbers::pi * u(rng), r = std::sqrt(1 - z * z);
      b[0] = r * std::cos(phi), b[1] = r * std::sin(phi), b[2] = z;
      double t[3] = {u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5};
      const double d = t[0] * b[0] + t[1] * b[1] + t[2] * b[2];
      for (int a = 0; a < 3; ++a) t[a] -= d * b[a];
      const double len = std::sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) + 1e-12;
      for (int a = 0; a < 3; ++a) e[a] = t[a] / len;
    }
    atoms.push_back({float(o[0]), float(o[1]), float(o[2]), -0.834f});
    for (int sign : {-1, 1}) {
      Atom h{};
      float* c[3] = {&h.x, &h.y, &h.z};
      for (int a = 0; a < 3; ++a)
        *c[a] = float(o[a] + OH * (std::cos(HALF_ANGLE) * b[a] + sign * std::sin(HALF_ANGLE) * e[a]));
      h.q = 0.417f;
      atoms.push_back(h);
    }
  }
  for (std::size_t k = 0; atoms.size() < n; ++k)
    atoms.push_back({float(u(rng) * box[0]), float(u(rng) * box[1]), float(u(rng) * box[2]), k % 2 == 0 ? 1.f : -1.f});
  return atoms;
}

std::vector<Atom> uniform_atoms(std::size_t n, const float lo[3], const float hi[3], std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> ux(lo[0], hi[0]), uy(lo[1], hi[1]), uz(lo[2], hi[2]), uq(-1.f, 1.f);
  std::vector<Atom> atoms(n);
  for (auto& a : atoms) a = {ux(rng), uy(rng), uz(rng), uq(rng)};
  return atoms;
}

}  // namespace tessera::cutoff_impl
