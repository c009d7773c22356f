// The arithmetic of step 7 (running_sum_segmented), shared by the kernel
// (07_running_sum_segmented.cu) and the CPU tests that model it bit for bit
// (tests/test_moving_average_cpu.cpp): a float prefix that restarts every
// SEGMENT staged samples, and the one float expression an output is.
//
// A tile's staged samples ys[0, count) are cut into segments of SEGMENT = 128
// (one float4 per lane of a warp). Within segment s, L[m] = ys[sG] + ... +
// ys[m - 1] (the local exclusive prefix, in float; L[sG] = 0), and the
// segment's float total T[s] = L at its end, as the same adds computed it. A
// window [a, b) of the staged samples then sums to
//     (A[sb] - A[sa]) + (L[b] - L[a]),   A[s] = T[0] + ... + T[s-1] in double,
// sa, sb the segments of a and b. The double part is per segment, not per
// sample: sb - sa is q = w / SEGMENT or q + 1, so each segment keeps
// D[2 sa + d] = float(A[sa + q + d] - A[sa]) and an output is
//     c * (D[2 sa + d] + (L[b] - L[a]))          (four float operations).
//
// Error (docs/moving_average.md, "Precision"), u = 2^-24, S = sum |x| over
// [i - h - 127, i + h] (the window and the start of its first segment):
// the T[s] and L[m] are float sums within one segment, each sample through
// at most 9 roundings (3 in the lane, 5 in the warp scan, 1 adding the
// lane's exclusive prefix). A is exact to ~2^-53 (double sums of floats),
// so A[sb] - A[sa] + L[b] - L[a] differs from the exact window sum by the
// errors of T[sa..sb), L[b] (samples [sa G, b)) and L[a] (samples [sa G, a)):
// at most 2 gamma_9 S. Converting D, subtracting, adding and multiplying by
// c add at most 2 u S + 2 u |out|:
//     |out_i - c * exact_i| <= 20 u c S + 2 u |out_i|,
// the window's absolute sum times 20 u (w + 127) / w, against a direct float
// sum's worst case (w - 1) u: no growth with w or with the position.
#pragma once

#include "tessera/blocks/hd.hpp"

namespace tessera::moving_average_impl::segmented {

inline constexpr int LANE_ITEMS = 4;                // one float4 per lane
inline constexpr int SEGMENT = 32 * LANE_ITEMS;     // samples per float prefix
inline constexpr int SEGMENT_SHIFT = 7;
static_assert(SEGMENT == 1 << SEGMENT_SHIFT, "segment of a staged index by a shift");

// A lane's four samples: their running sums before each (p[0] = 0) and
// their total, in the order the kernel adds them.
struct LanePrefix {
  float p[LANE_ITEMS];
  float total;
};
TESSERA_HD LanePrefix lane_prefix(float v0, float v1, float v2, float v3) {
  LanePrefix r;
  r.p[0] = 0.0f;
  r.p[1] = v0;
  r.p[2] = v0 + v1;
  r.p[3] = r.p[2] + v2;
  r.total = r.p[3] + v3;
  return r;
}

// Output of the window [a, b) (staged indices) from the segment table D and
// the local prefixes: c * (D + (L[b] - L[a])). Written out, not left to
// contraction: the model and the kernel round the same way.
TESSERA_HD float window_output(float c, float d, float lb, float la) {
  const float local = lb - la;
  const float sum = d + local;
  return c * sum;
}

}  // namespace tessera::moving_average_impl::segmented
