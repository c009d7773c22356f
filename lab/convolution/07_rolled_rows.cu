// Lab row of conv2d (Role::tuning): pipelined_tiles with its FMA loop
// rolled over the mask's rows. The product unrolls the whole window (9x9:
// 2,592 FFMA, ~41 KB of straight code a tile, more than a Hopper SM
// partition's L0 instruction cache); this row keeps one mask row's work
// unrolled (~5 KB for 9x9) at the price of reloading each window row once
// for every mask row (9x9: 216 LDS.128 instead of 48) and the row's taps
// (LDC with a register offset): ~3,150 instructions a 9x9 tile per
// thread against ~2,914 (SASS), 8 % more issue slots. If this row beats the
// product, instruction fetch, not issue, limits the product.
#include "convolution/lab_rungs.hpp"
#include "families/convolution/pipelined_tiles.cuh"

namespace tessera::convolution_impl {

namespace {

constexpr const char* NAMES[5] = {
    "conv_pipelined_tiles_kernel<1x1, rolled rows>", "conv_pipelined_tiles_kernel<3x3, rolled rows>",
    "conv_pipelined_tiles_kernel<5x5, rolled rows>", "conv_pipelined_tiles_kernel<7x7, rolled rows>",
    "conv_pipelined_tiles_kernel<9x9, rolled rows>"};

}  // namespace

bool supports_rolled_rows_tiles(const ConvSpec& s) { return pipelined::supports(s); }
void prepare_rolled_rows_tiles(const ConvSpec& s) { pipelined::prepare<pipelined::Mode::rolled_rows>(s, NAMES); }
void run_rolled_rows_tiles(const ConvCall& call) { pipelined::run<pipelined::Mode::rolled_rows>(call, NAMES); }

}  // namespace tessera::convolution_impl
