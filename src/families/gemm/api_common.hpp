// Argument validation of the public GEMM API (api.cpp): the spec from the
// sizes and options, the variant (options.variant or policy.hpp's), and
// every pointer and leading dimension, checked before anything runs or is
// written.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpu_present.hpp"
#include "core/matrix_layout.hpp"
#include "families/gemm/contract.hpp"
#include "families/gemm/policy.hpp"
#include "tessera/core/error.hpp"
#include "tessera/gemm.hpp"

namespace tessera::gemm_impl {

// One validated call of the public API: the call (workspace and stream
// still unset) and the variant that will run it.
struct ApiCall {
  GemmCall call;
  const GemmVariant* variant;
};

inline const char* api_name(GemmOp op) { return op == GemmOp::ab ? "tessera::gemm" : "tessera::gemm_aat"; }

// The storage [p, p + span) of a matrix as addresses, for the overlap test;
// throws when the span overflows.
struct Extent {
  std::uintptr_t begin = 0, end = 0;
  bool empty = true;
};

inline Extent extent_of(const char* who, const char* name, const float* p, const MatrixLayout& m) {
  const auto span = m.span();
  require(span.has_value() && *span <= SIZE_MAX / sizeof(float),
          fmt::format("{}: {} of {} x {} with leading dimension {} does not fit in memory", who, name, m.rows, m.cols,
                      m.ld));
  Extent e;
  e.empty = *span == 0;
  e.begin = reinterpret_cast<std::uintptr_t>(p);
  e.end = e.begin + *span * sizeof(float);
  return e;
}

inline bool overlap(const Extent& x, const Extent& y) {
  return !x.empty && !y.empty && x.begin < y.end && y.begin < x.end;
}

// A leading dimension from the options: 0 means dense (BLAS: at least 1).
inline std::size_t dense_or(std::size_t ld, std::size_t cols) { return ld != 0 ? ld : std::max<std::size_t>(1, cols); }

inline GemmSpec ab_spec(std::size_t m, std::size_t n, std::size_t k, const GemmOptions& o) {
  return {GemmOp::ab, m, n, k, dense_or(o.lda, k), dense_or(o.ldb, n), dense_or(o.ldc, n)};
}

inline GemmSpec aat_spec(std::size_t m, std::size_t k, const GemmOptions& o) {
  require(o.ldb == 0, fmt::format("tessera::gemm_aat: ldb = {} given, but C = A*A^T has no B", o.ldb));
  return {GemmOp::aat, m, m, k, dense_or(o.lda, k), 0, dense_or(o.ldc, m)};
}

// The variant that runs `s`: `name`, or the policy's for this machine; throws
// for an unknown name or a variant of the other product.
inline const GemmVariant& variant_for(const GemmSpec& s, const std::string& name) {
  const char* who = api_name(s.op);
  const std::string_view chosen = name.empty() ? policy::default_variant(s.op, api::gpu_present()) : name;
  const GemmVariant& v = variants_ladder().at(chosen, who);
  require(v.supports(s), fmt::format("{}: variant '{}' does not support this call ({} with m = {}, n = {}, k = {})",
                                     who, chosen, s.op == GemmOp::ab ? "C = A*B" : "C = A*A^T", s.m, s.n, s.k));
  return v;
}

// Checks the arguments and picks the variant; throws Error naming the
// argument and value otherwise.
inline ApiCall validate(const GemmSpec& s, const float* a, const float* b, float* c, const GemmOptions& o) {
  const char* who = api_name(s.op);
  const bool ab = s.op == GemmOp::ab;
  require(s.lda >= std::max<std::size_t>(1, s.k),
          fmt::format("{}: lda = {} is less than max(1, k) = {} (A is m x k, row-major)", who, s.lda,
                      std::max<std::size_t>(1, s.k)));
  if (ab)
    require(s.ldb >= std::max<std::size_t>(1, s.n),
            fmt::format("{}: ldb = {} is less than max(1, n) = {} (B is k x n, row-major)", who, s.ldb,
                        std::max<std::size_t>(1, s.n)));
  require(s.ldc >= std::max<std::size_t>(1, s.n),
          fmt::format("{}: ldc = {} is less than max(1, {}) = {} (C is {}, row-major)", who, s.ldc, ab ? "n" : "m",
                      std::max<std::size_t>(1, s.n), ab ? "m x n" : "m x m"));
  const MatrixLayout la{s.m, s.k, s.lda}, lb{s.k, s.n, s.ldb}, lc{s.m, s.n, s.ldc};
  const Extent ea = extent_of(who, "A", a, la), ec = extent_of(who, "C", c, lc);
  const Extent eb = ab ? extent_of(who, "B", b, lb) : Extent{};
  require(a != nullptr || ea.empty, fmt::format("{}: A is a null pointer but A is {} x {}", who, s.m, s.k));
  if (ab) require(b != nullptr || eb.empty, fmt::format("{}: B is a null pointer but B is {} x {}", who, s.k, s.n));
  require(c != nullptr || ec.empty, fmt::format("{}: C is a null pointer but C is {} x {}", who, s.m, s.n));
  require(!overlap(ec, ea), fmt::format("{}: C overlaps A (C must not alias an input)", who));
  if (ab) require(!overlap(ec, eb), fmt::format("{}: C overlaps B (C must not alias an input)", who));
  const GemmVariant& v = variant_for(s, o.variant);
  return {{s, o.alpha, o.beta, a, ab ? b : nullptr, c, nullptr, nullptr}, &v};
}

// Host scratch for a cpu_ variant: the caller's workspace when given (it
// must hold `bytes`), else `own`.
inline void* host_scratch(std::size_t bytes, const Workspace& given, std::vector<unsigned char>& own,
                          const char* who) {
  if (given.ptr == nullptr) {
    own.resize(bytes);
    return own.data();
  }
  require(given.bytes >= bytes,
          fmt::format("{}: the workspace holds {} bytes but this call needs {}", who, given.bytes, bytes));
  return given.ptr;
}

}  // namespace tessera::gemm_impl
