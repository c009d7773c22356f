// The FFT rungs' blocking of a 1D convolution (overlap-save): the signal is
// cut into `blocks` segments of `valid` outputs; each segment's transform
// covers nfft inputs (its outputs plus the mask_w - 1 before them), and the
// first mask_w - 1 results of each inverse transform, wrapped around, are
// thrown away. Plain C++: the cost model and the policy use it.
#pragma once

#include <cmath>
#include <cstddef>

#include "families/convolution/contract.hpp"

namespace tessera::convolution_impl {

// direct_first .. direct_first + direct - 1: the segments whose whole
// window lies inside the signal. Their forward transform reads the input
// itself (cuFFT's advanced layout with idist = valid < nfft: overlapping
// input windows), so only the few segments at the ends are gathered (ghost
// zeros) and the gather pass over the whole signal is gone.
struct OverlapSave {
  std::size_t nfft = 0, valid = 0, blocks = 0;
  std::size_t direct_first = 0, direct = 0;
};

// Transforms of at least 64 points: cuFFT's smallest sizes gain nothing and
// a 1-point transform is not worth a special case.
inline constexpr std::size_t MIN_NFFT = 64;

inline std::size_t next_pow2(std::size_t v) {
  std::size_t p = MIN_NFFT;
  while (p < v) p *= 2;
  return p;
}

// Overlap-save blocks sized from the mask: nfft = the power of two >= 8
// (mask_w - 1) and >= 1024, so that at least 7/8 of every transform is
// output (less overlap recomputed) while the transforms stay small enough
// for cuFFT's single-kernel sizes; never longer than the whole signal needs
// (next_pow2 never returns less than MIN_NFFT).
inline OverlapSave overlap_save_of(const ConvSpec& s) {
  const std::size_t overlap = s.mask_w - 1;
  std::size_t nfft = next_pow2(overlap * 8 > 1024 ? overlap * 8 : 1024);
  const std::size_t whole = next_pow2(s.width + overlap);
  if (whole < nfft) nfft = whole;
  const std::size_t valid = nfft - overlap;
  OverlapSave os{nfft, valid, (s.width + valid - 1) / valid};
  // Segment b reads inputs b valid - r ... b valid - r + nfft - 1.
  const std::size_t r = s.rx();
  const std::size_t first = (r + valid - 1) / valid;  // b valid >= r
  if (s.width + r >= nfft) {
    const std::size_t last = (s.width + r - nfft) / valid;  // b valid - r + nfft <= width
    if (last >= first) {
      os.direct_first = first;
      os.direct = last - first + 1;
    }
  }
  return os;
}

// The whole signal in one transform (what a framework's FFT convolution
// does): nfft = the power of two >= width + mask_w - 1 (and >= MIN_NFFT).
inline OverlapSave whole_signal_of(const ConvSpec& s) {
  const std::size_t nfft = next_pow2(s.width + s.mask_w - 1);
  return {nfft, nfft - (s.mask_w - 1), 1};
}


// The fused rung (10_fft_fused.cu): one block per pair of segments, each
// pair one complex transform of FUSED_NFFT points done in shared memory and
// registers. A mask of mask_w taps leaves FUSED_NFFT - (mask_w - 1) outputs
// per segment; past FUSED_MAX_TAPS less than half of each transform would be
// output and the rung declines (fft_overlap_save grows its nfft instead).
inline constexpr std::size_t FUSED_NFFT = 4096;
inline constexpr std::size_t FUSED_MAX_TAPS = FUSED_NFFT / 2 + 1;

struct FusedBlocking {
  std::size_t valid = 0;     // outputs per segment
  std::size_t segments = 0;  // ceil(width / valid)
  std::size_t blocks = 0;    // ceil(segments / 2): two segments per transform
};

inline FusedBlocking fused_blocking_of(const ConvSpec& s) {
  FusedBlocking f;
  if (s.mask_w > FUSED_MAX_TAPS) return f;
  f.valid = FUSED_NFFT - (s.mask_w - 1);
  f.segments = (s.width + f.valid - 1) / f.valid;
  f.blocks = (f.segments + 1) / 2;
  return f;
}

// The fused rung's rounding, an absolute term added to every output's
// tolerance (docs/convolution.md "Verification"): a float FFT's error is
// normwise, not per window: each of the forward transform, the product and
// the inverse adds about log2(N) roundings of the spectrum's size, so an
// output's error is ~ c log2(N) eps ||mask||_2 rms(segment) whatever its
// own window's magnitude (an output near zero still carries it). Bound
// used: eps 4 log2(N) 16 ||mask||_2 max|input| (c = 16 with rms <= max and
// the sqrt 2 of packing two segments in one complex signal inside it).
inline double fused_error_floor(double mask_l2, double max_abs_input) {
  return std::ldexp(1.0, -24) * 4.0 * std::log2(double(FUSED_NFFT)) * 16.0 * mask_l2 * max_abs_input;
}

}  // namespace tessera::convolution_impl
