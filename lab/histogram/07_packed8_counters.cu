// Lab rows packed8_atomic and packed8_rmw (step 7, tuning): the product's
// packed-counter kernel (src/families/histogram/packed_counters.cuh) with the
// 8-bit policies of tuning_packed_counters.cuh, one row per line.
#include <array>
#include <iterator>
#include <span>
#include <utility>

#include "families/histogram/packed_counters.cuh"
#include "histogram/lab_rungs.hpp"
#include "histogram/tuning_packed_counters.cuh"

namespace tessera::histogram_impl {

namespace {

constexpr const auto& SWEEP = tuning::PACKED8_SWEEP;

template <std::size_t I>
using Policy = PackedPolicy<SWEEP[I].bits, SWEEP[I].atomic, SWEEP[I].block, SWEEP[I].min_blocks, SWEEP[I].unroll>;

template <std::size_t I>
void run_row(const HistogramCall& call) {
  run_packed<Policy<I>>(SWEEP[I].name.data(), SWEEP[I].kernel, call);
}

template <std::size_t I>
bool supports_row(const HistogramSpec& spec) {
  return packed_supports<Policy<I>>(spec);
}

std::size_t no_workspace(const HistogramSpec&) { return 0; }

template <std::size_t... I>
std::array<HistogramVariant, sizeof...(I)> rows(std::index_sequence<I...>) {
  // A flush every flush_tiles() tiles keeps every 8-bit counter at most 255.
  static_assert(((Policy<I>::template flush_tiles<std::uint8_t>() * SWEEP[I].unroll * 16 + 2 <= 255) && ...),
                "8-bit counters cannot overflow");
  static_assert(((Policy<I>::template flush_tiles<float>() >= 1) && ...));
  return {{HistogramVariant{{"histogram", SWEEP[I].name, 7, Backend::cuda, Role::tuning, SWEEP[I].adds, true},
                            supports_row<I>, no_workspace, run_row<I>}...}};
}

}  // namespace

std::span<const HistogramVariant> packed8_rows() {
  static const auto table = rows(std::make_index_sequence<std::size(SWEEP)>{});
  return table;
}

}  // namespace tessera::histogram_impl
