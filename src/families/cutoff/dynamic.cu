// Dynamic binning's host side and its two binning kernels (dynamic.cuh).
#include <cuda_runtime.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

#include "families/cutoff/dynamic.cuh"
#include "families/cutoff/validate.cuh"
#include "tessera/core/cuda_check.hpp"
#include "tessera/scan.hpp"

namespace tessera::cutoff_impl::gpu {

namespace {

constexpr int THREADS = 256;
constexpr unsigned DROPPED = UINT_MAX;  // an atom too far from every point
constexpr std::size_t ALIGN = 256;
std::size_t aligned(std::size_t b) { return (b + ALIGN - 1) / ALIGN * ALIGN; }

std::size_t scan_bytes_for(const BinGrid& g) { return tessera::scan_workspace_bytes<std::uint32_t>(g.cells() + 1); }

// Pass 1: each atom's cell, and its rank among the cell's atoms (the
// atomic's return value, kept for pass 2).
__global__ void cutoff_count_cells_kernel(const float4* atoms, unsigned n, BinGrid g, unsigned* counts, unsigned* cell,
                                          unsigned* rank) {
  const unsigned a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  const float4 t = atoms[a];
  const long long c = cell_of(g, t.x, t.y, t.z);
  cell[a] = c < 0 ? DROPPED : unsigned(c);
  rank[a] = c < 0 ? DROPPED : atomicAdd(counts + c, 1u);
}

// Pass 2: after the scan, each atom to its slot.
__global__ void cutoff_scatter_cells_kernel(const float4* atoms, unsigned n, const unsigned* cell,
                                            const unsigned* rank, const unsigned* starts, float4* sorted) {
  const unsigned a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n || cell[a] == DROPPED) return;
  sorted[starts[cell[a]] + rank[a]] = atoms[a];
}

}  // namespace

std::size_t dynamic_bins_bytes(const CutoffSpec& s, int x_split) {
  const BinGrid g = make_bin_grid(s.lattice, s.cutoff, x_split);
  return 2 * aligned((g.cells() + 1) * sizeof(unsigned)) + 2 * aligned(s.n_atoms * sizeof(unsigned)) +
         aligned(s.n_atoms * sizeof(float4)) + aligned(scan_bytes_for(g));
}

DynamicBins dynamic_bins_in(void* workspace, const CutoffSpec& s, int x_split) {
  DynamicBins b{};
  b.grid = make_bin_grid(s.lattice, s.cutoff, x_split);
  auto* p = static_cast<unsigned char*>(workspace);
  const std::size_t per_cell = aligned((b.grid.cells() + 1) * sizeof(unsigned));
  const std::size_t per_atom = aligned(s.n_atoms * sizeof(unsigned));
  b.counts = reinterpret_cast<unsigned*>(p);
  b.starts = reinterpret_cast<unsigned*>(p + per_cell);
  p += 2 * per_cell;
  b.cell = reinterpret_cast<unsigned*>(p);
  b.rank = reinterpret_cast<unsigned*>(p + per_atom);
  p += 2 * per_atom;
  b.sorted = reinterpret_cast<float4*>(p);
  p += aligned(s.n_atoms * sizeof(float4));
  b.scan_workspace = p;
  b.scan_bytes = scan_bytes_for(b.grid);
  return b;
}

void bin_dynamic(const CutoffCall& call, const DynamicBins& b) {
  const std::size_t cells = b.grid.cells();
  const std::size_t n = call.spec.n_atoms;
  const auto* atoms = reinterpret_cast<const float4*>(call.atoms);
  TESSERA_CUDA(cudaMemsetAsync(b.counts, 0, (cells + 1) * sizeof(unsigned), call.stream));
  if (n > 0)
    detail::launch("cutoff_count_cells_kernel", cutoff_count_cells_kernel, unsigned(detail::div_up(n, THREADS)),
                   THREADS, 0, call.stream, n, atoms, unsigned(n), b.grid, b.counts, b.cell, b.rank);
  // counts[cells] stays 0: starts[cells] is the number of atoms kept, the
  // end of the last cell's run.
  ScanOptions scan{};
  scan.stream = call.stream;
  scan.workspace = {b.scan_workspace, b.scan_bytes};
  tessera::exclusive_scan<std::uint32_t>(b.counts, cells + 1, b.starts, scan);
  if (n > 0)
    detail::launch("cutoff_scatter_cells_kernel", cutoff_scatter_cells_kernel, unsigned(detail::div_up(n, THREADS)),
                   THREADS, 0, call.stream, n, atoms, unsigned(n), b.cell, b.rank, b.starts, b.sorted);
}

bool phases_enabled() {
  static const bool on = std::getenv("TESSERA_CUTOFF_PHASES") != nullptr;
  return on;
}

bool Phases::enabled() { return phases_enabled(); }

Phases::Phases(cudaStream_t stream) : stream_(stream), on_(enabled()) {
  if (!on_) return;
  for (auto& e : events_) TESSERA_CUDA(cudaEventCreate(&e));
  TESSERA_CUDA(cudaEventRecord(events_[0], stream_));
}

Phases::~Phases() {
  if (!on_) return;
  for (auto& e : events_) (void)cudaEventDestroy(e);
}

void Phases::binned() {
  if (on_) TESSERA_CUDA(cudaEventRecord(events_[1], stream_));
}

void Phases::summed(const char* kernel) {
  if (!on_) return;
  TESSERA_CUDA(cudaEventRecord(events_[2], stream_));
  TESSERA_CUDA(cudaEventSynchronize(events_[2]));
  float bin_ms = 0, sum_ms = 0;
  TESSERA_CUDA(cudaEventElapsedTime(&bin_ms, events_[0], events_[1]));
  TESSERA_CUDA(cudaEventElapsedTime(&sum_ms, events_[1], events_[2]));
  std::fprintf(stderr, "cutoff phases: binning %.3f ms, sum %.3f ms (%s)\n", bin_ms, sum_ms, kernel);
}

}  // namespace tessera::cutoff_impl::gpu
