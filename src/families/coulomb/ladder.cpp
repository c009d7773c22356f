// The coulomb ladder, one line per variant: the only place a variant's name,
// step, role and `adds` are written. There is no vendor library for a direct
// Coulomb sum; the seed's own rungs are the baselines.
#include <span>

#include "families/coulomb/contract.hpp"
#include "families/coulomb/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/coulomb/cuda_rungs.hpp"
#endif

namespace tessera::coulomb_impl {

namespace {

using namespace ladder::roles;

bool supports_any(const CoulombSpec&) { return true; }

const CoulombVariant TABLE[] = {
    {{"coulomb", "cpu_scatter", 0, CPU, REFERENCE, "serial scatter: each atom adds to every point, dy^2+dz^2 hoisted per row, the lattice streamed once per atom (seed 000 DCS, Scatter C)", true}, supports_any, cpu::run_scatter},
    {{"coulomb", "cpu_gather", 0, CPU, REFERENCE, "serial gather: each point sums every atom, each output written once, dy, dz recomputed per pair (seed 000 DCS, Gather C)", true}, supports_any, cpu::run_gather},
    {{"coulomb", "cpu_output_oriented", 0, CPU, REFERENCE, "a row at a time, atoms outer: dy^2+dz^2 once per atom and row, the row's sums in cache (seed 000 DCS, Improved Gather C)", true}, supports_any, cpu::run_output_oriented},
    {{"coulomb", "cpu_openmp", 1, CPU, REFERENCE, "the output-oriented loop with OpenMP over rows: no two threads share a point", true}, supports_any, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"coulomb", "scatter_atomics", 2, CUDA, TAUGHT, "a thread per atom, atomicAdd into every point: the warp's 32 atomics hit one address (seed 000 DCS, Scatter CUDA)", false}, supports_scatter_atomics, run_scatter_atomics},
    {{"coulomb", "gather", 3, CUDA, TAUGHT, "a thread per lattice point, atoms from global memory, one warp-wide broadcast read per atom, no atomics (seed 000 DCS, Gather CUDA)", true}, supports_2d_grid, run_gather},
    {{"coulomb", "constant_atoms", 4, CUDA, TAUGHT, "atoms in __constant__ memory, 4000 per launch: broadcast reads, operands straight from the constant bank (seed 000 DCS, constant cache)", true}, supports_2d_grid, run_constant_atoms},
    {{"coulomb", "coarsened4", 5, CUDA, TAUGHT, "4 consecutive points per thread share dy^2+dz^2 and the atom's reads; strided writes (seed 000 DCS, thread coarsening)", true}, supports_2d_grid, run_coarsened4},
    {{"coulomb", "coalesced_coarsened", 6, CUDA, TAUGHT, "8 points per thread a warp apart: coalesced stores; rows computed to the warp's width, bounds test on the store only (seed 000 DCS, memory coalescing + padding)", true}, supports_2d_grid, run_coalesced_coarsened},
    {{"coulomb", "mufu_only", 7, CUDA, PRODUCT, "the split's kernel with every rsqrt on MUFU: 8x2 points per thread, atoms through a shared-memory tile, coincidence test once per atom and row; atom ranges + atomicAdd when the lattice cannot fill the GPU", false}, supports_split, run_mufu_only},
    {{"coulomb", "mufu_fma_split", 7, CUDA, PRODUCT, "3 of 16 rsqrts on the FMA pipe (bit-trick estimate + 3 Newton steps), 13 on MUFU: past the MUFU ceiling at float accuracy (tessera; policy.hpp)", false}, supports_split, run_mufu_fma_split},
    {{"coulomb", "mufu_fma_split_newton2", 7, CUDA, PRODUCT, "4 of 16 rsqrts on the FMA pipe with 2 Newton steps (4.7e-6 per term): cheaper, less accurate (tessera; policy.hpp)", false}, supports_split, run_mufu_fma_split_newton2},
    {{"coulomb", "mufu_fma_split_compensated", 7, CUDA, PRODUCT, "mufu_fma_split with each point's 128-atom tile sums added to Kahan-compensated totals: float rounding no longer grows with the atom count (tessera; policy.hpp)", false}, supports_split, run_mufu_fma_split_compensated},
    {{"coulomb", "mufu_fma_split_shared_rows", 7, CUDA, PRODUCT, "mufu_fma_split with dy^2+dz^2 of the block's rows computed once per atom at the tile load and kept in shared memory, the coincidence test once per tile: two shared loads per atom in the inner loop, the issue slots freed for the FMA-pipe rsqrts (tessera; policy.hpp)", false}, supports_split, run_mufu_fma_split_shared_rows},
    {{"coulomb", "mufu_fma_split_series", 7, CUDA, PRODUCT, "the shared-rows kernel with 4 of 16 rsqrts on the FMA pipe in one series step (r = 1 - x y^2, y (1 - r)^(-1/2) to r^4: 9 instructions, 4.4e-7 per term), 12 on MUFU (tessera; policy.hpp)", false}, supports_split, run_mufu_fma_split_series},
#endif
};

}  // namespace

ladder::Ladder<CoulombVariant>& variants_ladder() {
  static ladder::Ladder<CoulombVariant> ladder{std::span<const CoulombVariant>(TABLE)};
  return ladder;
}

}  // namespace tessera::coulomb_impl
