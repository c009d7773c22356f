// Seeded inputs of the composition problems, on top of harness::fill_random:
// keys in runs of equal values (unique, rle), a predicate threshold for a
// target selectivity, zeros at a rate (x != 0), random flag arrays. Counter
// based (element i depends only on (seed, i)) and OpenMP-parallel, like
// generate.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/core/types.hpp"

namespace tessera::harness {

// Keys in runs: element i starts a new run with probability `head_prob`
// (element 0 always does); each run holds one random value of the type (two
// neighbouring runs draw the same value only by chance, then they merge).
// Mean run length 1 / head_prob.
void fill_runs(void* data, Dtype type, std::size_t n, std::uint64_t seed, double head_prob);

// The value t such that about `fraction` of the n elements at `data` are
// greater than t (an order statistic of a 65,536-element sample). Returned as
// the bytes of a value of `type` (compose_impl::Spec::threshold_bits).
std::uint64_t threshold_for_fraction(const void* data, Dtype type, std::size_t n, double fraction);

// Sets each element to zero with probability 1 - keep (element 0 is kept, so
// the input is never all zero).
void zero_fraction(void* data, Dtype type, std::size_t n, std::uint64_t seed, double keep);

// flags[i] != 0 with probability `fraction`; set flags take random non-zero
// byte values (not just 1: any non-zero byte selects).
void fill_flags(std::uint8_t* flags, std::size_t n, std::uint64_t seed, double fraction);

}  // namespace tessera::harness
