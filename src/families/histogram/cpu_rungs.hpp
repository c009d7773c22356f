// The CPU rungs of the histogram ladder (ladder.cpp lists them).
#pragma once

#include <cstdint>
#include <string>

#include "families/histogram/bins.hpp"
#include "families/histogram/contract.hpp"
#include "tessera/core/error.hpp"

namespace tessera::histogram_impl::cpu {

// Calls `count(input, n, rule)` with the call's typed input and bin rule (the
// byte rule for uint8, equal-width bins for float); both CPU rungs share it.
template <class Count>
void dispatch_by_type(const HistogramCall& call, const char* variant, Count&& count) {
  const HistogramSpec& s = call.spec;
  switch (s.dtype) {
    case Dtype::u8: count(static_cast<const std::uint8_t*>(call.in), s.n, ByteBins{}); break;
    case Dtype::f32: count(static_cast<const float*>(call.in), s.n, EvenBins::make(s.bins, s.lo, s.hi)); break;
    default: throw Error(std::string("histogram: ") + variant + " supports uint8 and float input only");
  }
}

// Step 0: serial, obviously right: one pass, one counter array.
void run_reference(const HistogramCall& call);

// Step 1: OpenMP, one private histogram per thread (no atomics, no sharing),
// merged bin by bin.
void run_openmp(const HistogramCall& call);

}  // namespace tessera::histogram_impl::cpu
