// Step 7 — tessera's persistent, double-buffered 2D convolution for square
// masks of 1, 3, 5, 7, 9 taps (tessera). register_blocked_wide measured
// time = copy time + FMA time on the H100 (5x5: 0.1785 + 0.0549 = 0.233 ms,
// measured 0.234): each block copies its tile, waits, computes, stores and
// exits, so an SM's memory and FP32 pipes take turns. Here:
//
// - Persistent blocks (grid = SMs x resident blocks, at most the tiles) walk
//   the output tiles in row-major order (the ~4 tile rows in flight share
//   their halo rows in L2): block b's first tile is b, every later one a
//   ticket from a counter in the workspace (atomicAdd, drawn a round ahead),
//   so an SM whose blocks drain their tiles sooner takes more (the first
//   version's fixed walk b, b + grid, ... left SMs idle 8.9 % of the 5x5
//   time, ncu: the least busy SM 24 % under the average). Two shared buffers per block: the copy of the
//   next tile is issued (cp.async, one commit group) before this tile's
//   FMAs, so the load of tile k + 1 overlaps the compute of tile k; the
//   second resident block on the SM overlaps too. Expected time: about
//   max(copy, FMA) instead of their sum.
// - 4 columns x 8 rows per thread (a 128 x 64 output tile per 32 x 8
//   block): an input row of the window is 3 float4 shared loads (12 values,
//   4 + mask - 1 used) that feed 4 x mask FMAs per output row it touches:
//   9x9: 48 LDS.128 for 2,592 FFMA per thread and tile (register_blocked_wide:
//   80 LDS.64 for 1,296).
// - The tile is copied in 16-byte chunks: its shared row starts 4 columns
//   left of the tile (a multiple of 4 floats: every chunk is 16-byte aligned
//   on both sides when the pitch is a multiple of 4 floats and the input
//   16-byte aligned), 10 cp.async per thread per 9x9 tile, without tests for
//   interior tiles, instead of ~21 four-byte ones with ghost tests (~600
//   instructions a thread in register_blocked_wide, a quarter of its issue).
//   A chunk partly past the right edge copies its inside floats and
//   zero-fills the rest (cp.async's source size); ghost chunks copy nothing
//   and zero-fill. Other pitches/alignments copy 4 bytes at a time (same
//   kernel, a uniform flag).
// - Taps are kernel parameters (constant bank, loaded to uniform registers
//   once a tile): FFMA operands without a per-FMA load.
//
// SASS (sm_90, per thread and interior 9x9 tile): 2,592 FFMA of ~2,914
// instructions (compute region 2,712 with the 48 LDS.128, copy and loop
// ~140, stores ~62): 89 % FFMA; 5x5: 800 of ~1,056. 80 / 64 registers, no
// spills (with the counter's atomic in the loop the 9x9 kernel takes 96,
// its FMA region the same: still 2 blocks a SM, which shared memory sets). Bottleneck expected: 5x5 memory (FMA issue ~0.07 ms): predicted
// ~0.19-0.21 ms = 85-94 % of copy on the H100 at 8192^2; 9x9 both pipes at
// once (copy 0.1785 ms, FFMA issue 2,914 / 2,592 x 0.1778 = 0.200 ms):
// predicted ~0.20-0.23 ms = 77-89 % of FP32. Measured (H100, fixed walk):
// 5x5 0.2226 ms (80.3 %), 9x9 0.2551 ms (69.6 %); the counter: predicted
// 5x5 ~0.21, 9x9 ~0.25 (docs/convolution.md "pipelined_tiles: measured").
#include "families/convolution/cuda_rungs.hpp"
#include "families/convolution/pipelined_tiles.cuh"

namespace tessera::convolution_impl {

namespace {

constexpr const char* NAMES[5] = {"conv_pipelined_tiles_kernel<1x1>", "conv_pipelined_tiles_kernel<3x3>",
                                  "conv_pipelined_tiles_kernel<5x5>", "conv_pipelined_tiles_kernel<7x7>",
                                  "conv_pipelined_tiles_kernel<9x9>"};

}  // namespace

bool supports_pipelined_tiles(const ConvSpec& s) { return pipelined::supports(s); }

// The dynamic tile walk's counter (zeroed by run on the call's stream).
std::size_t ws_pipelined_tiles(const ConvSpec&) { return pipelined::WALK_WORKSPACE_BYTES; }

// The occupancy query and the shared-memory opt-in (cached) happen here,
// outside any capture; run() then finds them cached.
void prepare_pipelined_tiles(const ConvSpec& s) { pipelined::prepare<pipelined::Mode::product>(s, NAMES); }

void run_pipelined_tiles(const ConvCall& call) { pipelined::run<pipelined::Mode::product>(call, NAMES); }

}  // namespace tessera::convolution_impl
