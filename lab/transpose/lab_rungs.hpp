// The lab's transpose rows (step 7 and the block-shape sweep of step 6, all
// Role::tuning): their run functions and the sweeps' generated rows;
// register.cpp adds them to the ladder. Plain C++: no CUDA headers needed to
// include this.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <utility>

#include "families/transpose/contract.hpp"

namespace tessera::transpose_impl {

// 07_grouped_order.cu: unroll4 in grouped tile order.
void run_grouped_order(const TransposeCall& call);
// 07_vec16_swizzle.cu: 16-byte accesses through a swizzled tile, row-major
// and grouped tile order.
void run_vec16_swizzle(const TransposeCall& call);
void run_vec16_grouped(const TransposeCall& call);
// Whether the vec16 rows take their 16-byte path for this call (pointers
// 16-byte aligned, both pitches multiples of 16 bytes); otherwise they run
// the padded tile of unroll4 (the lab tests check both paths).
bool vec16_path(const TransposeCall& call);

// The sweeps, one row per line of their tuning tables:
// 06_block_shape_sweep.cu (tuning_block_shapes.cuh) and
// 07_vec16_persistent.cu (tuning_persistent.cuh).
std::span<const TransposeVariant> block_shape_rows();
std::span<const TransposeVariant> persistent_rows();

// Every lab row moves 4- or 8-byte words.
inline bool supports_words(const TransposeSpec& s) { return word_sized(s.dtype); }

// The rows of a sweep at `step`: row I named and described by
// Sweep::TABLE[I] (fields `name`, `adds`), run by Sweep::run<I>.
template <class Sweep, std::size_t... I>
std::array<TransposeVariant, sizeof...(I)> sweep_rows(int step, std::index_sequence<I...>) {
  return {{TransposeVariant{{"transpose", Sweep::TABLE[I].name, step, Backend::cuda, Role::tuning, Sweep::TABLE[I].adds, true},
                            Output::transpose, supports_words, nullptr, &Sweep::template run<I>}...}};
}

}  // namespace tessera::transpose_impl
