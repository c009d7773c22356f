// The layer's sizes as 32-bit integers for the kernels (supports() keeps
// every tensor under 2^31 elements: fits_int32).
#pragma once

#include "families/convnet/contract.hpp"

namespace tessera::conv_impl {

struct ConvGeom {
  int n, c, h, w, m, k, pad, stride, ho, wo;

  __host__ __device__ int pixels() const { return ho * wo; }
  __host__ __device__ int gemm_k() const { return c * k * k; }
};

inline ConvGeom geom_of(const ConvSpec& s) {
  return {int(s.n), int(s.c), int(s.h), int(s.w), int(s.m), int(s.k), int(s.pad), int(s.stride), int(s.ho), int(s.wo)};
}

}  // namespace tessera::conv_impl
