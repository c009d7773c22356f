// Public API of the compositions (tessera/map.hpp, tessera/compact.hpp):
// validation, the default variant (policy.hpp), workspace, dispatch. One file
// for both builds: in CPU-only builds pointers are host pointers and the CPU
// rungs run.
//
// Everything is checked before anything runs: types and predicates, null
// pointers, overlapping buffers, the variant, and (CUDA builds) that every
// buffer and the caller's workspace live in the memory its variant reads.
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpu_present.hpp"
#include "families/compose/contract.hpp"
#include "families/compose/policy.hpp"
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

// The three fields every options struct ends with.
struct Common {
  const std::string& variant;
  stream_t stream;
  Workspace workspace;
};
template <class Options>
Common common_of(const Options& o) {
  return {o.variant, o.stream, o.workspace};
}

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

void require_supported(const char* fn, const Spec& spec) {
  require(compose_impl::family_supports(spec),
          fmt::format("{}: unsupported {} (types: {}{})", fn, describe(spec),
                      spec.family == Family::find_unique ? "uint8, int32, uint32"
                      : spec.family == Family::map || spec.family == Family::adjacent_difference
                          ? "float, double, int32, uint32, int64"
                          : "float, int32, uint32, int64",
                      spec.pred == Pred::even && !spec.flagged ? "; predicate even needs an integer type" : ""));
}

// Null pointers and overlapping buffers; throws Error naming the problem.
void require_valid_buffers(const char* fn, const Spec& spec, const Buffers& b) {
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
}

// The named variant, or the policy's; throws Error for an unknown name or a
// variant that does not take the spec.
const Variant& pick(const char* fn, const Spec& spec, const std::string& name) {
  const std::string_view chosen =
      name.empty() ? compose_impl::default_variant(spec, api::gpu_present()) : std::string_view(name);
  const Variant& v = compose_impl::variants_ladder(spec.family).at(chosen, fn);
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support {}", fn, chosen, describe(spec)));
  return v;
}

// ---- workspace ------------------------------------------------------------------
// Layout: [ up to 255 bytes to a 256-byte boundary (a caller's workspace may
// start anywhere; the rungs' sub-buffers assume cudaMalloc's alignment) ]
// [ the count, 256 bytes: a GPU rung of a plain call writes it there before
// it goes to the host ][ the variant's workspace ].
constexpr std::size_t WORKSPACE_ALIGN = 256;

std::size_t layout_bytes(std::size_t variant_bytes, bool count_slot) {
  const std::size_t body = (count_slot ? WORKSPACE_ALIGN : 0) + variant_bytes;
  return body == 0 ? 0 : body + WORKSPACE_ALIGN - 1;
}

unsigned char* aligned(void* p) {
  if (p == nullptr) return nullptr;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<unsigned char*>((a + WORKSPACE_ALIGN - 1) / WORKSPACE_ALIGN * WORKSPACE_ALIGN);
}

// What *_workspace_bytes answers: enough for the plain call and its *_into.
std::size_t workspace_bytes_of(const char* fn, const Spec& spec, const std::string& name) {
  require_supported(fn, spec);
  const Variant& v = pick(fn, spec, name);
  const bool count_slot = compose_impl::has_count(spec.family) && v.info.backend == Backend::cuda;
  return layout_bytes(v.workspace_bytes(spec), count_slot);
}

// Host scratch of the CPU rungs: the caller's workspace when given, else owned.
class HostScratch {
 public:
  HostScratch(std::size_t bytes, const Workspace& given, const char* who) {
    if (given.ptr == nullptr) {
      own_.resize(bytes);
      ptr_ = own_.data();
      return;
    }
    require(given.bytes >= bytes,
            fmt::format("{}: the workspace holds {} bytes but this call needs {}", who, given.bytes, bytes));
    ptr_ = given.ptr;
  }
  void* get() const { return ptr_; }

 private:
  std::vector<unsigned char> own_;
  void* ptr_ = nullptr;
};

#if TESSERA_HAVE_CUDA
void require_memory(const char* fn, const Variant& v, const char* what, const void* p, bool used) {
  if (used && p != nullptr) api::require_memory(v.info.backend, p, what, fn, v.info.name);
}
#endif

