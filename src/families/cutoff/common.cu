// The host side of the cutoff rungs' shared pieces (common.cuh): limits,
// constant-capacity bins in a workspace, host binning, the overflow sweep.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "families/cutoff/common.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::cutoff_impl::gpu {

namespace {

constexpr std::size_t ALIGN = 256;
std::size_t aligned(std::size_t b) { return (b + ALIGN - 1) / ALIGN * ALIGN; }

constexpr int OVERFLOW_THREADS = 256;

__global__ void cutoff_overflow_kernel(const unsigned* count, const float4* atoms, LatticeView L, float* potential) {
  const unsigned n = *count;
  if (n == 0) return;
  const std::size_t points = std::size_t(L.n[0]) * L.n[1] * L.n[2];
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < points;
       p += std::size_t(gridDim.x) * blockDim.x) {
    const int i = int(p % L.n[0]), j = int((p / L.n[0]) % L.n[1]), k = int(p / (std::size_t(L.n[0]) * L.n[1]));
    const float x = L.coord(0, i), y = L.coord(1, j), z = L.coord(2, k);
    float acc = 0.f;
    for (unsigned a = 0; a < n; ++a) {
      const float4 t = atoms[a];
      const float dx = t.x - x, dy = t.y - y, dz = t.z - z;
      const float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < L.c2) acc += smoothed_term(t.w, r2, L.inv_c2);
    }
    potential[p] += acc;
  }
}

}  // namespace

LatticeView view_of(const CutoffSpec& s) {
  LatticeView v{};
  for (int a = 0; a < 3; ++a) v.origin[a] = s.lattice.origin[a];
  v.spacing = s.lattice.spacing;
  v.n[0] = int(s.lattice.nx);
  v.n[1] = int(s.lattice.ny);
  v.n[2] = int(s.lattice.nz);
  v.c2 = s.cutoff * s.cutoff;
  v.inv_c2 = 1.f / v.c2;
  return v;
}

bool supports_grid(const CutoffSpec& s) {
  const Lattice& l = s.lattice;
  if (l.nx > INT_MAX || l.ny > 65535u * 4 || l.nz > 65535) return false;
  if (s.n_atoms >= (std::size_t(1) << 31)) return false;
  const BinGrid g = make_bin_grid(l, s.cutoff, 1);
  // Halo offsets are packed in signed bytes; cells counted in 32 bits.
  if (g.halo > 100) return false;
  return double(g.dims[0]) * 4 * g.dims[1] * g.dims[2] < double(INT_MAX);
}

bool supports_offsets(const CutoffSpec& s) {
  if (!supports_grid(s)) return false;
  const BinGrid g = make_bin_grid(s.lattice, s.cutoff, 1);
  return neighbour_offsets(g, s.lattice.spacing).size() <= std::size_t(MAX_OFFSETS);
}

std::size_t const_bins_bytes(const CutoffSpec& s) {
  const BinGrid g = make_bin_grid(s.lattice, s.cutoff, 1);
  return aligned(g.cells() * BIN_CAPACITY * sizeof(float4)) + aligned(sizeof(float4)) +
         aligned(s.n_atoms * sizeof(float4)) + aligned(g.cells() * sizeof(unsigned));
}

ConstBins const_bins_in(void* workspace, const CutoffSpec& s) {
  ConstBins b{};
  b.grid = make_bin_grid(s.lattice, s.cutoff, 1);
  auto* p = static_cast<unsigned char*>(workspace);
  b.bins = reinterpret_cast<float4*>(p);
  p += aligned(b.grid.cells() * BIN_CAPACITY * sizeof(float4));
  b.overflow_count = reinterpret_cast<unsigned*>(p);
  p += aligned(sizeof(float4));
  b.overflow = reinterpret_cast<float4*>(p);
  p += aligned(s.n_atoms * sizeof(float4));
  b.counts = reinterpret_cast<unsigned*>(p);
  return b;
}

void bin_on_host(const CutoffCall& call, const ConstBins& b) {
  const std::size_t n = call.spec.n_atoms;
  std::vector<Atom> atoms(n);
  TESSERA_CUDA(cudaMemcpyAsync(atoms.data(), call.atoms, n * sizeof(Atom), cudaMemcpyDeviceToHost, call.stream));
  TESSERA_CUDA(cudaStreamSynchronize(call.stream));
  const BinGrid& g = b.grid;
  std::vector<float4> bins(g.cells() * BIN_CAPACITY, make_float4(EMPTY_SLOT, EMPTY_SLOT, EMPTY_SLOT, 0.f));
  std::vector<unsigned char> fill(g.cells(), 0);
  // Slot 0 holds the overflow count (as the workspace's 16-byte header).
  std::vector<float4> overflow(1, make_float4(0, 0, 0, 0));
  for (const Atom& a : atoms) {
    const long long c = cell_of(g, a.x, a.y, a.z);
    if (c < 0) continue;  // farther than c from every point
    const float4 v = make_float4(a.x, a.y, a.z, a.q);
    if (fill[std::size_t(c)] < BIN_CAPACITY) bins[std::size_t(c) * BIN_CAPACITY + fill[std::size_t(c)]++] = v;
    else overflow.push_back(v);
  }
  const unsigned count = unsigned(overflow.size() - 1);
  std::memcpy(&overflow[0], &count, sizeof(count));
  // Pageable sources: each copy returns once its bytes are staged.
  TESSERA_CUDA(cudaMemcpyAsync(b.bins, bins.data(), bins.size() * sizeof(float4), cudaMemcpyHostToDevice, call.stream));
  TESSERA_CUDA(cudaMemcpyAsync(b.overflow_count, overflow.data(), sizeof(float4), cudaMemcpyHostToDevice, call.stream));
  if (count > 0)
    TESSERA_CUDA(cudaMemcpyAsync(b.overflow, overflow.data() + 1, count * sizeof(float4), cudaMemcpyHostToDevice,
                                 call.stream));
}

void add_overflow(const CutoffCall& call, const ConstBins& b) {
  const std::size_t points = call.spec.lattice.points();
  const auto blocks = unsigned(std::min<std::size_t>(detail::div_up(points, OVERFLOW_THREADS), 65535u * 8));
  detail::launch("cutoff_overflow_kernel", cutoff_overflow_kernel, blocks, OVERFLOW_THREADS, 0, call.stream, points,
                 b.overflow_count, b.overflow, view_of(call.spec), call.potential);
}

}  // namespace tessera::cutoff_impl::gpu
