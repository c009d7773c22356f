// The CPU rungs of the scan ladder (ladder.cpp holds the table).
#pragma once

#include "families/scan/contract.hpp"

namespace tessera::scan_impl::cpu {

// Step 0: serial, obviously right. Float and double sums carry a compensated
// long double running sum (Neumaier) whatever accumulator was asked for, so
// its own error is negligible next to any float/double result; each output
// is that sum rounded once. Integer sums wrap in the element's width; min/max
// propagate NaN.
void run_reference(const ScanCall& call);

// Step 1: OpenMP, two passes over static chunks: each thread reduces its
// chunk with the requested accumulator, the chunk totals are combined in
// thread order, and each thread rescans its chunk from its prefix.
void run_openmp(const ScanCall& call);

}  // namespace tessera::scan_impl::cpu
