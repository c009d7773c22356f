// Lab row of conv2d (Role::tuning): pipelined_tiles' kernel with the fixed
// stride tile walk of its first version (block b takes tiles b, b + grid,
// b + 2 grid, ...) instead of the product's counter. The control of the
// dynamic walk: if pipelined_tiles is not faster than this row, the uneven
// SM finish times the 5x5 profile showed were not what cost its time.
#include "convolution/lab_rungs.hpp"
#include "families/convolution/pipelined_tiles.cuh"

namespace tessera::convolution_impl {

namespace {

constexpr const char* NAMES[5] = {
    "conv_pipelined_tiles_kernel<1x1, static walk>", "conv_pipelined_tiles_kernel<3x3, static walk>",
    "conv_pipelined_tiles_kernel<5x5, static walk>", "conv_pipelined_tiles_kernel<7x7, static walk>",
    "conv_pipelined_tiles_kernel<9x9, static walk>"};

}  // namespace

bool supports_static_walk_tiles(const ConvSpec& s) { return pipelined::supports(s); }
void prepare_static_walk_tiles(const ConvSpec& s) { pipelined::prepare<pipelined::Mode::static_walk>(s, NAMES); }
void run_static_walk_tiles(const ConvCall& call) { pipelined::run<pipelined::Mode::static_walk>(call, NAMES); }

}  // namespace tessera::convolution_impl
