// Public API of the compositions (tessera/map.hpp, tessera/compact.hpp):
// validation, default variant, workspace, dispatch. One file for both builds:
// in CPU-only builds pointers are host pointers and the CPU rungs run.
//
// Everything is checked before anything runs: types and predicates, null
// pointers, overlapping buffers, the variant, and (CUDA builds) that every
// buffer lives in the memory its variant reads.
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "families/compose/contract.hpp"
#include "tessera/compact.hpp"
#include "tessera/core/error.hpp"
#include "tessera/map.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "core/device_memory.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera {

namespace {

using compose_impl::Family;
using compose_impl::Spec;
using compose_impl::Variant;

// The pointers of one call and their names in error messages.
struct Buffers {
  const void* in = nullptr;
  const std::uint8_t* flags = nullptr;
  void* out = nullptr;
  std::int64_t* lengths = nullptr;
  std::int64_t* count = nullptr;
};

struct Range {
  const char* name;
  const void* p;
  std::size_t bytes;
};

bool overlap(const Range& a, const Range& b) {
  if (a.bytes == 0 || b.bytes == 0) return false;
  const auto a0 = reinterpret_cast<std::uintptr_t>(a.p), b0 = reinterpret_cast<std::uintptr_t>(b.p);
  return a0 < b0 + b.bytes && b0 < a0 + a.bytes;
}

std::string describe(const Spec& s) {
  std::string what = fmt::format("{} of {} (n = {})", compose_impl::to_string(s.family), to_string(s.dtype), s.n);
  if (s.family == Family::compact || s.family == Family::partition)
    what += s.flagged ? ", flagged" : fmt::format(", predicate {}", to_string(s.pred));
  return what;
}

std::string default_variant(Family f, Dtype t, std::size_t n) {
  (void)n;
#if TESSERA_HAVE_CUDA
  // The best measured rung of each family (docs/compose.md, Results).
  switch (f) {
    case Family::map: return "vectorized";
    case Family::adjacent_difference: return "vectorized_shuffle";
    case Family::find_unique: return t == Dtype::u8 ? "flag_table_shared" : "sort_based";
    // H100: compact by predicate and unique, single_pass_bulk (8 aggregator
    // warps) 1.1-1.3x cub_select_if / cub_select_unique on float x>t and
    // int32 runs (2^28, 5/50/95%; docs/results/compose-agg8-h100-2026-11-23.txt)
    // and 1.07x on int64 (2^27, 50%; single_pass_early 0.93 / 0.80x there,
    // docs/results/compose-aggregators-ab-h100-2026-11-23.txt). Flagged
    // compaction: see default_variant_for.
    case Family::compact:
    case Family::unique: return "single_pass_bulk";
    // Partition: single_pass_wide 1.03-1.04x cub_partition_if; the early
    // look-back lost 10% there (two output streams per tile).
    case Family::partition: return "single_pass_wide";
    default: return "single_pass";
  }
#else
  if (f == Family::find_unique && t != Dtype::u8) return "cpu_reference";
  return "cpu_openmp";
#endif
}

// The default for one call: single_pass_bulk takes compaction by predicate
// only; flagged compaction goes to single_pass_early (1.07x
// cub_select_flagged on the H100).
std::string default_variant_for(const Spec& spec, std::size_t n) {
  std::string v = default_variant(spec.family, spec.dtype, n);
  if (spec.family == Family::compact && spec.flagged && v == "single_pass_bulk") v = "single_pass_early";
  return v;
}

// Validates the call and picks the variant; throws Error naming the problem.
const Variant& resolve(const char* fn, const Spec& spec, const Buffers& b, const std::string& name) {
  require(compose_impl::family_supports(spec),
          fmt::format("{}: unsupported {} (types: {}{})", fn, describe(spec),
                      spec.family == Family::find_unique ? "uint8, int32, uint32"
                      : spec.family == Family::map || spec.family == Family::adjacent_difference
                          ? "float, double, int32, uint32, int64"
                          : "float, int32, uint32, int64",
                      spec.pred == Pred::even && !spec.flagged ? "; predicate even needs an integer type" : ""));
  const std::size_t n = spec.n, es = size_of(spec.dtype), cap = compose_impl::output_capacity(spec);
  const bool counted = compose_impl::has_count(spec.family), lengths = compose_impl::has_lengths(spec.family);
  require(b.in != nullptr || n == 0, fmt::format("{}: d_in is a null pointer but n = {}", fn, n));
  require(b.out != nullptr || cap == 0, fmt::format("{}: d_out is a null pointer but n = {}", fn, n));
  if (spec.flagged) require(b.flags != nullptr || n == 0, fmt::format("{}: d_flags is a null pointer but n = {}", fn, n));
  if (lengths) require(b.lengths != nullptr || n == 0, fmt::format("{}: d_lengths is a null pointer but n = {}", fn, n));
  if (counted) require(b.count != nullptr, fmt::format("{}: the count pointer is null", fn));

  const Range in{"d_in", b.in, n * es}, flags{"d_flags", b.flags, spec.flagged ? n : 0},
      out{"d_out", b.out, cap * es}, len{"d_lengths", b.lengths, lengths ? cap * sizeof(std::int64_t) : 0},
      count{"the count", b.count, counted ? sizeof(std::int64_t) : 0};
  const bool in_place = spec.family == Family::map && b.in == b.out;  // transform may run in place
  const std::pair<Range, Range> pairs[] = {{out, in}, {out, flags}, {len, in}, {len, flags}, {len, out},
                                           {count, in}, {count, flags}, {count, out}, {count, len}};
  for (const auto& [x, y] : pairs) {
    if (in_place && x.p == out.p && y.p == in.p) continue;
    require(!overlap(x, y), fmt::format("{}: {} [{}, +{} bytes) overlaps {} [{}, +{} bytes){}", fn, x.name, x.p,
                                        x.bytes, y.name, y.p, y.bytes,
                                        spec.family == Family::map ? " (only d_out == d_in is allowed)" : ""));
  }

  const std::string chosen = name.empty() ? default_variant_for(spec, n) : name;
  const Variant* v = compose_impl::find_variant(spec.family, chosen);
  if (v == nullptr) {
    std::string names;
    for (const auto& var : compose_impl::variants(spec.family))
      names += fmt::format("{}{}", names.empty() ? "" : ", ", var.info.name);
    throw Error(fmt::format("{}: no variant named '{}' (variants: {})", fn, chosen, names));
  }
  require(v->supports(spec), fmt::format("{}: variant '{}' does not support {}", fn, chosen, describe(spec)));
  return *v;
}

#if TESSERA_HAVE_CUDA
void require_memory(const char* fn, const Variant& v, const char* what, const void* p, bool used) {
  if (!used || p == nullptr) return;
  const api::Memory want = v.info.backend == Backend::cpu ? api::Memory::host : api::Memory::device;
  require(api::memory_of(p) == want, fmt::format("{}: {} must point to {} memory for variant '{}'", fn, what,
                                                 want == api::Memory::host ? "host" : "device", v.info.name));
}
#endif

// Runs the call; the count goes to b.count (device memory for GPU variants,
// host memory for CPU ones), or, when `host_count` is given, to the host.
void execute(const char* fn, const Spec& spec, Buffers b, const std::string& name, stream_t stream,
             std::int64_t* host_count = nullptr) {
  std::int64_t dummy = 0;
  if (host_count != nullptr) b.count = &dummy;  // validated as a distinct location; replaced below
  const Variant& v = resolve(fn, spec, b, name);
  const std::size_t ws_bytes = v.workspace_bytes(spec);
#if TESSERA_HAVE_CUDA
  // A CUDA build on a machine without a GPU can still run the CPU rungs.
  const bool device = detail::cuda_device_available();
  require(device || v.info.backend == Backend::cpu,
          fmt::format("{}: variant '{}' needs a CUDA device and none is available", fn, v.info.name));
  if (device) {
    const bool n_pos = spec.n > 0;
    require_memory(fn, v, "d_in", b.in, n_pos);
    require_memory(fn, v, "d_flags", b.flags, n_pos && spec.flagged);
    require_memory(fn, v, "d_out", b.out, compose_impl::output_capacity(spec) > 0);
    require_memory(fn, v, "d_lengths", b.lengths, n_pos && compose_impl::has_lengths(spec.family));
    if (host_count == nullptr) require_memory(fn, v, "d_count", b.count, compose_impl::has_count(spec.family));
  }
  if (v.info.backend == Backend::cpu) {
    std::vector<unsigned char> ws(ws_bytes);
    if (device) TESSERA_CUDA(cudaStreamSynchronize(stream));  // CPU variants run in stream order
    if (host_count != nullptr) b.count = host_count;
    v.run({spec, b.in, b.flags, b.out, b.lengths, b.count, ws.data(), stream});
    return;
  }
  api::AsyncScratch ws(ws_bytes, stream, fn);
  if (host_count == nullptr) {
    v.run({spec, b.in, b.flags, b.out, b.lengths, b.count, ws.get(), stream});
    return;
  }
  {
    api::AsyncScratch d_count(sizeof(std::int64_t), stream, fn);
    auto* dc = static_cast<std::int64_t*>(d_count.get());
    v.run({spec, b.in, b.flags, b.out, b.lengths, dc, ws.get(), stream});
    TESSERA_CUDA(cudaMemcpyAsync(host_count, dc, sizeof(std::int64_t), cudaMemcpyDeviceToHost, stream));
  }
  TESSERA_CUDA(cudaStreamSynchronize(stream));
#else
  std::vector<unsigned char> ws(ws_bytes);
  if (host_count != nullptr) b.count = host_count;
  v.run({spec, b.in, b.flags, b.out, b.lengths, b.count, ws.data(), stream});
#endif
}

template <class T>
Spec spec_of(Family f, std::size_t n) {
  Spec s;
  s.family = f;
  s.dtype = dtype_of<T>();
  s.n = n;
  return s;
}

template <class T>
Spec predicate_spec(Family f, std::size_t n, Predicate<T> pred) {
  Spec s = spec_of<T>(f, n);
  s.pred = pred.kind;
  if (pred.kind == Pred::greater) s.set_threshold(pred.threshold);
  return s;
}

}  // namespace

