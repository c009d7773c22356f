// The lab's histogram rows (step 7, Role::tuning): the 8-bit packed-counter
// configurations, generated from their tuning table; register.cpp adds them
// to the ladder. Plain C++: no CUDA headers needed to include this.
#pragma once

#include <span>

#include "families/histogram/contract.hpp"

namespace tessera::histogram_impl {

// 07_packed8_counters.cu: one row per line of tuning_packed_counters.cuh.
std::span<const HistogramVariant> packed8_rows();

}  // namespace tessera::histogram_impl