// Runs the call; the count goes to b.count (device memory for GPU variants,
// host memory for CPU ones), or, when `host_count` is given, to the host.
void execute(const char* fn, const Spec& spec, Buffers b, const Common& o, std::int64_t* host_count = nullptr) {
  std::int64_t dummy = 0;
  if (host_count != nullptr) b.count = &dummy;  // validated as a distinct location; replaced below
  require_supported(fn, spec);
  require_valid_buffers(fn, spec, b);
  const Variant& v = pick(fn, spec, o.variant);
  const bool gpu_rung = v.info.backend == Backend::cuda;
  const bool count_slot = gpu_rung && host_count != nullptr;
  const std::size_t bytes = layout_bytes(v.workspace_bytes(spec), count_slot);
#if TESSERA_HAVE_CUDA
  // A CUDA build on a machine without a GPU runs the CPU rungs on host
  // memory; api::require_memory refuses a GPU rung there by name.
  const bool n_pos = spec.n > 0;
  require_memory(fn, v, "d_in", b.in, n_pos);
  require_memory(fn, v, "d_flags", b.flags, n_pos && spec.flagged);
  require_memory(fn, v, "d_out", b.out, compose_impl::output_capacity(spec) > 0);
  require_memory(fn, v, "d_lengths", b.lengths, n_pos && compose_impl::has_lengths(spec.family));
  if (host_count == nullptr) require_memory(fn, v, "d_count", b.count, compose_impl::has_count(spec.family));
  require_memory(fn, v, "options.workspace", o.workspace.ptr, bytes > 0);
  if (gpu_rung) {
    api::AsyncScratch scratch(bytes, o.workspace, o.stream, fn);
    unsigned char* base = aligned(scratch.get());
    std::int64_t* count = count_slot ? reinterpret_cast<std::int64_t*>(base) : b.count;
    void* ws = count_slot ? base + WORKSPACE_ALIGN : base;
    v.run({spec, b.in, b.flags, b.out, b.lengths, count, ws, o.stream});
    if (host_count != nullptr) {
      TESSERA_CUDA(cudaMemcpyAsync(host_count, count, sizeof(std::int64_t), cudaMemcpyDeviceToHost, o.stream));
      TESSERA_CUDA(cudaStreamSynchronize(o.stream));
    }
    return;
  }
  api::wait_for_stream(o.stream);
#endif
  HostScratch scratch(bytes, o.workspace, fn);
  if (host_count != nullptr) b.count = host_count;
  v.run({spec, b.in, b.flags, b.out, b.lengths, b.count, aligned(scratch.get()), o.stream});
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

template <class T>
Spec flagged_spec(std::size_t n) {
  Spec s = spec_of<T>(Family::compact, n);
  s.flagged = true;
  return s;
}

template <class T>
Spec map_spec(std::size_t n, MapFn fn) {
  Spec s = spec_of<T>(Family::map, n);
  s.fn = fn;
  return s;
}

std::string default_for(Family f, Dtype type, std::size_t n) {
  Spec s;
  s.family = f;
  s.dtype = type;
  s.n = n;
  return std::string(compose_impl::default_variant(s, api::gpu_present()));
}

}  // namespace

std::string transform_default_variant(Dtype type, std::size_t n) { return default_for(Family::map, type, n); }
std::string adjacent_difference_default_variant(Dtype type, std::size_t n) {
  return default_for(Family::adjacent_difference, type, n);
}
std::string compose_default_variant(std::string_view pattern, Dtype type, std::size_t n) {
  Family f;
  require(compose_impl::parse_family(pattern, f),
          fmt::format("tessera::compose_default_variant: unknown pattern '{}'", pattern));
  return default_for(f, type, n);
}

// ---- map, adjacent_difference ---------------------------------------------------

template <class T>
void transform(const T* d_in, std::size_t n, T* d_out, const MapOptions& o) {
  execute("tessera::transform", map_spec<T>(n, o.fn), {.in = d_in, .out = d_out}, common_of(o));
}
template <class T>
std::size_t transform_workspace_bytes(std::size_t n, const MapOptions& o) {
  return workspace_bytes_of("tessera::transform_workspace_bytes", map_spec<T>(n, o.fn), o.variant);
}

template <class T>
void adjacent_difference(const T* d_in, std::size_t n, absdiff_t<T>* d_out, const AdjacentDifferenceOptions& o) {
  execute("tessera::adjacent_difference", spec_of<T>(Family::adjacent_difference, n), {.in = d_in, .out = d_out},
          common_of(o));
}
template <class T>
std::size_t adjacent_difference_workspace_bytes(std::size_t n, const AdjacentDifferenceOptions& o) {
  return workspace_bytes_of("tessera::adjacent_difference_workspace_bytes", spec_of<T>(Family::adjacent_difference, n),
                            o.variant);
}

// ---- compact, partition ----------------------------------------------------------