std::string transform_default_variant(Dtype type, std::size_t n) { return default_variant(Family::map, type, n); }
std::string adjacent_difference_default_variant(Dtype type, std::size_t n) {
  return default_variant(Family::adjacent_difference, type, n);
}
std::string compose_default_variant(std::string_view pattern, Dtype type, std::size_t n) {
  Family f;
  require(compose_impl::parse_family(pattern, f),
          fmt::format("tessera::compose_default_variant: unknown pattern '{}'", pattern));
  return default_variant(f, type, n);
}

template <class T>
void transform(const T* d_in, std::size_t n, T* d_out, MapFn fn, const MapOptions& o) {
  Spec s = spec_of<T>(Family::map, n);
  s.fn = fn;
  execute("tessera::transform", s, {.in = d_in, .out = d_out}, o.variant, o.stream);
}

template <class T>
void adjacent_difference(const T* d_in, std::size_t n, absdiff_t<T>* d_out, const MapOptions& o) {
  execute("tessera::adjacent_difference", spec_of<T>(Family::adjacent_difference, n), {.in = d_in, .out = d_out},
          o.variant, o.stream);
}

template <class T>
std::int64_t compact_if(const T* d_in, std::size_t n, T* d_out, Predicate<T> pred, const CompactOptions& o) {
  std::int64_t k = 0;
  execute("tessera::compact_if", predicate_spec(Family::compact, n, pred), {.in = d_in, .out = d_out}, o.variant,
          o.stream, &k);
  return k;
}
template <class T>
void compact_if_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count, Predicate<T> pred,
                     const CompactOptions& o) {
  execute("tessera::compact_if_into", predicate_spec(Family::compact, n, pred),
          {.in = d_in, .out = d_out, .count = d_count}, o.variant, o.stream);
}

