// Step 5 — implicit GEMM, tessera's convolution: the GEMM of step 4 without
// the unrolled matrix (seed 000 "ConvNet", cuDNN's "GEMM with on-the-fly lazy
// generation" of the unrolled input).
//
// The GEMM view: rows are the m filters, columns the n*ho*wo output pixels of
// the whole batch, the inner dimension c*k*k. A block computes a BM x BN tile
// of it in BK-deep steps: the BM x BK slice of the filter bank (contiguous
// rows of w: 128-bit loads where c*k*k is a multiple of 4) and the BK x BN
// tile of the unrolled input, gathered straight from x into shared memory
// (zeros in the padding; consecutive threads take consecutive output pixels,
// so the gather reads consecutive input columns for stride 1). Shared memory
// is double buffered: the next step's global loads are in flight in
// registers while the current step is multiplied, one barrier per step.
// Each thread keeps a TM x TN register tile of outputs, its fragments read
// with 128-bit shared loads in groups of 4 spread across the tile (no bank
// conflicts), FP32 FMA only (no tensor cores). Where the tiles alone would
// leave SMs idle (batch 1, small images) the inner dimension is split into
// slices whose partial tiles a second kernel adds in a fixed order
// (deterministic).
//
// What it changes over step 4: no unrolled matrix through memory (k*k times
// the input), one launch for the whole batch, tiles chosen for the shape.
// Expected: 60-80% of the FP32 rate on the large layers.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>

#include "families/convnet/conv_geom.cuh"
#include "families/convnet/cuda_rungs.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera::conv_impl {

