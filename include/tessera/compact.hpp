// Data-parallel compositions of seed 003 (CMU 18-646, "Compositions of Data
// Parallel Algorithms"): compaction, partition, unique, find-unique and
// run-length encoding of a device array.
//
//   auto k = tessera::compact_if(d_x, n, d_y, {.pred = tessera::greater_than(0.25f)});  // y[0..k): x[i] > 0.25
//   tessera::compact_if_into(d_x, n, d_y, d_k, {.stream = s});               // x != 0; count on the device
//   auto k = tessera::compact_flagged(d_x, d_flags, n, d_y);                 // flags[i] != 0
//   auto k = tessera::partition_if(d_x, n, d_y, {.pred = tessera::even<int>()});  // selected, then rejected (reversed)
//   auto k = tessera::unique(d_keys, n, d_y);                                // std::unique: drop consecutive repeats
//   auto k = tessera::find_unique(d_text, n, d_y);                           // distinct values, ascending
//   auto r = tessera::run_length_encode(d_keys, n, d_runs, d_lengths);        // unique keys + run lengths
//   tessera::unique(d_keys, n, d_y, {.variant = "flags_scan_scatter"});      // any rung by name
//
// Every call is (inputs, n, outputs, options). The predicate is an option
// (default: x != 0) of the calls that take one: compact_if and partition_if
// take PredicateOptions<T>, templated on the element type because the
// threshold of greater_than is a T; the calls without a predicate take
// CompactOptions, which has no field they would ignore. Either way the
// options struct is the last argument, so `{.stream = s}` or
// `{.pred = ..., .variant = ...}` reads the same in every call.
//
// Counts are std::int64_t, so n past 2^31 works. The *_into calls write the
// count to device memory (d_count is one more output) and return without
// synchronising; the plain calls return the count to the host (synchronising
// options.stream). Scratch is allocated stream-ordered (cudaMallocAsync) and
// freed by the call, unless options.workspace holds the *_workspace_bytes(...)
// of the call: then it allocates nothing (graph capture of the *_into calls,
// hot loops). A workspace serves both the plain and the *_into call.
//
// Output contracts (every output buffer has room for the worst case):
//   compact_if / compact_flagged  d_out[0..k): the selected elements in input
//                 order (stable); nothing past k is written. Capacity n.
//   partition_if  d_out[0..k): the selected elements in input order;
//                 d_out[k..n): the rejected ones in REVERSE input order
//                 (d_out[n-1] is the first rejected element, as
//                 cub::DevicePartition::If does: a single pass can place them
//                 without knowing k). Capacity n.
//   unique        d_out[0..k): the first element of every run of equal
//                 consecutive elements (std::unique, cub::DeviceSelect::Unique;
//                 floats compare with ==, so every NaN is its own run and -0
//                 joins a run of +0). Capacity n.
//   find_unique   d_out[0..k): the distinct values of the input in ascending
//                 order (the seed's FindUniq). uint8, int32, uint32. Capacity
//                 min(n, 256) for uint8, n otherwise.
//   run_length_encode  d_keys[0..r): unique() of the input; d_lengths[0..r):
//                 the length of each run (int64). Capacity n each.
// Types: float, int32, uint32, int64 (find_unique: uint8, int32, uint32).
// Predicates: x > threshold, x != 0 (NaN counts as non-zero), x even
// (integers only); chosen at run time, the same kernels serve all three.
// Errors (a null pointer with n > 0, overlapping input/output/count buffers,
// an unsupported type or predicate, an unknown variant, memory of the wrong
// kind, a workspace too small, a failed allocation) throw tessera::Error
// before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

enum class Pred {
  greater,  // x > threshold
  nonzero,  // x != 0
  even,     // x % 2 == 0 (integers only)
};

std::string_view to_string(Pred p) noexcept;  // "greater", "nonzero", "even"

