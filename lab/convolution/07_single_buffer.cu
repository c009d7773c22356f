// Lab row of conv2d (Role::tuning): pipelined_tiles' kernel with one shared
// buffer instead of two. Each block copies its tile, waits, computes and
// stores, then copies the next: within a block the copy and the FMAs take
// turns, as in register_blocked_wide, and only the other resident blocks
// (up to 3 a SM here, half the shared memory each) overlap an SM's copies
// with its FMAs. The control of the product's claim: if pipelined_tiles is
// not faster than this row, the second buffer is not what buys its time
// (occupancy is, or neither is).
#include "convolution/lab_rungs.hpp"
#include "families/convolution/pipelined_tiles.cuh"

namespace tessera::convolution_impl {

namespace {

constexpr const char* NAMES[5] = {
    "conv_pipelined_tiles_kernel<1x1, single buffer>", "conv_pipelined_tiles_kernel<3x3, single buffer>",
    "conv_pipelined_tiles_kernel<5x5, single buffer>", "conv_pipelined_tiles_kernel<7x7, single buffer>",
    "conv_pipelined_tiles_kernel<9x9, single buffer>"};

}  // namespace

bool supports_single_buffer_tiles(const ConvSpec& s) { return pipelined::supports(s); }
void prepare_single_buffer_tiles(const ConvSpec& s) { pipelined::prepare<pipelined::Mode::single_buffer>(s, NAMES); }
void run_single_buffer_tiles(const ConvCall& call) { pipelined::run<pipelined::Mode::single_buffer>(call, NAMES); }

}  // namespace tessera::convolution_impl