namespace {

// A block tile BM x BN, BK deep, TM x TN outputs per thread.
template <int BM_, int BN_, int BK_, int TM_, int TN_>
struct TileConfig {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
  static constexpr int THREADS = (BM / TM) * (BN / TN);
  // Several blocks an SM, so one block's barrier wait is covered by
  // another's FMAs: 2 of 256 threads (<= 128 registers, no spill at 8x8), 3
  // of 128 (<= 168: at 128 the 64x128 tile spills its prefetch registers).
  static constexpr int MIN_BLOCKS = THREADS >= 256 ? 2 : 3;
  static_assert(TM % 4 == 0 && TN % 4 == 0, "fragments are read as float4 groups");
  static_assert(THREADS % BN == 0 && BK % (THREADS / BN) == 0, "each thread gathers one column of the B tile");
  static_assert(BK % 4 == 0, "the filter slice is loaded in groups of 4");
};

// A row of the unrolled input: channel c, filter row kh, filter column kw
// (row index (c k + kh) k + kw).
struct Row {
  int c, kh, kw;
  // The row `d` further on (d > 0; k is small, so the loops run a few times).
  __device__ void advance(int d, int k) {
    kw += d;
    while (kw >= k) kw -= k, ++kh;
    while (kh >= k) kh -= k, ++c;
  }
};

// The tiles, each for a kind of layer (instantiated once each):
using Tile128x128 = TileConfig<128, 128, 8, 8, 8>;  // m > 64 with enough tiles: 64 outputs per thread
using Tile128x64 = TileConfig<128, 64, 8, 8, 4>;    // m > 64 with few output pixels (small images, batch 1)
using Tile64x128 = TileConfig<64, 128, 8, 8, 8>;    // 32 < m <= 64 (ResNet's 64-filter layers)
using Tile32x128 = TileConfig<32, 128, 8, 4, 8>;    // 16 < m <= 32
// m <= 16 (LeNet conv2, m 16): a 32-row tile would multiply zeros in half its
// rows; 64 threads of 4x4 outputs, twice the column tiles of 32x128.
using Tile16x64 = TileConfig<16, 64, 8, 4, 4>;

template <class T>
__global__ void __launch_bounds__(T::THREADS, T::MIN_BLOCKS) conv_implicit_gemm_kernel(ConvGeom g, int k_slice, bool vec_w,
                                                                       bool vec_y, const float* __restrict__ x,
                                                                       const float* __restrict__ w,
                                                                       float* __restrict__ out,
                                                                       long long slice_stride) {
  constexpr int BM = T::BM, BN = T::BN, BK = T::BK, TM = T::TM, TN = T::TN, THREADS = T::THREADS;
  constexpr int A_QUADS = BM * BK / 4;                 // float4 groups of the filter slice
  constexpr int A_PER_THREAD = (A_QUADS + THREADS - 1) / THREADS;
  constexpr int B_ROW_STEP = THREADS / BN;             // rows of the B tile apart a thread's loads are
  constexpr int B_PER_THREAD = BK / B_ROW_STEP;
  __shared__ __align__(16) float As[2][BK][BM];  // the filter slice, transposed: k-major
  __shared__ __align__(16) float Bs[2][BK][BN];  // the unrolled input tile

  const int tid = threadIdx.x;
  const int P = g.pixels(), KK = g.k * g.k, gemm_k = g.gemm_k();
  const int cols = g.n * P;
  const int m0 = blockIdx.y * BM, j0 = blockIdx.x * BN;
  const int k_begin = blockIdx.z * k_slice, k_end = min(gemm_k, k_begin + k_slice);

  // This thread's column of the B tile: one output pixel, fixed for the whole k loop.
  const int b_col = tid % BN, b_row0 = tid / BN;
  const int j = j0 + b_col;
  const bool col_valid = j < cols;
  const int img = col_valid ? j / P : 0, pix = col_valid ? j % P : 0;
  // A column past the end reads nothing: its input row is far outside the image.
  const int h_base = col_valid ? pix / g.wo * g.stride - g.pad : INT_MIN / 2, w_base = pix % g.wo * g.stride - g.pad;
  const int x_img = img * g.c * g.h * g.w;  // offset of the image (x has < 2^31 elements)

  // The (c, kh, kw) of the unrolled row this thread gathers first in the
  // next step: one division here, increments after.
  Row row;
  {
    const int kk = k_begin + b_row0;
    row.c = kk / KK;
    row.kh = kk % KK / g.k;
    row.kw = kk % g.k;
  }

  float4 a_reg[A_PER_THREAD];
  float b_reg[B_PER_THREAD];

  auto load_tiles = [&](int k0) {
#pragma unroll
    for (int i = 0; i < A_PER_THREAD; ++i) {
      const int q = tid + i * THREADS;
      if (A_QUADS % THREADS != 0 && q >= A_QUADS) break;
      const int row = m0 + q / (BK / 4), kq = k0 + q % (BK / 4) * 4;
      float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
      if (row < g.m) {
        const float* src = w + static_cast<long long>(row) * gemm_k + kq;
        if (vec_w && kq + 3 < k_end) {
          v = __ldg(reinterpret_cast<const float4*>(src));
        } else {
          if (kq + 0 < k_end) v.x = __ldg(src + 0);
          if (kq + 1 < k_end) v.y = __ldg(src + 1);
          if (kq + 2 < k_end) v.z = __ldg(src + 2);
          if (kq + 3 < k_end) v.w = __ldg(src + 3);
        }
      }
      a_reg[i] = v;
    }
    // Row k0 + b_row0 is (c, kh, kw) = row; the thread's later rows step
    // from it (no division per gathered value), and it moves on by BK.
    Row r = row;
#pragma unroll
    for (int i = 0; i < B_PER_THREAD; ++i) {
      if (i > 0) r.advance(B_ROW_STEP, g.k);
      const int kk = k0 + b_row0 + i * B_ROW_STEP;
      float v = 0.0f;
      const int hi = h_base + r.kh, wi = w_base + r.kw;
      if (kk < k_end && static_cast<unsigned>(hi) < static_cast<unsigned>(g.h) &&
          static_cast<unsigned>(wi) < static_cast<unsigned>(g.w))
        v = __ldg(x + x_img + (r.c * g.h + hi) * g.w + wi);
      b_reg[i] = v;
    }
    row.advance(BK, g.k);
  };
  auto store_tiles = [&](int buf) {
#pragma unroll
    for (int i = 0; i < A_PER_THREAD; ++i) {
      const int q = tid + i * THREADS;
      if (A_QUADS % THREADS != 0 && q >= A_QUADS) break;
      const int row = q / (BK / 4), kq = q % (BK / 4) * 4;
      As[buf][kq + 0][row] = a_reg[i].x;
      As[buf][kq + 1][row] = a_reg[i].y;
      As[buf][kq + 2][row] = a_reg[i].z;
      As[buf][kq + 3][row] = a_reg[i].w;
    }
#pragma unroll
    for (int i = 0; i < B_PER_THREAD; ++i) Bs[buf][b_row0 + i * B_ROW_STEP][b_col] = b_reg[i];
  };

  // The thread's register tile: TM/4 groups of 4 rows BM/(TM/4) apart, TN/4
  // groups of 4 columns BN/(TN/4) apart.
  constexpr int ROW_GROUPS = TM / 4, COL_GROUPS = TN / 4;
  constexpr int ROW_GROUP_SPAN = BM / ROW_GROUPS, COL_GROUP_SPAN = BN / COL_GROUPS;
  const int tx = tid % (BN / TN), ty = tid / (BN / TN);
  float acc[TM][TN];
#pragma unroll
  for (int r = 0; r < TM; ++r)
#pragma unroll
    for (int c = 0; c < TN; ++c) acc[r][c] = 0.0f;

  load_tiles(k_begin);
  store_tiles(0);
  __syncthreads();
  int buf = 0;
  for (int k0 = k_begin; k0 < k_end; k0 += BK) {
    const bool more = k0 + BK < k_end;
    if (more) load_tiles(k0 + BK);  // in flight during the multiply below
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
#pragma unroll
      for (int gi = 0; gi < ROW_GROUPS; ++gi) {
        const float4 v = *reinterpret_cast<const float4*>(&As[buf][kk][gi * ROW_GROUP_SPAN + ty * 4]);
        a[gi * 4 + 0] = v.x, a[gi * 4 + 1] = v.y, a[gi * 4 + 2] = v.z, a[gi * 4 + 3] = v.w;
      }
#pragma unroll
      for (int gj = 0; gj < COL_GROUPS; ++gj) {
        const float4 v = *reinterpret_cast<const float4*>(&Bs[buf][kk][gj * COL_GROUP_SPAN + tx * 4]);
        b[gj * 4 + 0] = v.x, b[gj * 4 + 1] = v.y, b[gj * 4 + 2] = v.z, b[gj * 4 + 3] = v.w;
      }
#pragma unroll
      for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TN; ++c) acc[r][c] = fmaf(a[r], b[c], acc[r][c]);
    }
    // The other buffer was last read before the previous barrier.
    if (more) store_tiles(buf ^ 1);
    __syncthreads();
    buf ^= 1;
  }

  // y[img][m][pix] (or this slice's partial tile, same layout). Four columns
  // of a group are one image's consecutive pixels when ho*wo % 4 == 0
  // (vec_y): one 128-bit store.
  float* dst = out + blockIdx.z * slice_stride;
