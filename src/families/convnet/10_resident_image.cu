// Step 10 — small layers with the image resident in shared memory (LeNet-5's
// layers: < 1 MB moved, ~30 MFLOP, a few microseconds).
//
// At this size the time is latency and parallelism, not bandwidth or flops:
// one launch, how many blocks reach the 132 SMs, how long each block's
// serial chain is. implicit_gemm's smallest tile (32 filters x 128 pixels)
// leaves half its rows empty at m = 16 and too few blocks to fill the SMs,
// so it splits k and adds a second kernel; shared_tiled re-reads the patch
// once per filter and passes two barriers a channel. Here one block is one
// cell (image, group of filters, band of output rows; resident_plan.hpp
// chooses the cut): it stages the band's input rows of every channel, zero
// padding included, and the group's filters in shared memory once (one
// barrier), then each thread accumulates G filters x R pixels in registers
// over its slice of the input channels: per filter tap R input loads
// (consecutive lanes, consecutive columns: no bank conflict at stride 1) and
// one G-wide weight load (the same address across the warp: a broadcast) for
// R*G FMAs. With several channel slices their partial sums meet in shared
// memory and are added in slice order (deterministic). One launch, no
// workspace, every input value read once from global memory per cell.
//
// Limits: the smallest cell (one output row, G filters) must fit 48 KiB of
// shared memory (c * k * ((wo-1) stride + k) + c k k G floats); larger
// layers are declined (supports_resident_image) and the policy picks it only
// for layers of at most 2^25 flops. Expected on LeNet-5 (predicted, not
// measured): conv2 n64 ~5 us, conv1 n64 ~4.5 us with the launch.
#include <cuda_runtime.h>

#include "families/convnet/conv_geom.cuh"
#include "families/convnet/cuda_rungs.hpp"
#include "families/convnet/resident_plan.hpp"
#include "tessera/blocks/device.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"

