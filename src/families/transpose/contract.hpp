// The transpose pattern's internal contract: what one call carries and what
// one registered variant provides. Every rung (CPU, CUDA, vendor) fills a
// TransposeVariant; the public API and the harness only go through this table.
#pragma once

#include <cstddef>

#include "core/matrix_layout.hpp"
#include "ladder/ladder.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::transpose_impl {

// What is transposed (everything but the data): the input is rows x cols,
// row-major, its rows ld_in elements apart (ld_in >= cols); the output is
// cols x rows, row-major, its rows ld_out elements apart (ld_out >= rows).
struct TransposeSpec {
  Dtype dtype;
  std::size_t rows;
  std::size_t cols;
  std::size_t ld_in;
  std::size_t ld_out;

  MatrixLayout in_layout() const { return {rows, cols, ld_in}; }
  MatrixLayout out_layout() const { return {cols, rows, ld_out}; }
};

// One call. `in` and `out` are device pointers for CUDA variants and host
// pointers for CPU variants; they must not overlap (no in-place transpose).
// A CUDA run only enqueues work on `stream`: no allocation, no host
// synchronisation (so it can be captured in a graph). No variant needs a
// workspace.
struct TransposeCall {
  TransposeSpec spec;
  const void* in;
  void* out;
  stream_t stream;
};

// What a variant writes to `out`.
enum class Output {
  transpose,  // out(j, i) = in(i, j): the cols x rows matrix, pitch ld_out
  copy,       // the bandwidth bound, not a transpose: out = in, the rows x
              // cols matrix written densely (pitch cols; it fits, since
              // cols * ld_out >= rows * cols). Never picked by the public API.
};

struct TransposeVariant {
  VariantInfo info;
  Output output;
  bool (*supports)(const TransposeSpec&);
  // Outside timed regions and graph captures, before the first run on a
  // device: creates what the variant keeps (the cuBLAS handle). nullptr when
  // there is nothing to prepare.
  void (*prepare)();
  void (*run)(const TransposeCall&);
};

// Element sizes the CUDA kernels move (they move 4- or 8-byte words and never
// look at the values): float, double, int32, int64, uint32.
bool word_sized(Dtype t);

// The ladder: ladder.cpp's table, in ladder order (step, then table order);
// the lab build adds its tuning rows to it. Lookup by name: find(), or at()
// for the "no variant named" error.
ladder::Ladder<TransposeVariant>& variants_ladder();

}  // namespace tessera::transpose_impl
