// sin and cos of one argument, four ways: the precise library sincosf,
// MUFU (__sinf/__cosf), MUFU after a reduction in turns, and an FMA-pipe
// polynomial after a reduction in quarter turns. Which argument scale each
// expects: SincosMode's comments (the pack kernel scales k accordingly).
#pragma once

#include <cuda_runtime.h>

namespace tessera::mriq_impl {

enum class SincosMode {
  precise,     // radians; sincosf: Cody-Waite reduction + polynomials, tens of FMA-pipe instructions
  mufu,        // radians; __sinf/__cosf: one FMUL.RZ to turns (shared) + MUFU.SIN + MUFU.COS
  turns_mufu,  // turns; r = t - rint(t) in [-0.5, 0.5] (exact), then MUFU on 2 pi r
  poly,        // quarter turns; sincos_quarter_turns_poly, no MUFU at all
};

// rint(u) on the FMA pipe for |u| < 2^22: adding 1.5 x 2^23 rounds to an
// integer (the ulp there is 1); subtracting it back is exact. The low bits
// of the sum's encoding are that integer mod 4 (1.5 x 2^23 is a multiple of
// 4). __fadd_rn keeps the compiler from folding the pair away or
// contracting it into an FMA.
constexpr float ROUND_MAGIC = 12582912.0f;

// sin and cos of (pi / 2) u, u in quarter turns: q = rint(u), f = u - q in
// [-0.5, 0.5] (exact), theta = (pi / 2) f in [-pi/4, pi/4]; Taylor
// polynomials in f with the pi/2 powers folded in (sin to f^7, cos to f^8:
// truncation below 3.1e-7 and 2.5e-8 on that interval); then the quadrant
// q mod 4 swaps and negates. FMA pipe: 3 for the reduction, 1 for f^2, 4
// for sin, 4 for cos; the swap and signs on the integer/ALU pipes.
__device__ __forceinline__ void sincos_quarter_turns_poly(float u, float& s, float& c) {
  const float big = __fadd_rn(u, ROUND_MAGIC);
  const float q = __fsub_rn(big, ROUND_MAGIC);
  const float f = __fsub_rn(u, q);
  const int quadrant = __float_as_int(big) & 3;
  const float a = f * f;
  // (pi/2)^(2j+1) / (2j+1)! with alternating signs, and (pi/2)^(2j) / (2j)!.
  constexpr float S1 = 1.5707963267948966f, S3 = -0.6459640975062462f, S5 = 0.07969262624616703f,
                  S7 = -0.004681754135318687f;
  constexpr float C2 = -1.2337005501361697f, C4 = 0.2536695079010480f, C6 = -0.020863480763352957f,
                  C8 = 0.0009192602748394263f;
  const float sf = f * fmaf(a, fmaf(a, fmaf(a, S7, S5), S3), S1);
  const float cf = fmaf(a, fmaf(a, fmaf(a, fmaf(a, C8, C6), C4), C2), 1.0f);
  // sin(pi/2 (q + f)): q=0 (sf, cf), 1 (cf, -sf), 2 (-sf, -cf), 3 (-cf, sf).
  const bool swap = quadrant & 1;
  const float s0 = swap ? cf : sf, c0 = swap ? sf : cf;
  const unsigned s_sign = unsigned(quadrant & 2) << 30, c_sign = unsigned((quadrant + 1) & 2) << 30;
  s = __int_as_float(__float_as_int(s0) ^ int(s_sign));
  c = __int_as_float(__float_as_int(c0) ^ int(c_sign));
}

// sin and cos of 2 pi t, t in turns: reduced to r = t - rint(t) (exact), so
// MUFU sees an argument in [-pi, pi] (its most accurate range) whatever |t|.
__device__ __forceinline__ void sincos_turns_mufu(float t, float& s, float& c) {
  const float r = __fsub_rn(t, __fsub_rn(__fadd_rn(t, ROUND_MAGIC), ROUND_MAGIC));
  const float theta = 6.28318530717958647692f * r;
  s = __sinf(theta);
  c = __cosf(theta);
}

template <SincosMode MODE>
__device__ __forceinline__ void sincos_of(float arg, float& s, float& c) {
  if constexpr (MODE == SincosMode::precise) {
    sincosf(arg, &s, &c);
  } else if constexpr (MODE == SincosMode::mufu) {
    s = __sinf(arg);
    c = __cosf(arg);
  } else if constexpr (MODE == SincosMode::turns_mufu) {
    sincos_turns_mufu(arg, s, c);
  } else {
    sincos_quarter_turns_poly(arg, s, c);
  }
}

// The k scale the pack kernel applies for each mode's argument unit.
constexpr float scale_for(SincosMode mode) {
  return mode == SincosMode::poly ? 4.0f : mode == SincosMode::turns_mufu ? 1.0f : 6.28318530717958647692f;
}

}  // namespace tessera::mriq_impl
