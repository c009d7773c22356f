// Compact / partition / unique step 4 — single_pass_wide: the one-pass select
// kernel (single_pass.cuh: decoupled look-back over tile counts, the input
// read once) with the policy its tuning sweep chose. The API picks it for
// partition; compact and unique go on to steps 5 and 6.
//
// The sweep (one kernel, three policies, compared in one H100 bench run;
// the two not kept are lab rows, lab/compose/select_single_pass_sweep.cu).
// H100, 2^28 int32 (compact x > t 50%, unique runs 50%), % of copy and
// speed-up over cub_select_if / cub_select_unique in the same run
// (docs/results/compose-tuning-int32-h100-2026-11-23.txt):
//
//   policy            tile        look-back poll       status word   blocks/SM   compact        unique
//   single_pass       256 x 4     4/lane, 128 x 16 B   TileStatus    6           64.2%, 0.85x   64.2%, 0.87x
//   single_pass_lean  256 x 4     2/lane,  64 x  8 B   CountStatus   8           69.6%, 0.93x   66.4%, 0.90x
//   single_pass_wide  512 x 4     2/lane,  64 x  8 B   CountStatus   4           71.1%, 0.95x   69.3%, 0.94x
//
// Partition (float x > t 50 / 5%): wide 72.9 / 73.1% of copy, 1.03 / 1.04x
// cub_partition_if; the primary 1.02 / 1.01x, lean 0.99 / 0.98x, the early
// look-back (step 5) 0.91x: 2 blocks per SM against wide's 4, and two
// output streams per tile to stage (docs/results/compose-h100-2026-11-23b.txt).
//
// Why wide: the loss against two_pass's scatter pass (the same tile code at
// about copy speed) was the per-tile look-back. 512-thread tiles (32 KiB of
// 4-byte keys; CUB's sm_90 select tiles are of that size) halve the tiles,
// so the look-backs, tile-counter atomics and status polls per byte; 8-byte
// CountStatus words halve the L2 bytes of each poll. Partition and int64
// unique spill 20-24 bytes under the 4-blocks-per-SM register cap (outside
// the load loop); compact and 4-byte unique do not.
#include "families/compose/compact/single_pass.cuh"

namespace tessera::compose_impl {

namespace {
using WidePolicy = select_single_pass::Policy<512, 4, 2, 4, gpu::CountStatus>;
}  // namespace

void run_select_single_pass_wide(const Call& call) { select_single_pass::run<WidePolicy>(call); }
std::size_t ws_select_single_pass_wide(const Spec& s) { return select_single_pass::workspace_bytes<WidePolicy>(s); }
bool supports_select_single_pass_wide(const Spec& s) { return is_select_family(s); }

}  // namespace tessera::compose_impl
