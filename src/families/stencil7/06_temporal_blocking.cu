// Stencil7 step 6 — tessera's best: temporal blocking, 2.5D (tiled in x-y,
// streamed along z), fusing STEPS sweeps in one pass over memory.
//
// The block (temporal_kernel.cuh, which says how): a padded x-y tile of
// PX x PY columns, the IX x IY interior written, a halo of STEPS cells per
// side recomputed; streamed along z with the STEPS sweep levels in a
// wavefront, a thread's ROWS columns of three planes per level in
// registers, x and outer-row y neighbours through shared memory, one
// barrier per z step. This file launches it and chains the passes.
//
// DRAM traffic per pass: PX*PY/(IX*IY) reads and one write per cell, for
// STEPS sweeps. float, STEPS = 4, 64 x 32 tile: 2048/1344 = 1.52 reads, so
// (1.52 + 1) * 4 B / 4 sweeps = 2.5 B per cell-sweep instead of 8: the copy
// bound would allow ~1,200 G cells/s. Measured on the H100 (512^3, 8 sweeps,
// bench-stencil7.txt): 2.206 ms, 487 G cells/s, 4x below that bound: the
// shared-memory pipe and issue bind first. With the y neighbours of every
// thread's ROWS = 4 rows as 4 separate shared loads, a cell-level cost 4
// shared loads + 1 store (x 1.52 halo x 1.06 z re-read: ~1.2 ms of the 2.2
// on the shared pipe alone); with the inner rows' y neighbours in registers
// it costs 2.5 loads + 1 store, 30% fewer. Measured on the H100: 2.206 ->
// 2.095 ms (513 G cells/s, 136% of the one-sweep copy bound), not the 1.6-1.7
// predicted: instruction issue binds (docs/stencil7.md). Third version: the
// z loop unrolled by 3 (planes renamed, not moved) and test-free steps for
// tiles inside the grid: SASS instructions per step 449 -> 228 (interior
// warps), per cell-sweep 45.4 -> 24.6 at 512^3. Measured on the H100: 1.912
// ms for 512^3 float 8 sweeps (149.7% of the one-sweep bound), not the
// 1.15-1.45 predicted: Nsight Compute shows issue slots 45% busy (latency
// at 8 warps a scheduler) and a partial fourth wave of blocks
// (docs/stencil7.md, Measured).
// Fourth version, this one: the z range is cut into chunks (each re-reading
// STEPS planes below and above it) whose count fills whole waves of resident
// blocks (temporal::z_chunks): 512^3 float on the H100, 6 chunks of 86
// planes, 1320 blocks = 5 waves of 264, not 880 = 3.33 waves (Nsight
// Compute: SMs active 92% of the elapsed cycles with the partial fourth
// wave). Measured on the H100 (docs/results/stencil7-h100-2026-11-28b.json):
// 1.834 ms for 512^3 float 8 sweeps, 585 G cells/s, 155.5% of the one-sweep
// bound (target 150%: met), 4.1% less time than 1.912 ms. Predicted
// 1.65-1.83 ms; measured at the slow end, the case where the partial wave
// cost the SMs' idle share (8%), not a whole wave, less 3.7% more steps
// (the extra z re-read).
//
// Sweep counts that are not a multiple of STEPS: the remainder runs as
// passes of fewer fused sweeps (the same kernel with STEPS = 2, 1). A pass of
// one sweep (a one-sweep call, or a remainder of 1) runs the 16-byte-vector
// sweep of vector_sweep.cu where the grid and pointers allow it: one cell per
// thread had too few bytes in flight in float (71% of copy measured on the
// H100 for 512^3, bench-stencil7.txt), which the tile's halo cannot fix.
#include <mutex>

#include "families/stencil7/common.cuh"
#include "families/stencil7/cuda_rungs.hpp"
#include "families/stencil7/temporal_kernel.cuh"
#include "families/stencil7/vector_sweep.hpp"
#include "tessera/blocks/device.cuh"

