// The cutoff ladder, one line per variant: the only place a variant's name,
// step, role and `adds` are written. CPU rungs always; the CUDA rungs in CUDA
// builds.
#include <span>

#include "families/cutoff/contract.hpp"
#include "families/cutoff/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/cutoff/cuda_rungs.hpp"
#endif

namespace tessera::cutoff_impl {

namespace {

using namespace ladder::roles;

bool supports_cpu(const CutoffSpec&) { return true; }
std::size_t no_workspace(const CutoffSpec&) { return 0; }

#if TESSERA_HAVE_CUDA
#define TESSERA_RUNG(name) supports_##name, workspace_##name, run_##name
#endif

const CutoffVariant TABLE[] = {
    {{"cutoff", "cpu_reference", 0, CPU, REFERENCE, "serial cell list (cells >= c/2, the 5^3 around a point), terms summed in double (seed 000 Cutoff Biomolecules: the definition)", true}, supports_cpu, no_workspace, cpu::run_reference},
    {{"cutoff", "cpu_openmp", 1, CPU, REFERENCE, "the cell list, OpenMP over lattice rows (dynamic schedule)", true}, supports_cpu, no_workspace, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"cutoff", "direct_smoothed", 2, CUDA, TAUGHT, "every atom for every point with the same smoothing, atoms tiled in shared memory: the direct sum binning beats, and the check on small systems (seed 000 Cutoff: check against DCS)", true}, TESSERA_RUNG(direct_smoothed)},
    {{"cutoff", "const_bins", 3, CUDA, TAUGHT, "host bins of 8 atoms (128 B) + host overflow list; a thread per point reads the bins of its cutoff cube, stops at the first empty slot (seed 000 Cutoff: constant bins)", true}, TESSERA_RUNG(const_bins)},
    {{"cutoff", "offsets_constant", 4, CUDA, TAUGHT, "a block per 8^3 region; the neighbour-bin offsets of its supersphere computed once on the host, in constant memory (seed 000 Cutoff: nbr bin offsets)", true}, TESSERA_RUNG(offsets_constant)},
    {{"cutoff", "shared_tiles", 5, CUDA, TAUGHT, "128 threads x 4 points along z per region; 4 bins (512 B) per shared-memory batch, read once per block (seed 000 Cutoff: shared memory bin tiles)", true}, TESSERA_RUNG(shared_tiles)},
    {{"cutoff", "cylinder", 6, CUDA, TAUGHT, "dx^2 + dy^2 shared by a thread's 4 points: atoms outside the cylinder skip the 4 tests (seed 000 Cutoff: ILP, cylinder test)", true}, TESSERA_RUNG(cylinder)},
    {{"cutoff", "gpu_binning", 7, CUDA, TAUGHT, "bins built on the GPU with atomics, counter read before the atomic, overflow list on the GPU: no host round trip (seed 000 Cutoff: parallel binning)", false}, TESSERA_RUNG(gpu_binning)},
    {{"cutoff", "dynamic_bins", 8, CUDA, TAUGHT, "count, tessera::exclusive_scan over the bin counts, scatter: no capacity, no empty slots, no overflow; one run of atoms per bin row (seed 000 Cutoff: dynamic binning)", false}, TESSERA_RUNG(dynamic_bins)},
    {{"cutoff", "sorted_cells", 9, CUDA, PRODUCT, "tessera: atoms sorted by cells a quarter bin wide along x, so each row's run follows the cutoff sphere (2.54x the sphere's atoms staged instead of 2.8x)", false}, TESSERA_RUNG(sorted_cells)},
    {{"cutoff", "sorted_cells_lean8", 10, CUDA, PRODUCT, "tessera: step 10's lean term with 8 points per thread (a region's z column, 64 threads): the z-independent work per atom (read, dx, dy, cylinder test) spread over 8 points", false}, TESSERA_RUNG(sorted_cells_lean8)},
    {{"cutoff", "sorted_cells_lean", 10, CUDA, PRODUCT, "tessera: step 9 with a branchless pair term (s = max(1 - r^2/c^2, 0)), constants in registers and the bare MUFU rsqrt: ~42 instead of ~69 issue slots per atom in the cylinder; the API's pick", false}, TESSERA_RUNG(sorted_cells_lean)},
#endif
};

#undef TESSERA_RUNG

}  // namespace

ladder::Ladder<CutoffVariant>& variants_ladder() {
  static ladder::Ladder<CutoffVariant> ladder{std::span<const CutoffVariant>(TABLE)};
  return ladder;
}

}  // namespace tessera::cutoff_impl