template <class T>
struct Predicate {
  Pred kind = Pred::nonzero;
  T threshold{};  // Pred::greater only
};

template <class T>
constexpr Predicate<T> greater_than(T threshold) {
  return {Pred::greater, threshold};
}
template <class T>
constexpr Predicate<T> nonzero() {
  return {Pred::nonzero, T{}};
}
template <class T>
constexpr Predicate<T> even() {
  return {Pred::even, T{}};
}

// compact_if, partition_if.
template <class T>
struct PredicateOptions {
  Predicate<T> pred = {};    // x != 0
  std::string variant = {};  // empty: the variant the policy picks for this size and type
  stream_t stream = nullptr;
  Workspace workspace = {};
};

// compact_flagged, unique, find_unique, run_length_encode.
struct CompactOptions {
  std::string variant = {};  // empty: the variant the policy picks for this size and type
  stream_t stream = nullptr;
  Workspace workspace = {};
};

// ---- compaction (select) ---------------------------------------------------
template <class T>
std::int64_t compact_if(const T* d_in, std::size_t n, T* d_out, const PredicateOptions<T>& options = {});
template <class T>
void compact_if_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count,
                     const PredicateOptions<T>& options = {});

template <class T>
std::int64_t compact_flagged(const T* d_in, const std::uint8_t* d_flags, std::size_t n, T* d_out,
                             const CompactOptions& options = {});
template <class T>
void compact_flagged_into(const T* d_in, const std::uint8_t* d_flags, std::size_t n, T* d_out, std::int64_t* d_count,
                          const CompactOptions& options = {});

// ---- partition ------------------------------------------------------------
template <class T>
std::int64_t partition_if(const T* d_in, std::size_t n, T* d_out, const PredicateOptions<T>& options = {});
template <class T>
void partition_if_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count,
                       const PredicateOptions<T>& options = {});

// ---- unique (consecutive duplicates) ----------------------------------------
template <class T>
std::int64_t unique(const T* d_in, std::size_t n, T* d_out, const CompactOptions& options = {});
template <class T>
void unique_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count, const CompactOptions& options = {});

// ---- find unique (distinct values, ascending) --------------------------------
template <class T>
std::int64_t find_unique(const T* d_in, std::size_t n, T* d_out, const CompactOptions& options = {});
template <class T>
void find_unique_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count,
                      const CompactOptions& options = {});

// ---- run-length encoding ---------------------------------------------------
template <class T>
std::int64_t run_length_encode(const T* d_in, std::size_t n, T* d_keys, std::int64_t* d_lengths,
                               const CompactOptions& options = {});
template <class T>
void run_length_encode_into(const T* d_in, std::size_t n, T* d_keys, std::int64_t* d_lengths,
                            std::int64_t* d_num_runs, const CompactOptions& options = {});

// ---- workspace ---------------------------------------------------------------
// Bytes of options.workspace that make the call (plain or *_into) allocate
// nothing, for the variant `options` names or the policy picks.
template <class T>
std::size_t compact_if_workspace_bytes(std::size_t n, const PredicateOptions<T>& options = {});
template <class T>
std::size_t compact_flagged_workspace_bytes(std::size_t n, const CompactOptions& options = {});
template <class T>
std::size_t partition_if_workspace_bytes(std::size_t n, const PredicateOptions<T>& options = {});
template <class T>
std::size_t unique_workspace_bytes(std::size_t n, const CompactOptions& options = {});
template <class T>
std::size_t find_unique_workspace_bytes(std::size_t n, const CompactOptions& options = {});
template <class T>
std::size_t run_length_encode_workspace_bytes(std::size_t n, const CompactOptions& options = {});

// The variant each pattern picks by default: "compact" (by predicate; flagged
// compaction may pick another), "partition", "unique", "find_unique", "rle".
std::string compose_default_variant(std::string_view pattern, Dtype type, std::size_t n);

}  // namespace tessera
