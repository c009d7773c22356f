// Argument validation shared by the CUDA and CPU-only builds of the public
// transpose API: everything is checked before anything runs or is written.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "core/matrix_layout.hpp"
#include "families/transpose/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/transpose.hpp"

namespace tessera::transpose_impl {

inline std::string describe(const TransposeSpec& s) {
  return fmt::format("{} {} x {} (ld_in {}, ld_out {})", to_string(s.dtype), s.rows, s.cols, s.ld_in, s.ld_out);
}

// The spec of a call, pitches defaulted (0: dense).
inline TransposeSpec make_spec(Dtype type, std::size_t rows, std::size_t cols, const TransposeOptions& o) {
  return {type, rows, cols, o.ld_in == 0 ? cols : o.ld_in, o.ld_out == 0 ? rows : o.ld_out};
}

// Bytes from the first element to one past the last; throws when a layout
// is invalid or its storage overflows.
inline std::size_t checked_bytes(const MatrixLayout& m, std::size_t elem, const char* ptr, const char* ld,
                                 const char* dim) {
  require(m.valid(), fmt::format("tessera::transpose: {} = {} is smaller than {} = {}", ld, m.ld, dim, m.cols));
  const auto span = m.span();
  require(span.has_value() && *span <= SIZE_MAX / elem,
          fmt::format("tessera::transpose: the storage of {} ({} rows of pitch {}) overflows size_t", ptr, m.rows,
                      m.ld));
  return *span * elem;
}

// Resolves the variant (by name or the default) and checks every argument;
// throws Error naming the argument and its value otherwise.
inline const TransposeVariant& resolve(const TransposeSpec& spec, const std::string& name, const void* in,
                                       const void* out) {
  const std::size_t elem = size_of(spec.dtype);
  const std::size_t in_bytes = checked_bytes(spec.in_layout(), elem, "d_in", "ld_in", "cols");
  const std::size_t out_bytes = checked_bytes(spec.out_layout(), elem, "d_out", "ld_out", "rows");
  const bool empty = spec.rows == 0 || spec.cols == 0;
  if (!empty) {
    require(in != nullptr, fmt::format("tessera::transpose: d_in is a null pointer for a {} x {} matrix", spec.rows,
                                       spec.cols));
    require(out != nullptr, fmt::format("tessera::transpose: d_out is a null pointer for a {} x {} matrix",
                                        spec.rows, spec.cols));
    const auto a = reinterpret_cast<std::uintptr_t>(in), b = reinterpret_cast<std::uintptr_t>(out);
    require(a % elem == 0, fmt::format("tessera::transpose: d_in = {} is not aligned to its {}-byte elements", in, elem));
    require(b % elem == 0, fmt::format("tessera::transpose: d_out = {} is not aligned to its {}-byte elements", out, elem));
    require(a + in_bytes <= b || b + out_bytes <= a,
            fmt::format("tessera::transpose: d_in = {} ({} bytes) and d_out = {} ({} bytes) overlap; the transpose "
                        "is not in place: use a separate output",
                        in, in_bytes, out, out_bytes));
  }
  const std::string chosen = name.empty() ? transpose_default_variant(spec.dtype, spec.rows, spec.cols) : name;
  const TransposeVariant& v = variants_ladder().at(chosen, "tessera::transpose");
  require(v.output == Output::transpose,
          fmt::format("tessera::transpose: variant '{}' is the copy-bandwidth bound of the ladder: it copies the "
                      "matrix instead of transposing it",
                      chosen));
  require(v.supports(spec), fmt::format("tessera::transpose: variant '{}' does not support {}", chosen, describe(spec)));
  return v;
}

// A validated call of the public API: the variant and what it receives;
// variant == nullptr for an empty matrix (nothing to do).
struct ResolvedCall {
  const TransposeVariant* variant;
  TransposeCall call;
};

inline ResolvedCall resolve_call(Dtype type, const void* in, std::size_t rows, std::size_t cols, void* out,
                                 const TransposeOptions& options) {
  const TransposeSpec spec = make_spec(type, rows, cols, options);
  const TransposeVariant& v = resolve(spec, options.variant, in, out);
  return {rows == 0 || cols == 0 ? nullptr : &v, {spec, in, out, options.stream}};
}

}  // namespace tessera::transpose_impl

// The element types of the public API, instantiated by both builds.
#define TESSERA_TRANSPOSE_INSTANTIATE(T) \
  template void transpose<T>(const T*, std::size_t, std::size_t, T*, const TransposeOptions&);
#define TESSERA_TRANSPOSE_INSTANTIATE_ALL()    \
  TESSERA_TRANSPOSE_INSTANTIATE(float)         \
  TESSERA_TRANSPOSE_INSTANTIATE(double)        \
  TESSERA_TRANSPOSE_INSTANTIATE(std::int32_t)  \
  TESSERA_TRANSPOSE_INSTANTIATE(std::int64_t)  \
  TESSERA_TRANSPOSE_INSTANTIATE(std::uint32_t)
