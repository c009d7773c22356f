// The update of one interior cell, shared by every rung (host and device) so
// that all of them add the neighbours in the same order: the pairs along x,
// y and z, then the pair sums. Only the float/double rounding of the CPU's
// and GPU's FMA contraction can differ between rungs.
#pragma once

#if defined(__CUDACC__)
#define TESSERA_STENCIL_HD __host__ __device__ __forceinline__
#else
#define TESSERA_STENCIL_HD inline
#endif

namespace tessera::stencil7_impl {

template <class T>
TESSERA_STENCIL_HD T stencil_point(T c0, T c1, T centre, T xm, T xp, T ym, T yp, T zm, T zp) {
  return c1 * (((xm + xp) + (ym + yp)) + (zm + zp)) - c0 * centre;
}

}  // namespace tessera::stencil7_impl
