// rle's single-pass kernel (src/families/compose/rle/single_pass.cuh) with
// its first status: the (runs, last start) state in lookback.cuh's
// TileStatus<RunState> (a flag array and value arrays, release/acquire
// ordered) and the select tiles' look-back window of 4 predecessors per
// lane: variant single_pass, the product's single_pass_lean before its
// packed status.
//
// Expected (H100, 2^28 int32, 10% run heads): 85-90% of copy, >= 1.1x
// cub::DeviceRunLengthEncode::Encode. Measured: 22.5% of copy, 0.67x: each
// poll costs 2 serial L2 round trips per slot (an acquire orders every later
// load). docs/compose.md has the figures beside single_pass_lean's.
#include "families/compose/rle/single_pass.cuh"
#include "lab_rungs.hpp"

namespace tessera::compose_impl {

namespace {
using PrimaryPolicy = rle_single_pass::Policy<rle_single_pass::RunStatus, 4>;
}  // namespace

void run_rle_single_pass(const Call& call) { rle_single_pass::run<PrimaryPolicy>(call); }
std::size_t ws_rle_single_pass(const Spec& s) { return rle_single_pass::workspace_bytes<PrimaryPolicy>(s); }
bool supports_rle_single_pass(const Spec& s) { return supports_rle_single_pass_lean(s); }

}  // namespace tessera::compose_impl