template <class T>
std::int64_t compact_flagged(const T* d_in, const std::uint8_t* d_flags, std::size_t n, T* d_out,
                             const CompactOptions& o) {
  Spec s = spec_of<T>(Family::compact, n);
  s.flagged = true;
  std::int64_t k = 0;
  execute("tessera::compact_flagged", s, {.in = d_in, .flags = d_flags, .out = d_out}, o.variant, o.stream, &k);
  return k;
}
template <class T>
void compact_flagged_into(const T* d_in, const std::uint8_t* d_flags, std::size_t n, T* d_out, std::int64_t* d_count,
                          const CompactOptions& o) {
  Spec s = spec_of<T>(Family::compact, n);
  s.flagged = true;
  execute("tessera::compact_flagged_into", s, {.in = d_in, .flags = d_flags, .out = d_out, .count = d_count},
          o.variant, o.stream);
}

template <class T>
std::int64_t partition_if(const T* d_in, std::size_t n, T* d_out, Predicate<T> pred, const CompactOptions& o) {
  std::int64_t k = 0;
  execute("tessera::partition_if", predicate_spec(Family::partition, n, pred), {.in = d_in, .out = d_out},
          o.variant, o.stream, &k);
  return k;
}
template <class T>
void partition_if_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count, Predicate<T> pred,
                       const CompactOptions& o) {
  execute("tessera::partition_if_into", predicate_spec(Family::partition, n, pred),
          {.in = d_in, .out = d_out, .count = d_count}, o.variant, o.stream);
}

