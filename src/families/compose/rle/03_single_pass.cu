// rle step 3 — tessera's run-length encoding: one pass with decoupled
// look-back (the kernel: single_pass.cuh), with its primary policy: the
// (runs, last start) state in lookback.cuh's TileStatus<RunState> (a flag
// array and value arrays, release/acquire ordered) and the select tiles'
// look-back window of 4 predecessors per lane.
//
// Expected (H100, 2^28 int32, 10% run heads): 85-90% of copy, >= 1.1x
// cub::DeviceRunLengthEncode::Encode. Measured: 22.5% of copy, 0.67x
// (docs/results/compose-h100-2026-11-23.txt): each poll costs 2 serial L2
// round trips per slot (an acquire orders every later load). The packed-
// status policy (lab: single_pass_lean, one 128-bit load per slot) measured
// 52.9% of copy, 1.58x CUB in the headline runs
// (docs/results/headline-h100-2026-11-23f.txt); the API still picks this one
// (docs/compose.md, open work).
#include "families/compose/rle/single_pass.cuh"

namespace tessera::compose_impl {

namespace {
using PrimaryPolicy = rle_single_pass::Policy<rle_single_pass::RunStatus, 4>;
}  // namespace

void run_rle_single_pass(const Call& call) { rle_single_pass::run<PrimaryPolicy>(call); }
std::size_t ws_rle_single_pass(const Spec& s) { return rle_single_pass::workspace_bytes<PrimaryPolicy>(s); }
bool supports_rle_single_pass(const Spec& s) { return s.family == Family::rle && family_supports(s); }

}  // namespace tessera::compose_impl