template <class T>
std::int64_t compact_if(const T* d_in, std::size_t n, T* d_out, const PredicateOptions<T>& o) {
  std::int64_t k = 0;
  execute("tessera::compact_if", predicate_spec(Family::compact, n, o.pred), {.in = d_in, .out = d_out},
          common_of(o), &k);
  return k;
}
template <class T>
void compact_if_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count, const PredicateOptions<T>& o) {
  execute("tessera::compact_if_into", predicate_spec(Family::compact, n, o.pred),
          {.in = d_in, .out = d_out, .count = d_count}, common_of(o));
}
template <class T>
std::size_t compact_if_workspace_bytes(std::size_t n, const PredicateOptions<T>& o) {
  return workspace_bytes_of("tessera::compact_if_workspace_bytes", predicate_spec(Family::compact, n, o.pred),
                            o.variant);
}

template <class T>
std::int64_t compact_flagged(const T* d_in, const std::uint8_t* d_flags, std::size_t n, T* d_out,
                             const CompactOptions& o) {
  std::int64_t k = 0;
  execute("tessera::compact_flagged", flagged_spec<T>(n), {.in = d_in, .flags = d_flags, .out = d_out}, common_of(o),
          &k);
  return k;
}
template <class T>
void compact_flagged_into(const T* d_in, const std::uint8_t* d_flags, std::size_t n, T* d_out, std::int64_t* d_count,
                          const CompactOptions& o) {
  execute("tessera::compact_flagged_into", flagged_spec<T>(n),
          {.in = d_in, .flags = d_flags, .out = d_out, .count = d_count}, common_of(o));
}
template <class T>
std::size_t compact_flagged_workspace_bytes(std::size_t n, const CompactOptions& o) {
  return workspace_bytes_of("tessera::compact_flagged_workspace_bytes", flagged_spec<T>(n), o.variant);
}

template <class T>
std::int64_t partition_if(const T* d_in, std::size_t n, T* d_out, const PredicateOptions<T>& o) {
  std::int64_t k = 0;
  execute("tessera::partition_if", predicate_spec(Family::partition, n, o.pred), {.in = d_in, .out = d_out},
          common_of(o), &k);
  return k;
}
template <class T>
void partition_if_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count, const PredicateOptions<T>& o) {
  execute("tessera::partition_if_into", predicate_spec(Family::partition, n, o.pred),
          {.in = d_in, .out = d_out, .count = d_count}, common_of(o));
}
template <class T>
std::size_t partition_if_workspace_bytes(std::size_t n, const PredicateOptions<T>& o) {
  return workspace_bytes_of("tessera::partition_if_workspace_bytes", predicate_spec(Family::partition, n, o.pred),
                            o.variant);
}

// ---- unique, find_unique, run-length encoding ---------------------------------------

template <class T>
std::int64_t unique(const T* d_in, std::size_t n, T* d_out, const CompactOptions& o) {
  std::int64_t k = 0;
  execute("tessera::unique", spec_of<T>(Family::unique, n), {.in = d_in, .out = d_out}, common_of(o), &k);
  return k;
}
template <class T>
void unique_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count, const CompactOptions& o) {
  execute("tessera::unique_into", spec_of<T>(Family::unique, n), {.in = d_in, .out = d_out, .count = d_count},
          common_of(o));
}
template <class T>
std::size_t unique_workspace_bytes(std::size_t n, const CompactOptions& o) {
  return workspace_bytes_of("tessera::unique_workspace_bytes", spec_of<T>(Family::unique, n), o.variant);
}

template <class T>
std::int64_t find_unique(const T* d_in, std::size_t n, T* d_out, const CompactOptions& o) {
  std::int64_t k = 0;
  execute("tessera::find_unique", spec_of<T>(Family::find_unique, n), {.in = d_in, .out = d_out}, common_of(o), &k);
  return k;
}
template <class T>
void find_unique_into(const T* d_in, std::size_t n, T* d_out, std::int64_t* d_count, const CompactOptions& o) {
  execute("tessera::find_unique_into", spec_of<T>(Family::find_unique, n),
          {.in = d_in, .out = d_out, .count = d_count}, common_of(o));
}
template <class T>
std::size_t find_unique_workspace_bytes(std::size_t n, const CompactOptions& o) {
  return workspace_bytes_of("tessera::find_unique_workspace_bytes", spec_of<T>(Family::find_unique, n), o.variant);
}

