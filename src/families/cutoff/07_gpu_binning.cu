// Step 7 — binning on the GPU with atomics and an overflow list (seed 000
// "Cutoff Biomolecules", Parallel binning: "read the counter first; if the bin
// is already full, go to the overflow list without touching the counter").
//
// What it changes over step 6: no host round trip. A thread per atom finds its
// bin; if the bin's count already reads full it appends to the overflow list
// directly, else atomicAdd gives it a slot (and a late loser of the race still
// goes to the overflow list). The slot index from the atomic is used at once
// to write the atom (the seed's fusion of "index" and "copy"). Then step 6's
// kernel and the overflow sweep, all on the stream (graph-capturable except for
// the offsets' upload from pageable memory).
//
// Bottleneck: as step 6; binning costs ~one atomic per atom, a few µs for
// 100,000 atoms. Bin order is the atomics' order: sums are not bitwise
// reproducible from run to run.
#include <algorithm>

#include "families/cutoff/cuda_rungs.hpp"
#include "families/cutoff/shared_tiles.cuh"

namespace tessera::cutoff_impl {

namespace {

constexpr int THREADS = 256;

__global__ void cutoff_empty_bins_kernel(float4* bins, std::size_t slots) {
  for (std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; s < slots;
       s += std::size_t(gridDim.x) * blockDim.x)
    bins[s] = make_float4(gpu::EMPTY_SLOT, gpu::EMPTY_SLOT, gpu::EMPTY_SLOT, 0.f);
}

__global__ void cutoff_gpu_binning_kernel(const float4* atoms, unsigned n, BinGrid g, float4* bins, unsigned* counts,
                                          unsigned* overflow_count, float4* overflow) {
  const unsigned a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  const float4 t = atoms[a];
  const long long c = cell_of(g, t.x, t.y, t.z);
  if (c < 0) return;  // farther than c from every point
  // Read before the atomic: a full bin costs no atomic on its counter.
  if (*reinterpret_cast<volatile unsigned*>(counts + c) < unsigned(gpu::BIN_CAPACITY)) {
    const unsigned slot = atomicAdd(counts + c, 1u);
    if (slot < unsigned(gpu::BIN_CAPACITY)) {
      bins[std::size_t(c) * gpu::BIN_CAPACITY + slot] = t;
      return;
    }
  }
  overflow[atomicAdd(overflow_count, 1u)] = t;
}

}  // namespace

void run_gpu_binning(const CutoffCall& call) {
  const gpu::ConstBins b = gpu::const_bins_in(call.workspace, call.spec);
  const std::size_t slots = b.grid.cells() * gpu::BIN_CAPACITY;
  TESSERA_CUDA(cudaMemsetAsync(b.counts, 0, b.grid.cells() * sizeof(unsigned), call.stream));
  TESSERA_CUDA(cudaMemsetAsync(b.overflow_count, 0, sizeof(unsigned), call.stream));
  const auto fill_blocks = unsigned(std::min<std::size_t>(detail::div_up(slots, THREADS), 4096));
  detail::launch("cutoff_empty_bins_kernel", cutoff_empty_bins_kernel, fill_blocks, THREADS, 0, call.stream, slots,
                 b.bins, slots);
  const std::size_t n = call.spec.n_atoms;
  if (n > 0)
    detail::launch("cutoff_gpu_binning_kernel", cutoff_gpu_binning_kernel, unsigned(detail::div_up(n, THREADS)),
                   THREADS, 0, call.stream, n, reinterpret_cast<const float4*>(call.atoms), unsigned(n), b.grid, b.bins,
                   b.counts, b.overflow_count, b.overflow);
  const int n_offsets = upload_offsets(b.grid, call.spec.lattice.spacing, call.stream);
  gpu::launch_shared_tiles<true>("cutoff_shared_tile_kernel<gpu_binning>", call, b, n_offsets);
  gpu::add_overflow(call, b);
}

std::size_t workspace_gpu_binning(const CutoffSpec& s) { return gpu::const_bins_bytes(s); }
bool supports_gpu_binning(const CutoffSpec& s) { return gpu::supports_offsets(s); }

}  // namespace tessera::cutoff_impl
