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
  bool swapped = false;  // column-major: call.a is the caller's B and call.b its A
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

// The row-major spec of a gemm call. Column-major: the row-major C^T =
// op(B)^T op(A)^T, so m and n, A and B (with their ops and leading
// dimensions) trade places; a column-major matrix is its row-major transpose
// in the same storage.
inline GemmSpec ab_spec(std::size_t m, std::size_t n, std::size_t k, const GemmOptions& o) {
  const bool col = o.layout == Layout::col_major;
  const bool ta = o.op_a == Trans::t, tb = o.op_b == Trans::t;
  GemmSpec s{GemmOp::ab, col ? n : m, col ? m : n, k, 0, 0, 0, col ? tb : ta, col ? ta : tb};
  s.lda = dense_or(col ? o.ldb : o.lda, s.ta ? s.m : s.k);  // a stored row of the row-major A'
  s.ldb = dense_or(col ? o.lda : o.ldb, s.tb ? s.k : s.n);
  s.ldc = dense_or(o.ldc, s.n);
  return s;
}

inline GemmSpec aat_spec(std::size_t m, std::size_t k, const GemmOptions& o) {
  require(o.ldb == 0, fmt::format("tessera::gemm_aat: ldb = {} given, but C = A*A^T has no B", o.ldb));
  require(o.op_a == Trans::n && o.op_b == Trans::n && o.layout == Layout::row_major,
          fmt::format("tessera::gemm_aat: op_a = {}, op_b = {}, layout = {} given, but gemm_aat computes the "
                      "row-major A*A^T only (op_a, op_b and layout take their defaults)",
                      o.op_a == Trans::t ? "t" : "n", o.op_b == Trans::t ? "t" : "n",
                      o.layout == Layout::col_major ? "col_major" : "row_major"));
  return {GemmOp::aat, m, m, k, dense_or(o.lda, k), 0, dense_or(o.ldc, m)};
}

// The variant that runs `s`: `name`, or the policy's for this machine; throws
// for an unknown name, a variant of the other product, or a taught rung
// asked for a transposed operand.
inline const GemmVariant& variant_for(const GemmSpec& s, const std::string& name) {
  const char* who = api_name(s.op);
  const std::string_view chosen = name.empty() ? policy::default_variant(s.op, api::gpu_present()) : name;
  const GemmVariant& v = variants_ladder().at(chosen, who);
  if (s.op == GemmOp::ab && (s.ta || s.tb) && !v.supports(s)) {
    GemmSpec nn = s;
    nn.ta = nn.tb = false;
    require(!v.supports(nn),
            fmt::format("{}: variant '{}' computes N,N only; this call is {} in row-major terms (column-major "
                        "calls swap A and B): use warp_tiled, cublas_sgemm, cpu_openmp or cpu_reference",
                        who, chosen, ops_name(s)));
  }
  require(v.supports(s), fmt::format("{}: variant '{}' does not support this call ({} with m = {}, n = {}, k = {})",
                                     who, chosen, s.op == GemmOp::ab ? "C = op(A)*op(B)" : "C = A*A^T", s.m, s.n,
                                     s.k));
  return v;
}

// One matrix as the caller passed it: its name, pointer, stored size (rows x
// cols of the storage, in the caller's layout, with the letters naming
// them), leading dimension and what it means.
struct Given {
  const char* name;
  const char* ld_name;
  const float* p;
  std::size_t rows, cols, ld;
  std::string shape;  // "k x m" and the like
  bool col_major;
  std::string what;   // the operand's op, if any: ", op_a = t"

  std::size_t line() const { return col_major ? rows : cols; }   // elements of a stored row (column)
  std::size_t lines() const { return col_major ? cols : rows; }
  MatrixLayout layout() const { return {lines(), line(), ld}; }
};

inline void require_ld(const char* who, const Given& g) {
  const std::size_t need = std::max<std::size_t>(1, g.line());
  require(g.ld >= need, fmt::format("{}: {} = {} is less than max(1, {}) = {} ({} is stored {} = {} x {}, {}{})", who,
                                    g.ld_name, g.ld, g.col_major ? g.shape.substr(0, g.shape.find(' ')) :
                                                                   g.shape.substr(g.shape.rfind(' ') + 1),
                                    need, g.name, g.shape, g.rows, g.cols, g.col_major ? "column-major" : "row-major",
                                    g.what));
}

// Checks the arguments (as the caller passed them: a, b and the options'
// leading dimensions in their layout) and picks the variant; throws Error
// naming the argument and value otherwise. The call it returns is the
// row-major one of `s` (column-major: A and B swapped).
inline ApiCall validate(const GemmSpec& s, const float* a, const float* b, float* c, const GemmOptions& o) {
  const char* who = api_name(s.op);
  const bool ab = s.op == GemmOp::ab;
  const bool col = ab && o.layout == Layout::col_major;
  // The caller's m, n, ops and leading dimensions (undoing ab_spec's swap).
  const std::size_t m = col ? s.n : s.m, n = col ? s.m : s.n;
  const bool ta = ab && o.op_a == Trans::t, tb = ab && o.op_b == Trans::t;
  const std::size_t lda = col ? s.ldb : s.lda, ldb = col ? s.lda : s.ldb;
  // Stored sizes: op(A) is m x k, op(B) k x n; a transposed operand is stored the other way round.
  const Given ga{"A", "lda", a, ta ? s.k : m, ta ? m : s.k, lda, ta ? "k x m" : "m x k", col,
                 ab ? (ta ? ", op_a = t" : ", op_a = n") : ""};
  const Given gb{"B", "ldb", b, tb ? n : s.k, tb ? s.k : n, ldb, tb ? "n x k" : "k x n", col,
                 tb ? ", op_b = t" : ", op_b = n"};
  const Given gc{"C", "ldc", c, m, n, s.ldc, ab ? "m x n" : "m x m", col, ""};
  require_ld(who, ga);
  if (ab) require_ld(who, gb);
  require_ld(who, gc);
  const Extent ea = extent_of(who, "A", a, ga.layout()), ec = extent_of(who, "C", c, gc.layout());
  const Extent eb = ab ? extent_of(who, "B", b, gb.layout()) : Extent{};
  require(a != nullptr || ea.empty, fmt::format("{}: A is a null pointer but A is {} x {}", who, ga.rows, ga.cols));
  if (ab) require(b != nullptr || eb.empty, fmt::format("{}: B is a null pointer but B is {} x {}", who, gb.rows, gb.cols));
  require(c != nullptr || ec.empty, fmt::format("{}: C is a null pointer but C is {} x {}", who, m, n));
  require(!overlap(ec, ea), fmt::format("{}: C overlaps A (C must not alias an input)", who));
  if (ab) require(!overlap(ec, eb), fmt::format("{}: C overlaps B (C must not alias an input)", who));
  const GemmVariant& v = variant_for(s, o.variant);
  const float* left = col ? b : a;
  const float* right = col ? a : b;
  return {{s, o.alpha, o.beta, left, ab ? right : nullptr, c, nullptr, nullptr}, &v, col};
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