template <class T>
std::int64_t unique(const T* d_in, std::size_t n, T* d_out, const CompactOptions& o) {
  std::int64_t k = 0;
  execute("tessera::unique", spec_of<T>(Family::unique, n), {.in = d_in, .out = d_out}, o.variant, o.stream, &k);
  return k;
}
template <class T>
void unique_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count, const CompactOptions& o) {
  execute("tessera::unique_into", spec_of<T>(Family::unique, n), {.in = d_in, .out = d_out, .count = d_count},
          o.variant, o.stream);
}

template <class T>
std::int64_t find_unique(const T* d_in, std::size_t n, T* d_out, const CompactOptions& o) {
  std::int64_t k = 0;
  execute("tessera::find_unique", spec_of<T>(Family::find_unique, n), {.in = d_in, .out = d_out}, o.variant,
          o.stream, &k);
  return k;
}
template <class T>
void find_unique_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count, const CompactOptions& o) {
  execute("tessera::find_unique_into", spec_of<T>(Family::find_unique, n),
          {.in = d_in, .out = d_out, .count = d_count}, o.variant, o.stream);
}

template <class T>
std::int64_t run_length_encode(const T* d_in, std::size_t n, T* d_keys, std::int64_t* d_lengths,
                               const CompactOptions& o) {
  std::int64_t k = 0;
  execute("tessera::run_length_encode", spec_of<T>(Family::rle, n), {.in = d_in, .out = d_keys, .lengths = d_lengths},
          o.variant, o.stream, &k);
  return k;
}
template <class T>
void run_length_encode_into(const T* d_in, std::size_t n, T* d_keys, std::int64_t* d_lengths, std::int64_t* d_num_runs,
                            const CompactOptions& o) {
  execute("tessera::run_length_encode_into", spec_of<T>(Family::rle, n),
          {.in = d_in, .out = d_keys, .lengths = d_lengths, .count = d_num_runs}, o.variant, o.stream);
}

// ---- instantiations ----------------------------------------------------------

#define TESSERA_MAP_TYPES(T)                                                                   \
  template void transform<T>(const T*, std::size_t, T*, MapFn, const MapOptions&);            \
  template void adjacent_difference<T>(const T*, std::size_t, absdiff_t<T>*, const MapOptions&);
TESSERA_MAP_TYPES(float)
TESSERA_MAP_TYPES(double)
TESSERA_MAP_TYPES(std::int32_t)
TESSERA_MAP_TYPES(std::uint32_t)
TESSERA_MAP_TYPES(std::int64_t)
#undef TESSERA_MAP_TYPES

#define TESSERA_KEY_TYPES(T)                                                                                         \
  template std::int64_t compact_if<T>(const T*, std::size_t, T*, Predicate<T>, const CompactOptions&);              \
  template void compact_if_into<T>(const T*, std::size_t, T*, std::int64_t*, Predicate<T>, const CompactOptions&);  \
  template std::int64_t compact_flagged<T>(const T*, const std::uint8_t*, std::size_t, T*, const CompactOptions&);  \
  template void compact_flagged_into<T>(const T*, const std::uint8_t*, std::size_t, T*, std::int64_t*,              \
                                        const CompactOptions&);                                                     \
  template std::int64_t partition_if<T>(const T*, std::size_t, T*, Predicate<T>, const CompactOptions&);            \
  template void partition_if_into<T>(const T*, std::size_t, T*, std::int64_t*, Predicate<T>, const CompactOptions&); \
  template std::int64_t unique<T>(const T*, std::size_t, T*, const CompactOptions&);                                \
  template void unique_into<T>(const T*, std::size_t, T*, std::int64_t*, const CompactOptions&);                    \
  template std::int64_t run_length_encode<T>(const T*, std::size_t, T*, std::int64_t*, const CompactOptions&);      \
  template void run_length_encode_into<T>(const T*, std::size_t, T*, std::int64_t*, std::int64_t*,                  \
                                          const CompactOptions&);
TESSERA_KEY_TYPES(float)
TESSERA_KEY_TYPES(std::int32_t)
TESSERA_KEY_TYPES(std::uint32_t)
TESSERA_KEY_TYPES(std::int64_t)
#undef TESSERA_KEY_TYPES

#define TESSERA_DISTINCT_TYPES(T)                                                                  \
  template std::int64_t find_unique<T>(const T*, std::size_t, T*, const CompactOptions&);          \
  template void find_unique_into<T>(const T*, std::size_t, T*, std::int64_t*, const CompactOptions&);
TESSERA_DISTINCT_TYPES(std::uint8_t)
TESSERA_DISTINCT_TYPES(std::int32_t)
TESSERA_DISTINCT_TYPES(std::uint32_t)
#undef TESSERA_DISTINCT_TYPES

}  // namespace tessera
