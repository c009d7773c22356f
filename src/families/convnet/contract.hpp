// The convnet pattern's internal contract: what one call carries and what one
// registered variant provides. Every rung (CPU, CUDA, vendor) fills a
// ConvVariant; the public API and the harness only go through this table.
#pragma once

#include <cstddef>
#include <string>

#include "ladder/ladder.hpp"
#include "tessera/convnet.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::conv_impl {

// A validated shape (tessera::ConvShape) with its derived sizes.
struct ConvSpec {
  std::size_t n, c, h, w, m, k, pad, stride;
  std::size_t ho, wo;

  std::size_t x_elems() const { return n * c * h * w; }
  std::size_t w_elems() const { return m * c * k * k; }
  std::size_t y_elems() const { return n * m * ho * wo; }
  // The GEMM view: y_n (m x ho*wo) = w (m x c*k*k) * unrolled x_n (c*k*k x ho*wo).
  std::size_t gemm_k() const { return c * k * k; }
  std::size_t pixels() const { return ho * wo; }
  double flops() const { return 2.0 * double(y_elems()) * double(gemm_k()); }
};

ConvSpec make_spec(const ConvShape& s);  // no validation (api_common.hpp validates)
std::string describe(const ConvSpec& s);  // "n64 c3 227x227 -> m96 k11 s4 p0"

// One call. Pointers are device pointers for CUDA variants and host pointers
// for CPU variants; y does not overlap x or w. A CUDA run only enqueues work
// on `stream` (no allocation, no host synchronisation once prepare() ran for
// the spec). `workspace` holds workspace_bytes(spec) bytes.
struct ConvCall {
  ConvSpec spec;
  const float* x;
  const float* w;
  float* y;
  void* workspace;
  stream_t stream;
};

struct ConvVariant {
  VariantInfo info;
  bool (*supports)(const ConvSpec&);
  std::size_t (*workspace_bytes)(const ConvSpec&);
  // Outside timed regions and graph captures, before the first run of a
  // spec: what the variant keeps per spec (cuDNN's handle, descriptors and
  // chosen algorithm). nullptr when there is nothing to prepare.
  void (*prepare)(const ConvSpec&);
  void (*run)(const ConvCall&);
};

// The CUDA rungs index with 32-bit integers.
bool fits_int32(const ConvSpec& s);

ladder::Ladder<ConvVariant>& variants_ladder();

}  // namespace tessera::conv_impl
