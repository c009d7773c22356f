// sin and cos of one argument, four ways: the precise library sincosf,
// MUFU (__sinf/__cosf), MUFU after a reduction in turns, and FMA-pipe
// polynomials after the same reduction. Which argument scale each
// expects: SincosMode's comments (the pack kernel scales k accordingly).
#pragma once

#include <cuda_runtime.h>

namespace tessera::mriq_impl {

enum class SincosMode {
  precise,     // radians; sincosf: Cody-Waite reduction + polynomials, tens of FMA-pipe instructions
  mufu,        // radians; __sinf/__cosf: one FMUL.RZ to turns (shared) + MUFU.SIN + MUFU.COS
  turns_mufu,  // turns; r = t - rint(t) in [-0.5, 0.5] (exact), then MUFU on 2 pi r
  poly,        // turns; sincos_turns_poly, FMA-pipe polynomials, no MUFU at all
  poly_short,  // turns; sincos_turns_poly_short: one degree less each, 2 FMAs fewer, error 1.2e-5
};

// rint(t) on the FMA pipe for |t| < 2^22: adding 1.5 x 2^23 rounds to an
// integer (the ulp there is 1); subtracting it back is exact. __fadd_rn
// keeps the compiler from folding the pair away or contracting it into an
// FMA.
constexpr float ROUND_MAGIC = 12582912.0f;

// rint(t) on the FMA pipe, exact, for |t| < 2^22.
__device__ __forceinline__ float rint_fma_pipe(float t) {
  return __fsub_rn(__fadd_rn(t, ROUND_MAGIC), ROUND_MAGIC);
}

// sin and cos of 2 pi t, t in turns, on the FMA pipe alone: r = t - rint(t)
// in [-1/2, 1/2] (exact), u = r^2, sin = r S(u), cos = C(u) with S of
// degree 5 and C of degree 6: near-minimax polynomials interpolating at the
// Chebyshev nodes of u in [0, 1/4] (lab/mriq/fit_sincos.py, which prints
// them). Error 1.9e-7 in exact arithmetic, 6.1e-7 absolute evaluated in
// float (host emulation, 2e7 arguments in [-60, 60] turns). Issue slots: 3
// for the reduction, 1 for u, 5 + 1 for sin, 6 for cos; no MUFU, no integer
// or select instructions (a quarter-turn reduction needs shorter
// polynomials but ~9 integer/select instructions for the quadrant).
__device__ __forceinline__ void sincos_turns_poly(float t, float& s, float& c) {
  const float r = __fsub_rn(t, rint_fma_pipe(t));
  const float u = r * r;
  constexpr float S0 = 6.283184911827348f, S1 = -41.34158830218013f, S2 = 81.59991361943621f,
                  S3 = -76.61414030096907f, S4 = 41.34136538556012f, S5 = -12.468818618498918f;
  constexpr float C0 = 0.9999999889445765f, C1 = -19.739204466576133f, C2 = 64.93911592834644f,
                  C3 = -85.45011342750614f, C4 = 60.16742979196569f, C5 = -25.966884612699047f,
                  C6 = 6.527705963178218f;
  s = r * fmaf(fmaf(fmaf(fmaf(fmaf(S5, u, S4), u, S3), u, S2), u, S1), u, S0);
  c = fmaf(fmaf(fmaf(fmaf(fmaf(fmaf(C6, u, C5), u, C4), u, C3), u, C2), u, C1), u, C0);
}

// sincos_turns_poly with S of degree 4 and C of degree 5 (lab/mriq/
// fit_sincos.py --short): error 1.15e-5 in exact arithmetic, against a
// budget of 1e-4 of max|Q| (each pair's error is at most the sin/cos error
// times |phi|^2, and max|Q| = sum |phi|^2 at the origin), and 2 FMA-pipe
// instructions fewer per pair (19 with the argument and the sums instead
// of 21). The split takes it for 1 sample of 8, so the sum's share of the
// error is an eighth of that.
__device__ __forceinline__ void sincos_turns_poly_short(float t, float& s, float& c) {
  const float r = __fsub_rn(t, rint_fma_pipe(t));
  const float u = r * r;
  constexpr float S0 = 6.283160738801969f, S1 = -41.336782086392596f, S2 = 81.44671471150251f,
                  S3 = -74.90308574454286f, S4 = 33.535706170532904f;
  constexpr float C0 = 0.9999991998413449f, C1 = -19.73897817586144f, C2 = 64.92858783993712f,
                  C3 = -85.27084362694268f, C4 = 58.78694076315579f, C5 = -21.065429407711612f;
  s = r * fmaf(fmaf(fmaf(fmaf(S4, u, S3), u, S2), u, S1), u, S0);
  c = fmaf(fmaf(fmaf(fmaf(fmaf(C5, u, C4), u, C3), u, C2), u, C1), u, C0);
}

// sin and cos of 2 pi t, t in turns: reduced to r = t - rint(t) (exact), so
// MUFU sees an argument in [-pi, pi] (its most accurate range) whatever |t|.
__device__ __forceinline__ void sincos_turns_mufu(float t, float& s, float& c) {
  const float r = __fsub_rn(t, rint_fma_pipe(t));
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
  } else if constexpr (MODE == SincosMode::poly_short) {
    sincos_turns_poly_short(arg, s, c);
  } else {
    sincos_turns_poly(arg, s, c);
  }
}

// The k scale the pack kernel applies for each mode's argument unit.
constexpr float scale_for(SincosMode mode) {
  return mode == SincosMode::poly || mode == SincosMode::poly_short || mode == SincosMode::turns_mufu
             ? 1.0f
             : 6.28318530717958647692f;
}

}  // namespace tessera::mriq_impl
