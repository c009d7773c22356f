// The stencil7 ladder, one line per variant: the only place a variant's name,
// step, role and `adds` are written. CPU rungs, then the CUDA rungs (CUDA
// builds only). No vendor library ships a 7-point stencil: the bound to reach
// is the copy bandwidth (one sweep) and 1.5x what it allows (fused sweeps).
#include <span>

#include "families/stencil7/contract.hpp"
#include "families/stencil7/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/stencil7/cuda_rungs.hpp"
#endif

namespace tessera::stencil7_impl {

namespace {

using namespace ladder::roles;

bool supports_any(const Stencil7Spec&) { return true; }

#if TESSERA_HAVE_CUDA
#define TESSERA_RUNG(name) supports_##name, ws_##name, run_##name
#endif

const Stencil7Variant TABLE[] = {
    {{"stencil7", "cpu_reference", 0, CPU, REFERENCE, "serial sweeps over every cell, boundary copied, ping-pong between out and one workspace grid (seed 000 7-point stencil: the definition)", true}, supports_any, cpu::workspace_bytes, cpu::run_reference},
    {{"stencil7", "cpu_openmp", 1, CPU, REFERENCE, "the same sweeps with OpenMP over the z planes of each sweep; sweeps stay in order", true}, supports_any, cpu::workspace_bytes, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"stencil7", "naive", 2, CUDA, TAUGHT, "one thread per cell, 7 global loads each, (x, y, z) from the indices (seed 000 7-point stencil: the starting point)", true}, TESSERA_RUNG(naive)},
    {{"stencil7", "z_pencil", 3, CUDA, TAUGHT, "thread coarsening: a thread walks its (x, y) column along z, index and boundary test computed once (seed 000 7-point stencil, thread granularity)", true}, TESSERA_RUNG(z_pencil)},
    {{"stencil7", "register_tiling", 4, CUDA, TAUGHT, "previous/current/next cells of the column in registers: 5 global loads per cell instead of 7 (seed 000 7-point stencil, register tiling)", true}, TESSERA_RUNG(register_tiling)},
    {{"stencil7", "shared_tiling", 5, CUDA, TAUGHT, "the current plane's 32x16 tile in shared memory, halo cells read through L2: 1 global load per cell (seed 000 7-point stencil, shared memory tiling)", true}, TESSERA_RUNG(shared_tiling)},
    {{"stencil7", "temporal_blocking", 6, CUDA, PRODUCT, "2.5D temporal blocking: 4 (float) or 2 (double) sweeps fused per pass over memory, a wavefront of levels along z in registers (renamed, the z loop unrolled by 3) + shared memory, redundant halo recomputed, no per-cell test in warps inside the grid", true}, TESSERA_RUNG(temporal_blocking)},
#endif
};

#undef TESSERA_RUNG

}  // namespace

ladder::Ladder<Stencil7Variant>& variants_ladder() {
  static ladder::Ladder<Stencil7Variant> ladder{std::span<const Stencil7Variant>(TABLE)};
  return ladder;
}

}  // namespace tessera::stencil7_impl
