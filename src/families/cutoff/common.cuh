// Device pieces the CUDA rungs of the cutoff ladder share: the smoothed pair
// term, the lattice as a kernel sees it, constant-capacity bins (their empty
// slots, the workspace that holds them and the overflow list), the neighbour
// offsets in constant memory, and the overflow sweep.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "families/cutoff/contract.hpp"
#include "families/cutoff/geometry.hpp"
#include "tessera/blocks/launch.cuh"

namespace tessera::cutoff_impl::gpu {

// Constant-capacity bins hold 8 atoms: 128 bytes, one aligned line per bin
// (seed: "each bin stores 8 atoms, 128 bytes"). With water's 0.1 atoms/Å^3 a
// 4 Å bin holds 6.4 on average; ~4% of the atoms overflow.
inline constexpr int BIN_CAPACITY = 8;
// An empty slot: x = 1e18 is far from every point (its square, ~1e36, still
// fits a float), so a slot read by mistake fails the distance test.
inline constexpr float EMPTY_SLOT = 1e18f;
// Neighbour offsets in constant memory: 16 KB (c = 12 Å at 0.5 Å spacing
// needs 317; c = 34 Å 4,043).
inline constexpr int MAX_OFFSETS = 4096;

// The lattice as kernels see it.
struct LatticeView {
  float origin[3];
  float spacing;
  int n[3];
  float c2;      // cutoff squared
  float inv_c2;  // 1 / c^2

  __device__ float coord(int axis, int i) const { return lattice_coord(origin[axis], spacing, std::size_t(i)); }
  __device__ std::size_t index(int i, int j, int k) const {
    return std::size_t(i) + std::size_t(n[0]) * (std::size_t(j) + std::size_t(n[1]) * std::size_t(k));
  }
};

LatticeView view_of(const CutoffSpec& spec);

// q / r * (1 - r^2 / c^2)^2: one MUFU reciprocal square root, four FP32 operations.
__device__ __forceinline__ float smoothed_term(float q, float r2, float inv_c2) {
  const float s = fmaf(-r2, inv_c2, 1.f);
  return q * rsqrtf(r2) * (s * s);
}

__device__ __forceinline__ bool is_empty(const float4& a) { return a.x == EMPTY_SLOT; }

// What the GPU rungs support: launch limits (regions and lattice rows on grid
// y and z) and 32-bit atom and cell counts.
bool supports_grid(const CutoffSpec& spec);
// The constant-memory rungs also need their offsets to fit MAX_OFFSETS.
bool supports_offsets(const CutoffSpec& spec);

// Constant-capacity bins in a workspace: bins (cells x BIN_CAPACITY atoms),
// then the overflow count and list (up to every atom), then the per-bin
// counts (GPU binning only). Each part 256-byte aligned.
struct ConstBins {
  BinGrid grid;
  float4* bins;
  unsigned* overflow_count;
  float4* overflow;
  unsigned* counts;
};
std::size_t const_bins_bytes(const CutoffSpec& spec);
ConstBins const_bins_in(void* workspace, const CutoffSpec& spec);

// The seed's host binning: copies the atoms to the host (synchronising the
// stream), bins them into constant-capacity bins with the overflow on the
// side, and uploads both into `b` on the stream.
void bin_on_host(const CutoffCall& call, const ConstBins& b);

// The overflow list's contribution, added to every point: a thread per point
// over the (short) list, the atoms read by every thread alike (a broadcast).
void add_overflow(const CutoffCall& call, const ConstBins& b);

}  // namespace tessera::cutoff_impl::gpu

// The neighbour offsets of the constant-memory rungs: each translation unit
// that includes this has its own copy of the symbol (no relocatable device
// code), loaded by its own upload_offsets().
namespace {
__constant__ std::uint32_t c_neighbour_offsets[tessera::cutoff_impl::gpu::MAX_OFFSETS];

// Uploads the offsets on the stream; returns how many there are.
[[maybe_unused]] int upload_offsets(const tessera::cutoff_impl::BinGrid& g, float spacing, cudaStream_t stream) {
  const auto offsets = tessera::cutoff_impl::neighbour_offsets(g, spacing);
  TESSERA_CUDA(cudaMemcpyToSymbolAsync(c_neighbour_offsets, offsets.data(), offsets.size() * sizeof(std::uint32_t), 0,
                                       cudaMemcpyHostToDevice, stream));
  // Pageable source: the call returns once the bytes are staged, so the
  // vector may go (and the copy is ordered before the kernel on the stream).
  return int(offsets.size());
}

__device__ __forceinline__ int3 neighbour_offset(int i) {
  const std::uint32_t o = c_neighbour_offsets[i];
  return make_int3(int(std::int8_t(o & 0xFF)), int(std::int8_t((o >> 8) & 0xFF)), int(std::int8_t((o >> 16) & 0xFF)));
}
}  // namespace
