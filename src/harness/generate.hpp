// Seeded, counter-based input generators: element i depends only on (seed, i),
// so generation runs in parallel (OpenMP) and any element can be recomputed.
// Inputs are never all zero.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tessera/core/types.hpp"

namespace tessera::harness {

enum class Distribution {
  uniform,   // floats: U[-1, 1) + 0.25 offset; ints: the type's full range
  small,     // floats: U[0, 1); ints: U[-1000, 1000] (sums stay small)
  skewed,    // 80% of the values equal one value, the rest uniform
  constant,  // every element the same non-zero value
  text,      // English-like text bytes: letters at English frequencies, spaces,
             // capitals, punctuation, newlines (a skewed, realistic byte stream);
             // other types get the byte value
};

std::string_view to_string(Distribution d) noexcept;

// The data of the i-th verify size of a spec (reduce, scan): mostly uniform,
// one constant and one skewed size in every seven.
constexpr Distribution verify_distribution(std::size_t i) noexcept {
  return i % 7 == 3 ? Distribution::constant : i % 7 == 5 ? Distribution::skewed : Distribution::uniform;
}

// SplitMix64 of (seed, index): the per-element random word.
constexpr std::uint64_t mix64(std::uint64_t seed, std::uint64_t i) noexcept {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + i + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Fill `data[0..n)` (host memory) with elements of type `type`.
void fill_random(void* data, Dtype type, std::size_t n, std::uint64_t seed, Distribution dist);

// Fill `data[0..n)` with the bytes of the file at `path`, repeated as often
// as needed (a real byte stream at any problem size). Throws Error naming the
// file when it cannot be read or is empty.
void fill_from_file(std::uint8_t* data, std::size_t n, const std::string& path);

template <class T>
void fill_random(T* data, std::size_t n, std::uint64_t seed, Distribution dist) {
  fill_random(static_cast<void*>(data), dtype_of<T>(), n, seed, dist);
}

}  // namespace tessera::harness