namespace tessera::stencil7_impl {

namespace {

using temporal::PX;
using temporal::PY;
using temporal::TY;
using temporal::ZCHUNK;

// Fused sweeps per pass: float 4 (68 KiB of shared memory: 4 levels x 2
// slots x 34 x 64 x 4 B), double 2 (the same).
template <class T>
constexpr int max_steps() { return sizeof(T) == 4 ? 4 : 2; }

// Blocks per SM the registers must allow (64 registers a thread for 2): 32
// warps to hide the loads' latency. Float fits, double S = 1 too; double
// S = 2 would spill in the loop, so 1 (16 warps).
template <class T, int STEPS>
constexpr int MIN_BLOCKS = (sizeof(T) == 4 || STEPS == 1) ? 2 : 1;

template <int STEPS>
constexpr std::size_t smem_bytes(std::size_t elem) { return temporal::smem_elems<STEPS>() * elem; }

template <class T, int STEPS>
__global__ __launch_bounds__(PX* TY, MIN_BLOCKS<T, STEPS>) void stencil7_temporal(const T* __restrict__ in,
                                                                                  T* __restrict__ out,
                                                                                  temporal::BlockGrid g, T c0, T c1) {
  extern __shared__ unsigned char smem_raw[];
  temporal::run_block<T, STEPS>(in, out, g, c0, c1, reinterpret_cast<T*>(smem_raw));
}

// Raises the kernel's dynamic shared memory limit once (64 KiB is above the
// 48 KiB default) and returns the blocks of it an SM holds (2 for float:
// registers and shared memory), both once per process (the first device's
// answer; host calls only, so a stream being captured is untouched).
template <class T, int STEPS>
int allow_shared_memory() {
  static std::once_flag once;
  static int per_sm = 0;
  std::call_once(once, [] {
    TESSERA_CUDA(cudaFuncSetAttribute(stencil7_temporal<T, STEPS>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(smem_bytes<STEPS>(sizeof(T)))));
    TESSERA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stencil7_temporal<T, STEPS>, PX * TY,
                                                               smem_bytes<STEPS>(sizeof(T))));
  });
  return per_sm;
}

template <class T, int STEPS>
void launch_pass(const Stencil7Call& call, const void* src, void* dst) {
  const Stencil7Spec& s = call.spec;
  const std::size_t slots = std::size_t(allow_shared_memory<T, STEPS>()) * std::size_t(tessera::gpu::sm_count());
  const temporal::PassShape shape = temporal::pass_shape<STEPS>(s.nx, s.ny, s.nz, sizeof(T), slots);
  detail::launch("stencil7_temporal", stencil7_temporal<T, STEPS>, dim3(shape.blocks_x, shape.blocks_y), dim3(PX, TY),
                 smem_bytes<STEPS>(sizeof(T)), call.stream, s.cells(), static_cast<const T*>(src),
                 static_cast<T*>(dst), shape.grid, T(s.c0), T(s.c1));
}

// The passes for `sweeps`: as many of max_steps<T>() fused sweeps as fit,
// then the remainder in passes of 2 and 1 (float: 3 = 2 + 1).
template <class T>
int passes_of(int sweeps) {
  constexpr int M = max_steps<T>();
  const int rest = sweeps % M;
  return sweeps / M + rest / 2 + rest % 2;
}

template <class T>
int fused_in_pass(int sweeps, int k) {  // sweeps fused by pass k (1-based)
  constexpr int M = max_steps<T>();
  const int full = sweeps / M;
  if (k <= full) return M;
  const int rest = sweeps % M;
  return (k - full <= rest / 2) ? 2 : 1;
}

}  // namespace

int temporal_block_sweeps(Dtype dtype) { return dtype == Dtype::f32 ? max_steps<float>() : max_steps<double>(); }

bool supports_temporal_blocking(const Stencil7Spec& s) {
  // grid.x holds the tile count; grid.y the z chunks.
  constexpr std::size_t MIN_IX = PX - 2 * 4, MIN_IY = PY - 2 * 4;
  const std::size_t tiles = ((s.nx + MIN_IX - 1) / MIN_IX) * ((s.ny + MIN_IY - 1) / MIN_IY);
  return gpu::dims_fit(s) && tiles <= std::size_t(INT_MAX) && (s.nz + ZCHUNK - 1) / ZCHUNK <= 65535;
}

std::size_t ws_temporal_blocking(const Stencil7Spec& s) {
  return ping_pong_bytes(s, s.dtype == Dtype::f32 ? passes_of<float>(s.sweeps) : passes_of<double>(s.sweeps));
}

void run_temporal_blocking(const Stencil7Call& call) {
  if (call.spec.sweeps == 0) return gpu::copy_grid(call);
  gpu::with_type(call.spec.dtype, [&]<class T>() {
    const int sweeps = call.spec.sweeps;
    ping_pong(call, passes_of<T>(sweeps), [&](int k, const void* src, void* dst) {
      switch (fused_in_pass<T>(sweeps, k)) {
        case 4:
          if constexpr (max_steps<T>() >= 4) launch_pass<T, 4>(call, src, dst);
          break;
        case 2: launch_pass<T, 2>(call, src, dst); break;
        default:
          if (vector_sweep_fits(call.spec, src, dst)) launch_vector_sweep(call, src, dst);
          else launch_pass<T, 1>(call, src, dst);
          break;
      }
    });
  });
}

}  // namespace tessera::stencil7_impl