template <class T>
std::int64_t run_length_encode(const T* d_in, std::size_t n, T* d_keys, std::int64_t* d_lengths,
                               const CompactOptions& o) {
  std::int64_t k = 0;
  execute("tessera::run_length_encode", spec_of<T>(Family::rle, n), {.in = d_in, .out = d_keys, .lengths = d_lengths},
          common_of(o), &k);
  return k;
}
template <class T>
void run_length_encode_into(const T* d_in, std::size_t n, T* d_keys, std::int64_t* d_lengths, std::int64_t* d_num_runs,
                            const CompactOptions& o) {
  execute("tessera::run_length_encode_into", spec_of<T>(Family::rle, n),
          {.in = d_in, .out = d_keys, .lengths = d_lengths, .count = d_num_runs}, common_of(o));
}
template <class T>
std::size_t run_length_encode_workspace_bytes(std::size_t n, const CompactOptions& o) {
  return workspace_bytes_of("tessera::run_length_encode_workspace_bytes", spec_of<T>(Family::rle, n), o.variant);
}

// ---- instantiations ----------------------------------------------------------

#define TESSERA_MAP_TYPES(T)                                                                                      \
  template void transform<T>(const T*, std::size_t, T*, const MapOptions&);                                      \
  template std::size_t transform_workspace_bytes<T>(std::size_t, const MapOptions&);                             \
  template void adjacent_difference<T>(const T*, std::size_t, absdiff_t<T>*, const AdjacentDifferenceOptions&);  \
  template std::size_t adjacent_difference_workspace_bytes<T>(std::size_t, const AdjacentDifferenceOptions&);
TESSERA_MAP_TYPES(float)
TESSERA_MAP_TYPES(double)
TESSERA_MAP_TYPES(std::int32_t)
TESSERA_MAP_TYPES(std::uint32_t)
TESSERA_MAP_TYPES(std::int64_t)
#undef TESSERA_MAP_TYPES

#define TESSERA_KEY_TYPES(T)                                                                                       \
  template std::int64_t compact_if<T>(const T*, std::size_t, T*, const PredicateOptions<T>&);                     \
  template void compact_if_into<T>(const T*, std::size_t, T*, std::int64_t*, const PredicateOptions<T>&);         \
  template std::size_t compact_if_workspace_bytes<T>(std::size_t, const PredicateOptions<T>&);                    \
  template std::int64_t compact_flagged<T>(const T*, const std::uint8_t*, std::size_t, T*, const CompactOptions&); \
  template void compact_flagged_into<T>(const T*, const std::uint8_t*, std::size_t, T*, std::int64_t*,            \
                                        const CompactOptions&);                                                   \
  template std::size_t compact_flagged_workspace_bytes<T>(std::size_t, const CompactOptions&);                    \
  template std::int64_t partition_if<T>(const T*, std::size_t, T*, const PredicateOptions<T>&);                   \
  template void partition_if_into<T>(const T*, std::size_t, T*, std::int64_t*, const PredicateOptions<T>&);       \
  template std::size_t partition_if_workspace_bytes<T>(std::size_t, const PredicateOptions<T>&);                  \
  template std::int64_t unique<T>(const T*, std::size_t, T*, const CompactOptions&);                              \
  template void unique_into<T>(const T*, std::size_t, T*, std::int64_t*, const CompactOptions&);                  \
  template std::size_t unique_workspace_bytes<T>(std::size_t, const CompactOptions&);                             \
  template std::int64_t run_length_encode<T>(const T*, std::size_t, T*, std::int64_t*, const CompactOptions&);    \
  template void run_length_encode_into<T>(const T*, std::size_t, T*, std::int64_t*, std::int64_t*,                \
                                          const CompactOptions&);                                                 \
  template std::size_t run_length_encode_workspace_bytes<T>(std::size_t, const CompactOptions&);
TESSERA_KEY_TYPES(float)
TESSERA_KEY_TYPES(std::int32_t)
TESSERA_KEY_TYPES(std::uint32_t)
TESSERA_KEY_TYPES(std::int64_t)
#undef TESSERA_KEY_TYPES

#define TESSERA_DISTINCT_TYPES(T)                                                                   \
  template std::int64_t find_unique<T>(const T*, std::size_t, T*, const CompactOptions&);           \
  template void find_unique_into<T>(const T*, std::size_t, T*, std::int64_t*, const CompactOptions&); \
  template std::size_t find_unique_workspace_bytes<T>(std::size_t, const CompactOptions&);
TESSERA_DISTINCT_TYPES(std::uint8_t)
TESSERA_DISTINCT_TYPES(std::int32_t)
TESSERA_DISTINCT_TYPES(std::uint32_t)
#undef TESSERA_DISTINCT_TYPES

}  // namespace tessera
