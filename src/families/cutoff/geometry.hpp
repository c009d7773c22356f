// The geometry every cutoff rung shares, host and device: where a lattice
// point is (computed the same way everywhere, so the CPU reference and the
// GPU rungs look at the same float positions), the smoothed pair term, and the
// bin grid of the binned GPU rungs.
//
// The bin grid (seed 000 "Cutoff Biomolecules", constant bins): a thread
// block computes one REGION^3 block of lattice points, and the bins are as
// wide as a region, so that region (rx, ry, rz) sits inside bin
// (rx + H, ry + H, rz + H) and the bins a region must look at are the same
// offsets for every region (computed once on the host). H bins of halo on
// each side hold every atom within c of a lattice point (H * side > c);
// atoms farther out are dropped. Dynamic bins may split a bin into
// x_split cells along x, so that the pencil of cells a region reads along x
// follows the cutoff sphere more closely.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tessera/atoms.hpp"
#include "tessera/blocks/hd.hpp"

namespace tessera::cutoff_impl {

TESSERA_HD int min_int(int a, int b) { return a < b ? a : b; }

// Lattice points per region side: 8^3 = 512 points per block (seed: "8 x 8 x
// 8 grid points per bin, 4 points per thread, 128 threads").
inline constexpr int REGION = 8;

// Coordinate of lattice index i along one axis: origin + spacing * i, rounded
// twice (no fused multiply-add, on the device either), the same float on the
// CPU and the GPU.
TESSERA_HD float lattice_coord(float origin, float spacing, std::size_t i) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(origin, __fmul_rn(spacing, static_cast<float>(i)));
#else
  const volatile float scaled = spacing * static_cast<float>(i);
  return origin + scaled;
#endif
}

// q / r * (1 - r^2 / c^2)^2 for r^2 < c^2, in double (the references).
inline double smoothed_term_double(double q, double r2, double c2) {
  const double s = 1.0 - r2 / c2;
  return q / std::sqrt(r2) * s * s;
}

struct BinGrid {
  float origin[3];      // corner of cell (0, 0, 0)
  float side;           // bin side = REGION * spacing (a cell is side / x_split wide along x)
  int halo;             // H
  int x_split;          // cells per bin along x (1: constant bins)
  int regions[3];       // regions covering the lattice
  int dims[3];          // cells: (regions + 2H) per axis, times x_split along x
  float cutoff;

  std::size_t cells() const { return std::size_t(dims[0]) * dims[1] * dims[2]; }
  TESSERA_HD float cell_x() const { return side / float(x_split); }
};

// Where the bins of a lattice and cutoff lie. halo = floor(c / side) + 1, so
// halo * side > c. Throws nothing: the API has validated the lattice.
inline BinGrid make_bin_grid(const Lattice& l, float cutoff, int x_split) {
  BinGrid g{};
  g.side = float(REGION) * l.spacing;
  g.halo = int(std::floor(cutoff / g.side)) + 1;
  g.x_split = x_split;
  g.cutoff = cutoff;
  const std::size_t n[3] = {l.nx, l.ny, l.nz};
  for (int a = 0; a < 3; ++a) {
    g.regions[a] = int((n[a] + REGION - 1) / REGION);
    g.dims[a] = g.regions[a] + 2 * g.halo;
    g.origin[a] = l.origin[a] - float(g.halo) * g.side;
  }
  g.dims[0] *= x_split;
  return g;
}

// Cell of an atom, or -1 when it lies outside the grid (too far from every
// lattice point to count) or is not finite. Monotone in each coordinate.
TESSERA_HD long long cell_of(const BinGrid& g, float x, float y, float z) {
  const float cx = (x - g.origin[0]) / g.cell_x();
  const float cy = (y - g.origin[1]) / g.side;
  const float cz = (z - g.origin[2]) / g.side;
  if (!(cx >= 0.f && cy >= 0.f && cz >= 0.f)) return -1;
  if (!(cx < float(g.dims[0]) && cy < float(g.dims[1]) && cz < float(g.dims[2]))) return -1;
  const int ix = min_int(int(cx), g.dims[0] - 1), iy = min_int(int(cy), g.dims[1] - 1), iz = min_int(int(cz), g.dims[2] - 1);
  return (static_cast<long long>(iz) * g.dims[1] + iy) * g.dims[0] + ix;
}

// The smallest gap, along one axis, between a region's points [0, span] and
// the bin [d * side, (d + 1) * side] (coordinates relative to the region's bin).
TESSERA_HD float axis_gap(int d, float side, float span) {
  const float lo = float(d) * side, hi = float(d + 1) * side;
  return lo > span ? lo - span : (hi < 0.f ? -hi : 0.f);
}

// Tolerance on the neighbour tests: bin assignment and point positions are
// rounded, and an atom missed at distance ~c adds ~0 after smoothing anyway.
inline constexpr float NEIGHBOUR_SLACK = 1e-3f;

// Bin offsets (dx, dy, dz) whose bin comes within c of some point of a region
// (the seed's "supersphere"), packed as signed bytes x, y, z, 0.
inline std::vector<std::uint32_t> neighbour_offsets(const BinGrid& g, float spacing) {
  std::vector<std::uint32_t> out;
  const float span = float(REGION - 1) * spacing;
  const float reach = g.cutoff + NEIGHBOUR_SLACK * g.side;
  for (int dz = -g.halo; dz <= g.halo; ++dz)
    for (int dy = -g.halo; dy <= g.halo; ++dy)
      for (int dx = -g.halo; dx <= g.halo; ++dx) {
        const float gx = axis_gap(dx, g.side, span), gy = axis_gap(dy, g.side, span), gz = axis_gap(dz, g.side, span);
        if (gx * gx + gy * gy + gz * gz >= reach * reach) continue;
        out.push_back(std::uint32_t(std::uint8_t(std::int8_t(dx))) | (std::uint32_t(std::uint8_t(std::int8_t(dy))) << 8) |
                      (std::uint32_t(std::uint8_t(std::int8_t(dz))) << 16));
      }
  return out;
}

// The cells along x that a region must read in the bin row (dy, dz), as
// offsets from the region's first cell: [lo, hi], or lo > hi when the row is
// out of reach. Used per block by the dynamic rungs.
struct XRange {
  int lo, hi;
};
TESSERA_HD XRange pencil_range(const BinGrid& g, float spacing, int dy, int dz) {
  const float span = float(REGION - 1) * spacing;
  const float reach = g.cutoff + NEIGHBOUR_SLACK * g.side;
  const float gy = axis_gap(dy, g.side, span), gz = axis_gap(dz, g.side, span);
  const float g2 = gy * gy + gz * gz;
  if (g2 >= reach * reach) return {1, 0};
  const float rx = sqrtf(reach * reach - g2);
  const float cx = g.cell_x();
  return {int(floorf(-rx / cx)), int(floorf((span + rx) / cx))};
}

}  // namespace tessera::cutoff_impl
