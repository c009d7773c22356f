// The CPU rungs of the convolution ladders (ladder.cpp lists them). Both
// take host pointers and run synchronously; neither needs a workspace.
#pragma once

#include "families/convolution/contract.hpp"

namespace tessera::convolution_impl::cpu {

// Step 0: serial, obviously right: every output is the mask's dot product
// with its window, accumulated in double and rounded once to float.
void run_reference(const ConvCall& call);

// Step 1: OpenMP over rows (1D: over chunks of the signal), float
// accumulation, the interior without bounds tests.
void run_openmp(const ConvCall& call);

}  // namespace tessera::convolution_impl::cpu
