// The MRI-Q ladder, one line per variant: the only place a variant's name,
// step, role and `adds` are written. CPU rungs; the CUDA rungs in CUDA
// builds. No vendor library computes MRI-Q: the ladder has no vendor row.
#include <climits>
#include <span>

#include "families/mriq/contract.hpp"
#include "families/mriq/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/mriq/cuda_rungs.hpp"
#endif

namespace tessera::mriq_impl {

namespace {

using namespace ladder::roles;

bool any_size(const MriqSpec&) { return true; }
std::size_t no_workspace(const MriqSpec&) { return 0; }

#if TESSERA_HAVE_CUDA
// The AoS kernels count samples in an int (padded to 4 and to a chunk).
bool int_samples(const MriqSpec& s) { return s.num_k <= std::size_t(INT_MAX) - 4096; }
#define TESSERA_RUNG(name, ws) int_samples, ws, run_##name
#endif

const MriqVariant TABLE[] = {
    {{"mriq", "cpu_reference", 0, CPU, REFERENCE, "serial, voxel outer and sample inner, all in double: the definition Q(x) = sum |phi|^2 exp(i 2 pi k.x) (seed 000 MRI, Core Computation in C)", true}, any_size, no_workspace, cpu::run_reference},
    {{"mriq", "cpu_openmp", 1, CPU, REFERENCE, "the reference's double evaluation, OpenMP over voxels (same bits as cpu_reference)", true}, any_size, no_workspace, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"mriq", "scatter_atomics", 2, CUDA, TAUGHT, "one thread per k-space sample, atomicAdd into every voxel's Q: the bad example, contended L2 atomics (seed 000 MRI, Map to GPU threads, idea 1)", false}, any_size, ws_none, run_scatter_atomics},
    {{"mriq", "fission_gather", 3, CUDA, TAUGHT, "loop fission (|phi|^2 in its own kernel) and interchange: a thread per voxel, no atomics; Q and x still in global memory each sample (seed 000 MRI, loop fission/splitting)", true}, TESSERA_RUNG(fission_gather, ws_phi_mag_bytes)},
    {{"mriq", "registers", 4, CUDA, TAUGHT, "the voxel's x, y, z and Q in registers, one load and one store each (seed 000 MRI, Use register)", true}, TESSERA_RUNG(registers, ws_phi_mag_bytes)},
    {{"mriq", "constant_chunks", 5, CUDA, TAUGHT, "k-space in constant memory, 2048-sample chunks of four arrays, a launch per chunk; broadcast to the warp (seed 000 MRI, Constant cache)", true}, TESSERA_RUNG(constant_chunks, ws_phi_mag_bytes)},
    {{"mriq", "aos_constant", 6, CUDA, TAUGHT, "k-space as an array of structures {kx, ky, kz, |phi|^2}: one 16-byte constant load per sample (seed 000 MRI, AoS)", true}, TESSERA_RUNG(aos_constant, ws_aos_bytes)},
    {{"mriq", "coarsened", 7, CUDA, TAUGHT, "thread coarsening: 4 voxels per thread, 256 apart (coalesced); a sample load serves 4 voxels (seed 000 MRI, Thread Coarsening)", true}, TESSERA_RUNG(coarsened, ws_aos_bytes)},
    {{"mriq", "mufu_intrinsics", 8, CUDA, TAUGHT, "__sinf/__cosf through MUFU instead of sincosf: MUFU-bound; error vs double in the note (seed 000 MRI, Instruction: SFU)", true}, TESSERA_RUNG(mufu_intrinsics, ws_aos_bytes)},
    {{"mriq", "global_aos", 9, CUDA, TAUGHT, "the packed samples read from global memory (warp-uniform __ldg, L1 broadcast): one launch, no per-chunk copies, no process-wide constant bank; small grids cut the samples into slices summed in order", true}, TESSERA_RUNG(global_aos, ws_aos_split_bytes)},
    {{"mriq", "turns_mufu", 10, CUDA, TAUGHT, "argument in turns, reduced exactly to [-0.5, 0.5] with an FMA-pipe rint, then MUFU on [-pi, pi]: the reduction's accuracy", true}, TESSERA_RUNG(turns_mufu, ws_aos_split_bytes)},
    {{"mriq", "turns_poly", 10, CUDA, TAUGHT, "argument in turns, exact reduction, near-minimax polynomial sin/cos on the FMA pipe, no MUFU: the FMA-pipe rate and the polynomial's error", true}, TESSERA_RUNG(turns_poly, ws_aos_split_bytes)},
    {{"mriq", "mufu_fma_split", 11, CUDA, PRODUCT, "the MUFU/FMA split: 1 sample in 8 on a short FMA-pipe polynomial, 7 on MUFU, so the issue slots MUFU leaves idle do work (ratio in policy.hpp)", true}, TESSERA_RUNG(mufu_fma_split, ws_aos_split_bytes)},
#endif
};

#undef TESSERA_RUNG

}  // namespace

ladder::Ladder<MriqVariant>& variants_ladder() {
  static ladder::Ladder<MriqVariant> ladder{std::span<const MriqVariant>(TABLE)};
  return ladder;
}

}  // namespace tessera::mriq_impl
