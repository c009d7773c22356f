// tessera::transpose — out = in^T for a row-major matrix in device memory.
//
//   tessera::transpose(d_in, rows, cols, d_out);                            // the policy's variant
//   tessera::transpose(d_in, rows, cols, d_out, {.stream = s});             // on stream s
//   tessera::transpose(d_in, rows, cols, d_out, {.ld_in = 4096, .ld_out = 1024});  // pitched rows
//   tessera::transpose(d_in, rows, cols, d_out, {.variant = "unroll4"});    // any ladder rung by name
//
// `d_in` is rows x cols, row-major, row i starting at d_in + i * ld_in;
// `d_out` receives the cols x rows transpose, row j starting at
// d_out + j * ld_out: out[j * ld_out + i] = in[i * ld_in + j]. ld_in = 0
// means cols and ld_out = 0 means rows (dense). Only those elements are read
// and written: the pitch padding of the output is left as it was. Any shape
// (1 x n, n x 1, primes, sizes past 2^31 elements).
//
// Types: float, double, int32, int64, uint32 — the bits are moved, never
// looked at, so every value (NaN payloads, -0) arrives unchanged. The
// vendor rung cublas_geam takes float and double only.
//
// Asynchronous, like cudaMemcpyAsync: the transpose is enqueued on
// options.stream and the call returns. Nothing is allocated (no variant
// needs scratch: transpose_workspace_bytes() is 0 and options.workspace is
// never touched), so calls can be captured into a CUDA graph (the
// cublas_geam rung creates its cuBLAS handle on its first call: make that
// call outside a capture). GPU variants take
// device (or managed) pointers; the cpu_ variants, reachable by name, take
// host pointers and run synchronously after synchronising the stream.
//
// Not in place: d_in and d_out must not overlap. Errors throw tessera::Error
// before anything is enqueued or written: a null pointer for a non-empty
// matrix, ld_in < cols or ld_out < rows, a matrix whose storage overflows
// size_t, overlapping d_in and d_out, a pointer not aligned to its element
// type, memory of the wrong kind for the variant, an unknown variant, one that
// does not support the type, or copy_bound (the ladder's copy-bandwidth
// bound, which copies instead of transposing).
#pragma once

#include <cstddef>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct TransposeOptions {
  std::size_t ld_in = 0;         // input pitch in elements (0: cols)
  std::size_t ld_out = 0;        // output pitch in elements (0: rows)
  std::string variant = {};      // empty: the variant the policy picks for this type and shape
  stream_t stream = nullptr;
  Workspace workspace = {};      // unused: no transpose variant needs scratch
};

template <class T>
void transpose(const T* d_in, std::size_t rows, std::size_t cols, T* d_out, const TransposeOptions& options = {});

// Scratch bytes a call with these arguments needs: 0 for every variant (a
// transpose moves each element once, input to output). Throws for an unknown
// options.variant.
std::size_t transpose_workspace_bytes(Dtype type, std::size_t rows, std::size_t cols,
                                      const TransposeOptions& options = {});

// The name of the variant the public API picks for these arguments.
std::string transpose_default_variant(Dtype type, std::size_t rows, std::size_t cols);

}  // namespace tessera