namespace tessera::conv_impl {

namespace {

using resident::MAX_THREADS;

// What the kernel needs of the plan (device-visible copy).
struct CellGeom {
  ConvGeom g;
  int mb, band, slices, tps, cps, in_rows, in_cols, x_floats, w_floats;
  int groups, bands;  // cells per image: groups x bands
};

// G weights of one tap for this thread's filters: one 32-, 64- or 128-bit
// shared load (ws is float4-aligned and mb a multiple of G).
template <int G>
__device__ __forceinline__ void load_weights(const float* p, float (&v)[G]) {
  if constexpr (G == 4) {
    const float4 q = *reinterpret_cast<const float4*>(p);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else if constexpr (G == 2) {
    const float2 q = *reinterpret_cast<const float2*>(p);
    v[0] = q.x, v[1] = q.y;
  } else {
    v[0] = *p;
  }
}

// Staging: element i of a thread's share (i = tid, tid + threads, ...)
// read from global memory and written to shared memory at dst(). The
// steppers hold the element's coordinates and move them on by `threads`
// with additions only (the divisions happen once, in the constructor).
constexpr int STAGE_BATCH = 8;

// The band's input rows: element i is (channel ci, row, col) of the
// [c][in_rows][in_cols] stack, zero outside the image.
struct XStepper {
  const float* xn;
  int h, w, pad, h0, in_rows, in_cols;
  int ci, row, col;
  int step_ci, step_row, step_col;
  __device__ XStepper(const CellGeom& p, const float* x_image, int h0_, int tid, int threads)
      : xn(x_image), h(p.g.h), w(p.g.w), pad(p.g.pad), h0(h0_), in_rows(p.in_rows), in_cols(p.in_cols) {
    row = tid / in_cols, col = tid - row * in_cols;
    ci = row / in_rows, row -= ci * in_rows;
    const int rows = threads / in_cols;
    step_col = threads - rows * in_cols, step_ci = rows / in_rows, step_row = rows - step_ci * in_rows;
  }
  __device__ float load() const {
    const int hi = h0 + row, wi = col - pad;
    return static_cast<unsigned>(hi) < static_cast<unsigned>(h) && static_cast<unsigned>(wi) < static_cast<unsigned>(w)
               ? __ldg(xn + (ci * h + hi) * w + wi)
               : 0.0f;
  }
  __device__ int dst() const { return (ci * in_rows + row) * in_cols + col; }
  __device__ void advance() {
    col += step_col;
    if (col >= in_cols) col -= in_cols, ++row;
    row += step_row, ci += step_ci;
    if (row >= in_rows) row -= in_rows, ++ci;
  }
};

// The group's filters: element i is tap e of filter m0 + j (w is [m][c k k]),
// stored at e * mb + j; zero past the last filter.
struct WStepper {
  const float* w;
  int m_left, ckk, mb;
  int j, e, step_j, step_e;
  __device__ WStepper(const CellGeom& p, const float* w_, int m0, int ckk_, int tid, int threads)
      : w(w_ + static_cast<long long>(m0) * ckk_), m_left(p.g.m - m0), ckk(ckk_), mb(p.mb) {
    j = tid / ckk, e = tid - j * ckk;
    step_j = threads / ckk, step_e = threads - step_j * ckk;
  }
  __device__ float load() const { return j < m_left ? __ldg(w + j * ckk + e) : 0.0f; }
  __device__ int dst() const { return e * mb + j; }
  __device__ void advance() {
    e += step_e, j += step_j;
    if (e >= ckk) e -= ckk, ++j;
  }
};

template <class Stepper>
__device__ __forceinline__ void stage_batched(Stepper st, int total, int tid, int threads, float* dst) {
  for (int i0 = tid; i0 < total; i0 += STAGE_BATCH * threads) {
    float v[STAGE_BATCH];
    int d[STAGE_BATCH];
#pragma unroll
    for (int u = 0; u < STAGE_BATCH; ++u) {
      v[u] = i0 + u * threads < total ? st.load() : 0.0f;
      d[u] = st.dst();
      st.advance();
    }
#pragma unroll
    for (int u = 0; u < STAGE_BATCH; ++u)
      if (i0 + u * threads < total) dst[d[u]] = v[u];
  }
}

template <int G, int R>
__global__ void __launch_bounds__(MAX_THREADS) conv_resident_image_kernel(CellGeom p, const float* __restrict__ x,
                                                                          const float* __restrict__ w,
                                                                          float* __restrict__ y) {
  extern __shared__ __align__(16) float smem[];
  const ConvGeom& g = p.g;
  float* xs = smem;                   // [c][in_rows][in_cols], zeros where the rows/columns fall in the padding
  float* ws = smem + p.x_floats;      // [c][k][k][mb], the group's filters side by side per tap
  float* red = ws + p.w_floats;       // [slices][mb][band * wo], partial sums (slices > 1)

  int cell = blockIdx.x;
  const int band_i = cell % p.bands;
  cell /= p.bands;
  const int m0 = cell % p.groups * p.mb, n = cell / p.groups;
  const int oh0 = band_i * p.band;
  const int rows_out = min(p.band, g.ho - oh0);
  const int tid = threadIdx.x, threads = blockDim.x;

  // Stage the band's input rows of every channel (coalesced along rows) and
  // the filters m0 .. m0+mb-1 (zeros past m), tap-major. STAGE_BATCH loads
  // a thread are in flight at once (one round trip to L2 per batch, not per
  // element), and the steppers move the indices on without a division.
  const int h0 = oh0 * g.stride - g.pad;
  stage_batched(XStepper(p, x + static_cast<long long>(n) * g.c * g.h * g.w, h0, tid, threads),
                g.c * p.in_rows * p.in_cols, tid, threads, xs);
  const int ckk = g.c * g.k * g.k;
  stage_batched(WStepper(p, w, m0, ckk, tid, threads), p.mb * ckk, tid, threads, ws);
  __syncthreads();

  const int plane = p.in_rows * p.in_cols;
  const int s = tid / p.tps, t = tid - s * p.tps;  // slice, thread within it
  const int c_begin = s * p.cps, c_end = min(g.c, c_begin + p.cps);
  const int pix = rows_out * g.wo;                 // this band's output pixels
  const int pix_tiles = (pix + R - 1) / R;
  const int tiles = p.mb / G * pix_tiles;
  const int kk = g.k * g.k;
  const int band_pix = p.band * g.wo;
  for (int tile = t; tile < tiles; tile += p.tps) {
    const int fg = tile / pix_tiles, pt = tile - fg * pix_tiles;
    // The R pixels pt, pt + pix_tiles, ...: their input offsets in a plane.
    int base[R];
    bool valid[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int q = pt + r * pix_tiles;
      valid[r] = q < pix;
      const int qq = valid[r] ? q : 0;  // a pixel past the band reads pixel 0 and is not written
      const int oh = qq / g.wo, ow = qq - oh * g.wo;
      base[r] = oh * g.stride * p.in_cols + ow * g.stride;
    }
    float acc[G][R];
#pragma unroll
    for (int j = 0; j < G; ++j)
#pragma unroll
      for (int r = 0; r < R; ++r) acc[j][r] = 0.0f;

    for (int ci = c_begin; ci < c_end; ++ci) {
      const float* xc = xs + ci * plane;
      const float* wc = ws + ci * kk * p.mb + fg * G;
      for (int kh = 0; kh < g.k; ++kh) {
        const float* xr = xc + kh * p.in_cols;
        const float* wr = wc + kh * g.k * p.mb;
#pragma unroll 5
        for (int kw = 0; kw < g.k; ++kw) {
          float wv[G];
          load_weights<G>(wr + kw * p.mb, wv);
#pragma unroll
          for (int r = 0; r < R; ++r) {
            const float xv = xr[base[r] + kw];
#pragma unroll
            for (int j = 0; j < G; ++j) acc[j][r] = fmaf(wv[j], xv, acc[j][r]);
          }
        }
      }
    }

    // One slice: straight to y (consecutive lanes, consecutive pixels).
    // Several: this slice's partial sums to shared memory.
#pragma unroll
    for (int j = 0; j < G; ++j) {
      const int mj = fg * G + j;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        if (!valid[r]) continue;
        const int q = pt + r * pix_tiles;
        if (p.slices == 1) {
          if (m0 + mj < g.m) y[(static_cast<long long>(n) * g.m + m0 + mj) * g.pixels() + oh0 * g.wo + q] = acc[j][r];
        } else {
          red[(s * p.mb + mj) * band_pix + q] = acc[j][r];
        }
      }
    }
  }
  if (p.slices == 1) return;  // uniform across the block: the barrier below is reached by all or none
  __syncthreads();
  for (int i = tid; i < p.mb * pix; i += threads) {
    const int mj = i / pix, q = i - mj * pix;
    if (m0 + mj >= g.m) continue;
    float sum = red[mj * band_pix + q];
    for (int z = 1; z < p.slices; ++z) sum += red[(z * p.mb + mj) * band_pix + q];
    y[(static_cast<long long>(n) * g.m + m0 + mj) * g.pixels() + oh0 * g.wo + q] = sum;
  }
}


template <int G, int R>
void launch_cells(const ConvCall& call, const resident::Plan& plan) {
  const ConvSpec& s = call.spec;
  CellGeom cg{geom_of(s), plan.mb, plan.band, plan.slices, plan.tps, plan.cps, plan.in_rows, plan.in_cols,
              plan.x_floats, plan.w_floats, 0, 0};
  cg.groups = int(detail::div_up(s.m, std::size_t(plan.mb)));
  cg.bands = int(detail::div_up(s.ho, std::size_t(plan.band)));
  detail::launch("conv_resident_image_kernel", conv_resident_image_kernel<G, R>, dim3(unsigned(plan.cells)),
                 dim3(unsigned(plan.threads())), plan.smem_bytes(), call.stream, s.y_elems(), cg, call.x, call.w,
                 call.y);
}

}  // namespace

bool supports_resident_image(const ConvSpec& s) { return resident::supports_resident_image(s); }

// Runs `plan` (the lab's sweeps pass their own; run_resident_image the chosen one).
void run_resident_image_with(const ConvCall& call, const resident::Plan& plan) {
  const ConvSpec& s = call.spec;
  require(resident::supports_resident_image(s),
          "resident_image: the layer " + describe(s) +
              " does not fit: its smallest cell (one output row, every input channel, a few filters) needs more "
              "than 48 KiB of shared memory");
  require(plan.smem_bytes() <= resident::SMEM_LIMIT && plan.threads() >= 1 && plan.threads() <= MAX_THREADS &&
              plan.cells >= 1 && plan.cells < (1LL << 31) && plan.mb % plan.g == 0,
          "resident_image: the plan for " + describe(s) + " is out of range (threads, shared bytes or cells)");
  switch (plan.g * 10 + plan.r) {
    case 12: launch_cells<1, 2>(call, plan); break;
    case 14: launch_cells<1, 4>(call, plan); break;
    case 22: launch_cells<2, 2>(call, plan); break;
    case 24: launch_cells<2, 4>(call, plan); break;
    case 42: launch_cells<4, 2>(call, plan); break;
    case 44: launch_cells<4, 4>(call, plan); break;
    default: throw Error("resident_image: no kernel for " + std::to_string(plan.g) + " filters x " +
                         std::to_string(plan.r) + " pixels a thread");
  }
}

void run_resident_image(const ConvCall& call) {
  require(resident::supports_resident_image(call.spec),
          "resident_image: the layer " + describe(call.spec) +
              " does not fit: its smallest cell (one output row, every input channel, a few filters) needs more "
              "than 48 KiB of shared memory");
  // The plan search (a few thousand cost evaluations) once per shape and
  // thread: a network calls the same layer again and again.
  struct Cached {
    ConvSpec spec{};
    resident::Plan plan;
    bool valid = false;
  };
  thread_local Cached last;
  const ConvSpec& s = call.spec;
  const bool same = last.valid && last.spec.n == s.n && last.spec.c == s.c && last.spec.h == s.h &&
                    last.spec.w == s.w && last.spec.m == s.m && last.spec.k == s.k && last.spec.pad == s.pad &&
                    last.spec.stride == s.stride;
  if (!same) last = {s, resident::choose_plan(s, gpu::sm_count()), true};
  run_resident_image_with(call, last.plan);
}

}  // namespace tessera::conv_impl
