// The fused FFT rung's arithmetic (10_fft_fused.cu): a 4,096-point complex
// FFT done by one block of 256 threads, 16 points per thread in registers,
// three radix-16 stages with two shared-memory exchanges between them.
// Host-and-device code: the CPU tests run the same stage functions thread by
// thread (tests/test_convolution_cpu.cpp) to check the indexing without a GPU.
//
// Indices (N = 4096 = 16^3): n = 256 a + 16 b + c, k = k0 + 16 k1 + 256 k2,
// W = exp(-2 pi i / N). nk mod N = 256 a k0 + (16 b + c) k0 + 256 b k1
// + 16 c k1 + 256 c k2, so the forward transform is
//   stage 1, thread t = 16 b + c: 16-point DFT over a -> k0, twiddle W^(t k0)
//   stage 2, thread (k0, c):      DFT over b -> k1, twiddle W^(16 c k1)
//   stage 3, thread (k0, k1):     DFT over c -> k2
// and thread k0 + 16 k1 ends with X[k0 + 16 k1 + 256 k2] in register k2:
// its 16 bins sit 256 apart, so the mask's spectrum is read in natural order,
// coalesced, and the inverse runs the same stages backwards (conjugate
// twiddles) without any reordering. Thread t starts with x[256 a + t] and
// the inverse ends with the same layout: the global loads and stores are
// coalesced too.
#pragma once

#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

#include "families/convolution/fft_geometry.hpp"

#if defined(__CUDACC__)
#define TESSERA_FFT_HD __host__ __device__ __forceinline__
#define TESSERA_FFT_UNROLL _Pragma("unroll")
#else
#define TESSERA_FFT_HD inline
#define TESSERA_FFT_UNROLL
#endif