#pragma unroll
  for (int gi = 0; gi < ROW_GROUPS; ++gi)
#pragma unroll
    for (int ri = 0; ri < 4; ++ri) {
      const int m = m0 + gi * ROW_GROUP_SPAN + ty * 4 + ri;
      if (m >= g.m) continue;
      const float* row = acc[gi * 4 + ri];
#pragma unroll
      for (int gj = 0; gj < COL_GROUPS; ++gj) {
        const int jc = j0 + gj * COL_GROUP_SPAN + tx * 4;
        if (vec_y && jc + 3 < cols) {
          const int n = jc / P, p = jc % P;
          *reinterpret_cast<float4*>(dst + (static_cast<long long>(n) * g.m + m) * P + p) =
              make_float4(row[gj * 4 + 0], row[gj * 4 + 1], row[gj * 4 + 2], row[gj * 4 + 3]);
        } else {
#pragma unroll
          for (int cj = 0; cj < 4; ++cj) {
            const int jj = jc + cj;
            if (jj < cols) dst[(static_cast<long long>(jj / P) * g.m + m) * P + jj % P] = row[gj * 4 + cj];
          }
        }
      }
    }
}

// y[i] = sum of the slices' partials, in slice order.
constexpr int SUM_THREADS = 256;
__global__ void __launch_bounds__(SUM_THREADS) conv_sum_slices_kernel(const float* __restrict__ partials, int slices,
                                                                      long long total, float* __restrict__ y) {
  for (long long i = blockIdx.x * static_cast<long long>(SUM_THREADS) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * SUM_THREADS) {
    float s = partials[i];
    for (int z = 1; z < slices; ++z) s += partials[z * total + i];
    y[i] = s;
  }
}

enum class TileKind { t128x128, t128x64, t64x128, t32x128, t16x64 };

