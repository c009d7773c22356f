// The tuning sweep of the one-pass select kernel
// (src/families/compose/compact/single_pass.cuh): the two policies the
// product does not use. The sweep's table, with the measurements that chose
// single_pass_wide, is in src/families/compose/compact/04_single_pass.cu.
//
// single_pass (the primary, measured first): the scan's look-back policy,
//   256 threads x 4 vectors, 4 predecessors per lane (128 x 16-byte
//   TileStatus<uint64> slots = 2 KiB per poll). It kept the 40 registers
//   (6 blocks per SM) it had when measured: without a minimum-blocks bound
//   ptxas took 40; an explicit bound of 1 lets it grow to 55.
//   H100, 2^28 float x > t 50%: 64.9% of copy, 0.84x cub_select_if
//   (docs/results/compose-h100-2026-11-23.txt); the loss is the per-tile
//   look-back (two_pass's scatter pass, the same tile without it, runs at
//   about copy speed).
// single_pass_lean: 8-byte CountStatus words, 2 predecessors per lane
//   (64 x 8 B = 512 B per poll; the window still covers 1 MiB of input),
//   __launch_bounds__(256, 8): 32 registers, 8 blocks per SM.
//   H100, 2^28 int32 x > t 50%: 69.6% of copy, 0.93x cub_select_if; unique
//   int32 runs 50% 0.90x (docs/results/compose-tuning-int32-h100-2026-11-23.txt).
//   Rejected for single_pass_wide (the same look-back on 512-thread tiles).
#include "families/compose/compact/single_pass.cuh"
#include "lab_rungs.hpp"

namespace tessera::compose_impl {

namespace {
using PrimaryPolicy = select_single_pass::Policy<gpu::SelectPolicy::BLOCK_THREADS, gpu::SelectPolicy::VECS,
                                                 gpu::SelectPolicy::LOOKBACK_PER_LANE, 6,
                                                 gpu::TileStatus<unsigned long long>>;
using LeanPolicy = select_single_pass::Policy<256, 4, 2, 8, gpu::CountStatus>;
}  // namespace

void run_select_single_pass(const Call& call) { select_single_pass::run<PrimaryPolicy>(call); }
std::size_t ws_select_single_pass(const Spec& s) { return select_single_pass::workspace_bytes<PrimaryPolicy>(s); }
bool supports_select_single_pass(const Spec& s) { return is_select_family(s); }

void run_select_single_pass_lean(const Call& call) { select_single_pass::run<LeanPolicy>(call); }
std::size_t ws_select_single_pass_lean(const Spec& s) { return select_single_pass::workspace_bytes<LeanPolicy>(s); }
bool supports_select_single_pass_lean(const Spec& s) { return is_select_family(s); }

}  // namespace tessera::compose_impl
