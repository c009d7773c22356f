// Coulomb step 7, tessera's best: the reciprocal square roots split between
// the special-function unit and the FMA pipe. Step 6 issues one MUFU.RSQ per
// pair and about 4 other instructions: MUFU (16 per clock per SM on the H100)
// is the limit while the issue slots (128 per clock) sit a third idle. Here
// FMA_POINTS of each thread's points take a bit-trick estimate refined by
// Newton steps on the FMA pipe (common.cuh, fma_rsqrt), which costs issue
// slots but no MUFU: the ratio in policy.hpp balances the two limits.
//
// Also different from step 6: atoms are read from global memory through a
// shared-memory tile of 128 (one load per thread, then broadcast reads), so
// one launch covers every atom and concurrent calls on different streams do
// not share a __constant__ array; each thread takes POINTS_X points a warp
// apart in ROWS rows, which shares the atom's dz^2 and its tile read between
// POINTS_X x ROWS pairs; and the coincident-pair test runs once per atom and
// row (dy^2 + dz^2 below MIN_R2: almost never), not once per pair. The
// compensated form adds each tile's float sums to Kahan-compensated totals.
//
// The shared-rows rows (split_kernel.cuh) move dz, dy, dy^2 + dz^2 and the
// coincidence test out of the inner loop into the tile load: measured on
// the H100, the per-atom kernel's splits ran out of issue slots (96.1 and
// 98.6 % of the MUFU ceiling), and ~11 instructions per atom and warp fewer
// leave room for more FMA-pipe rsqrts. The series rows use the FMA-pipe
// rsqrt's one series step (common.cuh): 2 Newton steps' cost, 4.4e-7 per
// term.
//
// A lattice too small to fill the GPU (the 2D slice: 32 blocks) splits the
// atoms into ranges, one block per range and point tile, and adds the
// ranges' partial sums with atomicAdd into a zeroed output: their order is
// not fixed, so these rows are not bitwise deterministic there (they are
// where the lattice alone fills the GPU: one range, plain stores).
#include "families/coulomb/split_kernel.cuh"
#include "families/coulomb/cuda_rungs.hpp"
#include "families/coulomb/policy.hpp"

namespace tessera::coulomb_impl {

namespace {
using split::run_split;
using split::WARPS;
}  // namespace

#define TESSERA_COULOMB_SPLIT(P) P.points_x, P.rows, P.fma_points, P.newton, P.compensated, P.shared_rows

bool supports_split(const CoulombSpec& s) {
  return detail::div_up(s.lattice.ny, std::size_t(WARPS) * policy::SPLIT.rows) <= GRID_YZ_MAX &&
         detail::div_up(s.lattice.ny, std::size_t(WARPS) * policy::SPLIT_NEWTON2.rows) <= GRID_YZ_MAX &&
         detail::div_up(s.lattice.ny, std::size_t(WARPS) * policy::MUFU_ONLY.rows) <= GRID_YZ_MAX &&
         detail::div_up(s.lattice.ny, std::size_t(WARPS) * policy::SPLIT_SHARED_ROWS.rows) <= GRID_YZ_MAX &&
         detail::div_up(s.lattice.ny, std::size_t(WARPS) * policy::SPLIT_SERIES.rows) <= GRID_YZ_MAX &&
         detail::div_up(s.lattice.ny, std::size_t(WARPS) * policy::SPLIT_COMPENSATED.rows) <= GRID_YZ_MAX;
}

void run_mufu_fma_split(const CoulombCall& call) {
  run_split<TESSERA_COULOMB_SPLIT(policy::SPLIT)>(call, "coulomb_mufu_fma_split_kernel");
}
void run_mufu_fma_split_newton2(const CoulombCall& call) {
  run_split<TESSERA_COULOMB_SPLIT(policy::SPLIT_NEWTON2)>(call, "coulomb_mufu_fma_split_kernel<newton2>");
}
void run_mufu_fma_split_compensated(const CoulombCall& call) {
  run_split<TESSERA_COULOMB_SPLIT(policy::SPLIT_COMPENSATED)>(call, "coulomb_mufu_fma_split_kernel<compensated>");
}
void run_mufu_fma_split_shared_rows(const CoulombCall& call) {
  run_split<TESSERA_COULOMB_SPLIT(policy::SPLIT_SHARED_ROWS)>(call, "coulomb_split_shared_rows_kernel");
}
void run_mufu_fma_split_series(const CoulombCall& call) {
  run_split<TESSERA_COULOMB_SPLIT(policy::SPLIT_SERIES)>(call, "coulomb_split_shared_rows_kernel<series>");
}
void run_mufu_only(const CoulombCall& call) {
  run_split<TESSERA_COULOMB_SPLIT(policy::MUFU_ONLY)>(call, "coulomb_mufu_fma_split_kernel<mufu only>");
}

#undef TESSERA_COULOMB_SPLIT

}  // namespace tessera::coulomb_impl
