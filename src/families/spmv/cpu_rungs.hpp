// The CPU rungs of the spmv ladder (ladder.cpp holds the table).
#pragma once

#include "families/spmv/contract.hpp"

namespace tessera::spmv_impl::cpu {

// Step 0: serial, one row at a time, the row's sum in double for float
// values and in long double for double values, rounded once at the end:
// its own error is negligible next to any rung's.
void run_reference(const SpmvCall& call);

// Step 1: OpenMP over rows (dynamic chunks: one long row does not hold a
// thread's whole static share), the row's sum in the value type like the GPU
// rungs. Deterministic: a row's terms are added in order by one thread.
void run_openmp(const SpmvCall& call);

}  // namespace tessera::spmv_impl::cpu
