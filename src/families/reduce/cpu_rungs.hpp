// The CPU rungs of the reduction ladder (ladder.cpp holds the table).
#pragma once

#include "families/reduce/contract.hpp"

namespace tessera::reduce_impl::cpu {

// Step 0: serial, obviously right. Floating sums accumulate in long double
// with Neumaier compensation whatever accumulator was asked for, so its own
// error is negligible next to any float/double result; integers are exact.
void run_reference(const ReduceCall& call);

// Step 1: OpenMP, one private accumulator per thread (the requested Reducer,
// so float accumulation behaves like the GPU rungs), combined in thread order.
void run_openmp(const ReduceCall& call);

}  // namespace tessera::reduce_impl::cpu