struct Plan {
  TileKind tile;
  int bm, bn;
  int slices;   // k slices (1: no split, no workspace)
  int k_slice;  // inner-dimension length of a slice, a multiple of BK
};

int sm_count() {
  static const int count = [] {
    int dev = 0, sms = 0;
    TESSERA_CUDA(cudaGetDevice(&dev));
    TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return sms;
  }();
  return count;
}

// The tile by the number of filters, then k slices while the tiles alone
// would fill less than one wave of SMs (each slice keeps at least 8 BK steps,
// at most 16 slices).
Plan plan_of(const ConvSpec& s) {
  constexpr int BK = 8, MIN_STEPS = 8, MAX_SLICES = 16;
  const long long cols = static_cast<long long>(s.n * s.pixels());
  const int sms = sm_count();
  auto tiles = [&](int bm, int bn) { return ((long long)s.m + bm - 1) / bm * ((cols + bn - 1) / bn); };
  Plan p{TileKind::t128x128, 128, 128, 1, 0};
  if (s.m <= 16) p = {TileKind::t16x64, 16, 64, 1, 0};
  else if (s.m <= 32) p = {TileKind::t32x128, 32, 128, 1, 0};
  else if (s.m <= 64) p = {TileKind::t64x128, 64, 128, 1, 0};
  else if (tiles(128, 128) < sms) p = {TileKind::t128x64, 128, 64, 1, 0};
  const long long blocks = tiles(p.bm, p.bn);
  const int gemm_k = int(s.gemm_k());
  const int steps = (gemm_k + BK - 1) / BK;
  if (blocks < sms) {
    const long long want = (2LL * sms + blocks - 1) / blocks;
    p.slices = int(std::max<long long>(1, std::min<long long>({want, MAX_SLICES, steps / MIN_STEPS})));
  }
  const int steps_per_slice = (steps + p.slices - 1) / p.slices;
  p.k_slice = steps_per_slice * BK;
  p.slices = (steps + steps_per_slice - 1) / steps_per_slice;  // no empty slice
  return p;
}

template <class T>
void launch_tiles(const ConvCall& call, const Plan& p, float* out, long long slice_stride) {
  const ConvSpec& s = call.spec;
  const ConvGeom g = geom_of(s);
  const std::size_t cols = s.n * s.pixels();
  const dim3 grid(unsigned(detail::div_up(cols, T::BN)), unsigned(detail::div_up(s.m, T::BM)), unsigned(p.slices));
  const bool vec_w = s.gemm_k() % 4 == 0 && reinterpret_cast<std::uintptr_t>(call.w) % 16 == 0;
  const bool vec_y = s.pixels() % 4 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  detail::launch("conv_implicit_gemm_kernel", conv_implicit_gemm_kernel<T>, grid, dim3(T::THREADS), 0, call.stream,
                 s.y_elems(), g, p.k_slice, vec_w, vec_y, call.x, call.w, out, slice_stride);
}

}  // namespace

std::size_t ws_implicit_gemm(const ConvSpec& s) {
  const Plan p = plan_of(s);
  return p.slices > 1 ? std::size_t(p.slices) * s.y_elems() * sizeof(float) : 0;
}

void run_implicit_gemm(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  const Plan p = plan_of(s);
  const bool split = p.slices > 1;
  float* out = split ? static_cast<float*>(call.workspace) : call.y;
  const auto total = static_cast<long long>(s.y_elems());
  switch (p.tile) {
    case TileKind::t128x128: launch_tiles<Tile128x128>(call, p, out, total); break;
    case TileKind::t128x64: launch_tiles<Tile128x64>(call, p, out, total); break;
    case TileKind::t64x128: launch_tiles<Tile64x128>(call, p, out, total); break;
    case TileKind::t32x128: launch_tiles<Tile32x128>(call, p, out, total); break;
    case TileKind::t16x64: launch_tiles<Tile16x64>(call, p, out, total); break;
  }
  if (!split) return;
  const std::size_t blocks = std::min<std::size_t>(detail::div_up(s.y_elems(), SUM_THREADS), 4096);
  detail::launch("conv_sum_slices_kernel", conv_sum_slices_kernel, dim3(unsigned(blocks)), dim3(SUM_THREADS), 0,
                 call.stream, s.y_elems(), static_cast<const float*>(out), p.slices, total, call.y);
}

}  // namespace tessera::conv_impl