namespace tessera::convolution_impl::fused {

inline constexpr int N = int(FUSED_NFFT);  // points per transform
inline constexpr int THREADS = 256;         // N / 16: one 16-point DFT per thread per stage
inline constexpr int TABLE = 64;            // W^e = FINE[e % 64] * COARSE[e / 64]
inline constexpr int ROOT256_SLOTS = 255 + 255 / 16 + 1;  // W^(16 m), m < 256, one pad slot every 16
inline constexpr int TABLE_ENTRIES = 2 * TABLE + ROOT256_SLOTS;
static_assert(N == 16 * 16 * 16 && THREADS * 16 == N && TABLE * TABLE == N, "three radix-16 stages of 256 threads");

// The exchanges' layouts, padded so that every exchange's writes and reads
// are free of bank conflicts (float arrays, one word a bank):
//   A (k0, b, c) at k0 * 272 + 16 b + c: written by t = 16 b + c (consecutive),
//     read by (k0, c) = (tau / 16, tau % 16) (272 = 16 mod 32 splits a warp's two k0);
//   B (k0, k1, c) at k1 * 304 + 18 c + k0: written by (k0, c), 18 c spreads
//     the 16 c over the even banks; read by tau = k0 + 16 k1 (304 = 16 mod 32).
inline constexpr int A_K0 = 272;
inline constexpr int B_K1 = 304, B_C = 18;
inline constexpr int EXCHANGE = 15 * B_K1 + 15 * B_C + 15 + 1;  // floats per array: B is the larger
static_assert(EXCHANGE >= 15 * A_K0 + 255 + 1, "layout A fits the exchange");

struct alignas(8) Cx {
  float re, im;
};

TESSERA_FFT_HD Cx cadd(Cx a, Cx b) { return {a.re + b.re, a.im + b.im}; }
TESSERA_FFT_HD Cx csub(Cx a, Cx b) { return {a.re - b.re, a.im - b.im}; }
TESSERA_FFT_HD Cx cmul(Cx a, Cx b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
TESSERA_FFT_HD Cx conj(Cx a) { return {a.re, -a.im}; }

// exp(-2 pi i e / N) for 0 <= e < N, correctly rounded but for the last bit
// (2 e / N is exact in float; sincospif reduces the argument exactly).
TESSERA_FFT_HD Cx unit_root(int e) {
#if defined(__CUDA_ARCH__)
  float s, c;
  sincospif(-2.0f * float(e) / float(N), &s, &c);
  return {c, s};
#else
  const double angle = -2.0 * 3.14159265358979323846 * double(e) / double(N);
  return {float(std::cos(angle)), float(std::sin(angle))};
#endif
}

// The twiddles of a block, one table in shared memory (3.2 KB instead of
// 32 KB for all 4,096 roots): FINE (W^f, f < 64) and COARSE (W^(64 c),
// c < 64) combine into any root with one complex product (about one more
// rounding); the 256 roots W^(16 m) the middle stages use are stored whole
// (one load, no product), at slot m + m / 16 so that the 16 threads of a
// half-warp, which read m = c k1 for c < 16, mostly hit distinct banks.
struct Twiddles {
  const Cx* table;  // TABLE_ENTRIES: FINE, COARSE, then the W^(16 m) slots
  TESSERA_FFT_HD Cx forward(int e) const {
    return cmul(table[e & (TABLE - 1)], table[TABLE + ((e >> 6) & (TABLE - 1))]);
  }
  TESSERA_FFT_HD Cx root256(int m) const {  // W^(16 m)
    m &= 255;
    return table[2 * TABLE + m + (m >> 4)];
  }
};

// Entry i < TABLE_ENTRIES of the table (the pad slots hold 1).
TESSERA_FFT_HD Cx table_entry(int i) {
  if (i < TABLE) return unit_root(i);
  if (i < 2 * TABLE) return unit_root((i - TABLE) * TABLE);
  const int slot = i - 2 * TABLE, q = slot / 17, r = slot % 17;  // slot = m + m / 16 = 17 q + r, m = 16 q + r
  return unit_root(r == 16 ? 0 : 16 * (16 * q + r));
}

// exp(-+2 pi i j / 16), constants once the loops are unrolled.
template <bool INVERSE>
TESSERA_FFT_HD Cx w16(int j) {
  constexpr float C1 = 0.92387953251128674f, S1 = 0.38268343236508978f, H = 0.70710678118654752f;
  Cx w{1.0f, 0.0f};
  switch (j & 15) {
    case 0: w = {1.0f, 0.0f}; break;
    case 1: w = {C1, -S1}; break;
    case 2: w = {H, -H}; break;
    case 3: w = {S1, -C1}; break;
    case 4: w = {0.0f, -1.0f}; break;
    case 5: w = {-S1, -C1}; break;
    case 6: w = {-H, -H}; break;
    case 7: w = {-C1, -S1}; break;
    case 8: w = {-1.0f, 0.0f}; break;
    case 9: w = {-C1, S1}; break;
    case 10: w = {-H, H}; break;
    case 11: w = {-S1, C1}; break;
    case 12: w = {0.0f, 1.0f}; break;
    case 13: w = {S1, C1}; break;
    case 14: w = {H, H}; break;
    default: w = {C1, S1}; break;
  }
  return INVERSE ? conj(w) : w;
}

// 4-point DFT in place: forward X1 = t1 - i t3, inverse X1 = t1 + i t3.
template <bool INVERSE>
TESSERA_FFT_HD void dft4(Cx& a, Cx& b, Cx& c, Cx& d) {
  const Cx t0 = cadd(a, c), t1 = csub(a, c), t2 = cadd(b, d), t3 = csub(b, d);
  // -i t3 = (t3.im, -t3.re)
  const Cx mi_t3{INVERSE ? -t3.im : t3.im, INVERSE ? t3.re : -t3.re};
  a = cadd(t0, t2);
  c = csub(t0, t2);
  b = cadd(t1, mi_t3);
  d = csub(t1, mi_t3);
}

// 16-point DFT of v in place, natural order in and out: 4 x 4 (a = 4 a1 +
// a0, k = k' + 4 k''), the inner twiddles W16^(a0 k') being constants.
template <bool INVERSE>
TESSERA_FFT_HD void dft16(Cx v[16]) {
TESSERA_FFT_UNROLL
  for (int a0 = 0; a0 < 4; ++a0) dft4<INVERSE>(v[a0], v[4 + a0], v[8 + a0], v[12 + a0]);  // v[a0 + 4 k']
TESSERA_FFT_UNROLL
  for (int a0 = 1; a0 < 4; ++a0)
TESSERA_FFT_UNROLL
    for (int k1 = 1; k1 < 4; ++k1) v[a0 + 4 * k1] = cmul(v[a0 + 4 * k1], w16<INVERSE>(a0 * k1));
TESSERA_FFT_UNROLL
  for (int k1 = 0; k1 < 4; ++k1) dft4<INVERSE>(v[4 * k1], v[4 * k1 + 1], v[4 * k1 + 2], v[4 * k1 + 3]);
  // X[k' + 4 k''] is at 4 k' + k'': transpose (register renaming once unrolled).
  Cx w[16];
TESSERA_FFT_UNROLL
  for (int i = 0; i < 16; ++i) w[(i >> 2) + 4 * (i & 3)] = v[i];
TESSERA_FFT_UNROLL
  for (int i = 0; i < 16; ++i) v[i] = w[i];
}

// The exchange buffer: real and imaginary parts in two float arrays.
struct Exchange {
  float* re;
  float* im;
  TESSERA_FFT_HD void put(int i, Cx v) const {
    re[i] = v.re;
    im[i] = v.im;
  }
  TESSERA_FFT_HD Cx get(int i) const { return {re[i], im[i]}; }
};

// ---- forward ----
// Stage 1, thread t = 16 b + c, v[a] = x[256 a + t] -> v[k0], stored to A.
TESSERA_FFT_HD void forward_stage1(Cx v[16], int t, const Twiddles& tw) {
  dft16<false>(v);
TESSERA_FFT_UNROLL
  for (int k0 = 1; k0 < 16; ++k0) v[k0] = cmul(v[k0], tw.forward((t * k0) & (N - 1)));
}
TESSERA_FFT_HD void store_a_by_bc(const Exchange& ex, const Cx v[16], int t) {
TESSERA_FFT_UNROLL
  for (int k0 = 0; k0 < 16; ++k0) ex.put(k0 * A_K0 + t, v[k0]);
}
// Thread tau = (k0, c) = (tau / 16, tau % 16): v[b] = A(k0, b, c).
TESSERA_FFT_HD void load_a_by_k0c(Cx v[16], const Exchange& ex, int tau) {
  const int k0 = tau >> 4, c = tau & 15;
TESSERA_FFT_UNROLL
  for (int b = 0; b < 16; ++b) v[b] = ex.get(k0 * A_K0 + 16 * b + c);
}
TESSERA_FFT_HD void forward_stage2(Cx v[16], int tau, const Twiddles& tw) {
  const int c = tau & 15;
  dft16<false>(v);
TESSERA_FFT_UNROLL
  for (int k1 = 1; k1 < 16; ++k1) v[k1] = cmul(v[k1], tw.root256(c * k1));
}
TESSERA_FFT_HD void store_b_by_k0c(const Exchange& ex, const Cx v[16], int tau) {
  const int k0 = tau >> 4, c = tau & 15;
TESSERA_FFT_UNROLL
  for (int k1 = 0; k1 < 16; ++k1) ex.put(k1 * B_K1 + B_C * c + k0, v[k1]);
}
// Thread tau = k0 + 16 k1: v[c] = B(k0, k1, c).
TESSERA_FFT_HD void load_b_by_k0k1(Cx v[16], const Exchange& ex, int tau) {
  const int k0 = tau & 15, k1 = tau >> 4;
TESSERA_FFT_UNROLL
  for (int c = 0; c < 16; ++c) v[c] = ex.get(k1 * B_K1 + B_C * c + k0);
}
// Stage 3: v[k2] = X[tau + 256 k2].
TESSERA_FFT_HD void forward_stage3(Cx v[16]) { dft16<false>(v); }

// ---- inverse (unnormalised: N x the inverse DFT) ----
// Thread tau = k0 + 16 k1 with v[k2] = Y[tau + 256 k2] -> v[c], stored to B.
TESSERA_FFT_HD void inverse_stage1(Cx v[16], int tau, const Twiddles& tw) {
  const int k1 = tau >> 4;
  dft16<true>(v);
TESSERA_FFT_UNROLL
  for (int c = 1; c < 16; ++c) v[c] = cmul(v[c], conj(tw.root256(c * k1)));
}
TESSERA_FFT_HD void store_b_by_k0k1(const Exchange& ex, const Cx v[16], int tau) {
  const int k0 = tau & 15, k1 = tau >> 4;
TESSERA_FFT_UNROLL
  for (int c = 0; c < 16; ++c) ex.put(k1 * B_K1 + B_C * c + k0, v[c]);
}
// Thread tau = (k0, c): v[k1] = B(k0, k1, c) -> v[b].
TESSERA_FFT_HD void load_b_by_k0c(Cx v[16], const Exchange& ex, int tau) {
  const int k0 = tau >> 4, c = tau & 15;
TESSERA_FFT_UNROLL
  for (int k1 = 0; k1 < 16; ++k1) v[k1] = ex.get(k1 * B_K1 + B_C * c + k0);
}
TESSERA_FFT_HD void inverse_stage2(Cx v[16], int tau, const Twiddles& tw) {
  const int k0 = tau >> 4, c = tau & 15;
  dft16<true>(v);
TESSERA_FFT_UNROLL
  for (int b = 0; b < 16; ++b) v[b] = cmul(v[b], conj(tw.forward(((16 * b + c) * k0) & (N - 1))));
}
TESSERA_FFT_HD void store_a_by_k0c(const Exchange& ex, const Cx v[16], int tau) {
  const int k0 = tau >> 4, c = tau & 15;
TESSERA_FFT_UNROLL
  for (int b = 0; b < 16; ++b) ex.put(k0 * A_K0 + 16 * b + c, v[b]);
}
// Thread t = 16 b + c: v[k0] = A(k0, b, c) -> v[a] = N x[256 a + t].
TESSERA_FFT_HD void load_a_by_bc(Cx v[16], const Exchange& ex, int t) {
TESSERA_FFT_UNROLL
  for (int k0 = 0; k0 < 16; ++k0) v[k0] = ex.get(k0 * A_K0 + t);
}
TESSERA_FFT_HD void inverse_stage3(Cx v[16]) { dft16<true>(v); }

// ---- the overlap-save blocking of one block: two segments, z = a + i b ----
// Block g convolves segments 2 g (real part) and 2 g + 1 (imaginary part);
// segment s's outputs are s valid .. s valid + valid - 1, its inputs start
// r = overlap / 2 before them. Point p of the transform holds the inputs
// first_input(g) + p and first_input(g) + valid + p (zero outside the
// signal); point p >= overlap of the inverse is output
// first_output(g) + p - overlap (and + valid for the imaginary part).
TESSERA_FFT_HD std::int64_t first_output(std::int64_t g, std::int64_t valid) { return 2 * g * valid; }
TESSERA_FFT_HD std::int64_t first_input(std::int64_t g, std::int64_t valid, int overlap) {
  return first_output(g, valid) - overlap / 2;
}

// A read-only load (the non-coherent path on the device).
template <class T>
TESSERA_FFT_HD T read_only(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

// Thread t's points of block g: v[a] = z[256 a + t] (16 x 2 independent
// loads, coalesced across the block).
TESSERA_FFT_HD void load_segments(Cx v[16], const float* in, std::int64_t n, std::int64_t g, std::int64_t valid,
                                  int overlap, int t) {
  const std::int64_t p0 = first_input(g, valid, overlap);
  if (p0 >= 0 && p0 + valid + N <= n) {  // both windows inside the signal (all blocks but the ends): no tests
    const std::int64_t o = p0 + t;
    TESSERA_FFT_UNROLL
    for (int a = 0; a < 16; ++a) v[a] = {read_only(in + (o + 256 * a)), read_only(in + (o + valid + 256 * a))};
    return;
  }
  TESSERA_FFT_UNROLL
  for (int a = 0; a < 16; ++a) {
    const std::int64_t ia = p0 + 256 * a + t, ib = ia + valid;
    v[a] = {(ia >= 0 && ia < n) ? read_only(in + ia) : 0.0f, (ib >= 0 && ib < n) ? read_only(in + ib) : 0.0f};
  }
}

// The mask reversed (P[i] = sum_j M[j] N[i - r + j] is a correlation; the
// FFT convolves) and zero-padded to N, in load_segments' layout.
TESSERA_FFT_HD void load_reversed_mask(Cx v[16], const float* mask, int taps, int t) {
  TESSERA_FFT_UNROLL
  for (int a = 0; a < 16; ++a) {
    const int k = 256 * a + t;
    v[a] = {k < taps ? read_only(mask + (taps - 1 - k)) : 0.0f, 0.0f};
  }
}

// After the forward transform: v[k2] *= H[t + 256 k2] (H in natural order).
TESSERA_FFT_HD void multiply_spectrum(Cx v[16], const Cx* spectrum, int t) {
  TESSERA_FFT_UNROLL
  for (int k2 = 0; k2 < 16; ++k2) v[k2] = cmul(v[k2], spectrum[t + 256 * k2]);
}

// After the inverse: point p = 256 a + t >= overlap is output
// first_output(g) + p - overlap of segment 2 g (real part) and, valid
// further, of segment 2 g + 1 (imaginary part); the first overlap points
// wrapped around and are thrown away.
TESSERA_FFT_HD void store_segments(float* out, const Cx v[16], std::int64_t n, std::int64_t g, std::int64_t valid,
                                   int overlap, int t) {
  const std::int64_t x0 = first_output(g, valid);
  if (x0 + 2 * valid <= n) {  // both segments' outputs inside the signal: only the wrapped points are skipped
    const std::int64_t o = x0 - overlap + t;  // + 256 a: point 256 a + t's output, when it is one
    TESSERA_FFT_UNROLL
    for (int a = 0; a < 16; ++a) {
      if (256 * a + t < overlap) continue;
      out[o + 256 * a] = v[a].re;
      out[o + valid + 256 * a] = v[a].im;
    }
    return;
  }
  TESSERA_FFT_UNROLL
  for (int a = 0; a < 16; ++a) {
    const int p = 256 * a + t;
    if (p < overlap) continue;
    const std::int64_t xa = x0 + (p - overlap), xb = xa + valid;
    if (xa < n) out[xa] = v[a].re;
    if (xb < n) out[xb] = v[a].im;
  }
}

}  // namespace tessera::convolution_impl::fused
