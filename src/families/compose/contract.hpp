// The internal contract of seed 003's data-parallel compositions: seven
// registry patterns that share one call shape (an array in, an array or two
// out, maybe a count), so one harness problem, one API layer and shared
// kernels serve them all:
//
//   map                  y[i] = f(x[i])                              (MapFn)
//   adjacent_difference  y[i] = |x[i] - x[i-1]|, y[0] = |x[0]|
//   compact              the elements passing a predicate, or flagged, in order
//   partition            selected in order, then rejected in reverse order
//   unique               the first of every run of equal consecutive elements
//   find_unique          the distinct values, ascending
//   rle                  unique keys + run lengths
//
// Every rung (CPU, CUDA, vendor) fills a Variant; each pattern has one table
// (ladder.cpp; the lab's tuning rows: lab/compose/register.cpp), the only
// place a variant's name, step and `adds` are written. Which variant the API
// picks: policy.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "tessera/compact.hpp"
#include "tessera/core/types.hpp"
#include "ladder/ladder.hpp"
#include "tessera/core/variant.hpp"
#include "tessera/map.hpp"

namespace tessera::compose_impl {

enum class Family { map, adjacent_difference, compact, partition, unique, find_unique, rle };

inline constexpr Family ALL_FAMILIES[] = {Family::map,    Family::adjacent_difference, Family::compact,
                                          Family::partition, Family::unique,           Family::find_unique,
                                          Family::rle};

std::string_view to_string(Family f) noexcept;  // the registry pattern name
bool parse_family(std::string_view name, Family& out) noexcept;

// What one call computes (everything but the data).
struct Spec {
  Family family = Family::map;
  Dtype dtype = Dtype::f32;
  std::size_t n = 0;
  MapFn fn = MapFn::twice;            // map
  Pred pred = Pred::nonzero;          // compact, partition (unless flagged)
  bool flagged = false;               // compact: select by a flag array instead of pred
  std::uint64_t threshold_bits = 0;   // Pred::greater: the threshold's bytes as dtype

  template <class T>
  T threshold() const {
    static_assert(sizeof(T) <= sizeof(threshold_bits));
    T t;
    std::memcpy(&t, &threshold_bits, sizeof(T));
    return t;
  }
  template <class T>
  void set_threshold(T t) {
    static_assert(sizeof(T) <= sizeof(threshold_bits));
    threshold_bits = 0;
    std::memcpy(&threshold_bits, &t, sizeof(T));
  }
};

// One call. Pointers are device pointers for CUDA variants and host pointers
// for CPU variants. `workspace` holds workspace_bytes(spec) bytes of the same
// memory kind, contents undefined on entry. A CUDA run only enqueues work on
// `stream`: no allocation, no host synchronisation (graph-capturable), except
// where a vendor rung's `adds` line says otherwise.
struct Call {
  Spec spec;
  const void* in = nullptr;             // n elements of spec.dtype
  const std::uint8_t* flags = nullptr;  // compact with spec.flagged: n flags, non-zero = selected
  void* out = nullptr;                  // output_capacity(spec) elements of size_of(spec.dtype)
                                        // (adjacent_difference: absdiff_t, same width)
  std::int64_t* lengths = nullptr;      // rle: run lengths (capacity n)
  std::int64_t* count = nullptr;        // compact, partition, unique, find_unique, rle: one int64
  void* workspace = nullptr;
  stream_t stream = nullptr;
};

struct Variant {
  VariantInfo info;
  bool (*supports)(const Spec&);
  std::size_t (*workspace_bytes)(const Spec&);
  void (*run)(const Call&);
};

// ---- properties of a spec ---------------------------------------------------

// Elements `out` must have room for.
std::size_t output_capacity(const Spec& s) noexcept;
// Whether the family writes a count / run lengths.
constexpr bool has_count(Family f) { return f != Family::map && f != Family::adjacent_difference; }
constexpr bool has_lengths(Family f) { return f == Family::rle; }
// The element types and predicates the family is defined for (any variant).
bool family_supports(const Spec& s) noexcept;

// ---- the tables ------------------------------------------------------------

// Every variant of a family, ladder order (step, then table order).
std::span<const Variant> variants(Family f);
// The ladder itself (the lab build adds its tuning rows to it).
ladder::Ladder<Variant>& variants_ladder(Family f);
const Variant* find_variant(Family f, std::string_view name);

}  // namespace tessera::compose_impl
