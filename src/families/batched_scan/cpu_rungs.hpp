// The CPU rungs of the batched_scan ladder (ladder.cpp holds the table).
#pragma once

#include "families/batched_scan/contract.hpp"

namespace tessera::batched_scan_impl::cpu {

// Step 0: serial, obviously right: every row in compensated long double
// (reference.hpp) whatever accumulator was asked for, rounded once to float.
void run_reference(const ScanCall& call);

// Step 1: OpenMP over rows, each row scanned serially with the requested
// accumulator (row_scan.hpp), so float accumulation errs like the seed's CPU
// loop. Deterministic (each row's arithmetic is fixed).
void run_openmp(const ScanCall& call);

}  // namespace tessera::batched_scan_impl::cpu
