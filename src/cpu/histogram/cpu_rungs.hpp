// The CPU rungs of the histogram ladder (see variants.cpp for the table).
#pragma once

#include "patterns/histogram.hpp"

namespace tessera::histogram_impl::cpu {

// Step 0: serial, obviously right: one pass, one counter array.
void run_reference(const HistogramCall& call);

// Step 1: OpenMP, one private histogram per thread (no atomics, no sharing),
// merged bin by bin.
void run_openmp(const HistogramCall& call);

}  // namespace tessera::histogram_impl::cpu
