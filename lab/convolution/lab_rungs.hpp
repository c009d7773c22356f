// The lab's conv2d rows (Role::tuning): their functions; register.cpp adds
// them to the ladder. Plain C++: no CUDA headers needed to include this.
#pragma once

#include "families/convolution/contract.hpp"

namespace tessera::convolution_impl {

// 07_single_buffer.cu: pipelined_tiles with one shared buffer (the control
// of its double buffering).
bool supports_single_buffer_tiles(const ConvSpec& s);
void prepare_single_buffer_tiles(const ConvSpec& s);
void run_single_buffer_tiles(const ConvCall& call);
// 07_rolled_rows.cu: pipelined_tiles with the FMA loop rolled over the
// mask's rows (the control of its ~41 KB of unrolled code).
bool supports_rolled_rows_tiles(const ConvSpec& s);
void prepare_rolled_rows_tiles(const ConvSpec& s);
void run_rolled_rows_tiles(const ConvCall& call);
// 07_static_walk.cu: pipelined_tiles with the fixed stride tile walk (the
// control of its counter-driven walk).
bool supports_static_walk_tiles(const ConvSpec& s);
void prepare_static_walk_tiles(const ConvSpec& s);
void run_static_walk_tiles(const ConvCall& call);

}  // namespace tessera::convolution_impl
