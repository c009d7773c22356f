// Dynamic binning (seed 000 "Cutoff Biomolecules", Dynamic binning): no
// capacity, no empty slots, no overflow list. A thread per atom counts its
// cell with an atomic (keeping the returned rank), an exclusive scan over the
// counts (tessera's own: tessera::exclusive_scan) gives each cell's first
// slot, and a second pass writes each atom at start[cell] + rank: the atoms
// sorted by cell, cells x fastest. A region then reads, for each bin row
// (dy, dz) within reach, one contiguous run of atoms: the cells along x that
// the cutoff sphere can reach from the region (the seed's "pencils"),
// staged through shared memory 128 atoms at a time and tested with step 6's
// cylinder test. X_SPLIT cells per bin along x make those runs follow the
// sphere more closely (step 9).
#pragma once

#include <cstddef>
#include <cstdint>

#include "families/cutoff/common.cuh"

namespace tessera::cutoff_impl::gpu {

inline constexpr int DYN_THREADS = 128;
inline constexpr int DYN_POINTS = 4;  // per thread, along z
static_assert(REGION * REGION * (REGION / DYN_POINTS) == DYN_THREADS, "128 threads cover a region");

// The workspace: counts and starts (cells + 1 each), each atom's cell and
// rank, the sorted atoms, and the scan's own scratch.
struct DynamicBins {
  BinGrid grid;
  unsigned* counts;
  unsigned* starts;
  unsigned* cell;
  unsigned* rank;
  float4* sorted;
  void* scan_workspace;
  std::size_t scan_bytes;
};
std::size_t dynamic_bins_bytes(const CutoffSpec& spec, int x_split);
DynamicBins dynamic_bins_in(void* workspace, const CutoffSpec& spec, int x_split);
// Counts, scans and scatters the atoms into `b` on the stream.
void bin_dynamic(const CutoffCall& call, const DynamicBins& b);

// The lean pair term (step 10): no branch per point. s = max(1 - r^2 / c^2, 0)
// is 0 past the cutoff, so the term adds exactly 0 there; the reciprocal
// square root is the bare MUFU instruction (rsqrtf adds a test and two
// rescaling multiplies for subnormal r^2, which no pair of distinct float
// positions an atom apart reaches: ftz only changes r^2 < 1.2e-38 Å^2, an atom
// on a point, which is +inf either way). 8 instructions a point instead of ~15
// (FADD, FFMA r^2, FFMA s, FMNMX, FMUL s^2, MUFU.RSQ, FMUL q, FFMA acc).
__device__ __forceinline__ float rsqrt_ftz(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float lean_term_add(float acc, float q, float r2, float inv_c2) {
  const float s = fmaxf(fmaf(-r2, inv_c2, 1.f), 0.f);
  return fmaf(q * rsqrt_ftz(r2), s * s, acc);
}

// POINTS lattice points per thread along z: 512 / POINTS threads per region.
template <int X_SPLIT, bool LEAN = false, int POINTS = DYN_POINTS>
__global__ void __launch_bounds__(REGION * REGION * REGION / POINTS)
    cutoff_dynamic_kernel(const float4* sorted, const unsigned* starts, BinGrid g, LatticeView L, float* potential) {
  constexpr int THREADS = REGION * REGION * REGION / POINTS;
  __shared__ float4 tile[THREADS];
  const int t = threadIdx.x;
  const int tx = t % REGION, ty = (t / REGION) % REGION, tz = t / (REGION * REGION);
  const int i = blockIdx.x * REGION + tx, j = blockIdx.y * REGION + ty;
  const int k0 = blockIdx.z * REGION + tz * POINTS;
  const float x = L.coord(0, i), y = L.coord(1, j);
  float z[POINTS], acc[POINTS];
#pragma unroll
  for (int m = 0; m < POINTS; ++m) {
    z[m] = L.coord(2, k0 + m);
    acc[m] = 0.f;
  }
  const float c2 = L.c2, inv_c2 = L.inv_c2;  // in registers, not reloaded per point
  const int home_x = (blockIdx.x + g.halo) * X_SPLIT, home_y = blockIdx.y + g.halo, home_z = blockIdx.z + g.halo;
  for (int dz = -g.halo; dz <= g.halo; ++dz)
    for (int dy = -g.halo; dy <= g.halo; ++dy) {
      const XRange r = pencil_range(g, L.spacing, dy, dz);  // the same for every thread
      if (r.lo > r.hi) continue;
      const int xlo = max(home_x + r.lo, 0), xhi = min(home_x + r.hi, g.dims[0] - 1);
      const std::size_t row = (std::size_t(home_z + dz) * g.dims[1] + (home_y + dy)) * g.dims[0];
      const unsigned begin = starts[row + xlo], end = starts[row + xhi + 1];
      for (unsigned base = begin; base < end; base += THREADS) {
        __syncthreads();  // the previous tile is no longer read
        if (base + t < end) tile[t] = sorted[base + t];
        __syncthreads();
        const int m_atoms = int(min(unsigned(THREADS), end - base));
        for (int a = 0; a < m_atoms; ++a) {
          const float4 at = tile[a];
          const float dx = at.x - x, dy2 = at.y - y;
          const float dxy2 = dx * dx + dy2 * dy2;
          if (!(dxy2 < c2)) continue;  // outside the cylinder of the thread's points
#pragma unroll
          for (int m = 0; m < POINTS; ++m) {
            const float dzm = at.z - z[m];
            const float r2 = dxy2 + dzm * dzm;
            if constexpr (LEAN)
              acc[m] = lean_term_add(acc[m], at.w, r2, inv_c2);
            else if (r2 < c2)
              acc[m] += smoothed_term(at.w, r2, inv_c2);
          }
        }
      }
    }
  if (i >= L.n[0] || j >= L.n[1]) return;
#pragma unroll
  for (int m = 0; m < POINTS; ++m)
    if (k0 + m < L.n[2]) potential[L.index(i, j, k0 + m)] = acc[m];
}

// Where a call's time goes, when the environment sets TESSERA_CUTOFF_PHASES:
// events around the binning (memset, count, scan, scatter) and the sum kernel,
// printed to stderr once the sum is done (the call then waits for its
// stream: not under graph capture). Off by default: nothing is recorded and
// nothing waits.
class Phases {
 public:
  explicit Phases(cudaStream_t stream);
  ~Phases();
  Phases(const Phases&) = delete;
  Phases& operator=(const Phases&) = delete;
  void binned();
  void summed(const char* kernel);
  static bool enabled();

 private:
  cudaStream_t stream_;
  cudaEvent_t events_[3] = {};
  bool on_ = false;
};

template <int X_SPLIT, bool LEAN = false, int POINTS = DYN_POINTS>
void run_dynamic(const char* name, const CutoffCall& call) {
  static_assert(REGION % POINTS == 0, "a thread's points stay in its region");
  Phases phases(call.stream);
  const DynamicBins b = dynamic_bins_in(call.workspace, call.spec, X_SPLIT);
  bin_dynamic(call, b);
  phases.binned();
  const BinGrid& g = b.grid;
  const dim3 grid(unsigned(g.regions[0]), unsigned(g.regions[1]), unsigned(g.regions[2]));
  detail::launch(name, cutoff_dynamic_kernel<X_SPLIT, LEAN, POINTS>, grid, REGION * REGION * REGION / POINTS, 0, call.stream, call.spec.lattice.points(),
                 b.sorted, b.starts, g, view_of(call.spec), call.potential);
  phases.summed(name);
}

}  // namespace tessera::cutoff_impl::gpu
