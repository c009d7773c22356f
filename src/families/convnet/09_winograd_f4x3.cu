// Step 9 — Winograd F(4x4, 3x3), non-fused (seed 000 "ConvNet": cuDNN's
// WINOGRAD_NONFUSED; Lavin & Gray's minimal filtering): each 4x4 output tile
// from a 6x6 input tile with 36 multiplications per (filter, channel)
// instead of 144, as ONE batched GEMM over the 36 transformed positions
// (winograd_f4x3.hpp holds the transforms):
//
//   U[e] (m x c, c fastest)   = G g G^T      per filter and channel, every call
//   V[e] (c x tp, t fastest)  = B^T d B      per channel and 6x6 input tile (stride 4)
//   M[e] (m x tp)             = U[e] V[e]    one launch, blockIdx.y = e: step 10 of
//                                            the gemm family (its main loop and
//                                            epilogue, instantiated here per tile size)
//   y tile (4x4)              = A^T M A      per filter and tile, clipped at the image edge
//
// t = n * ceil(ho/4) * ceil(wo/4) tiles, tp = t rounded up to 4 (V's and M's
// rows start on 16-byte boundaries: the GEMM copies B with 16-byte cp.async
// and stores C as float4).
//
// What it changes over step 6 (F(2x2) through 16 tessera::gemm calls): 4x
// fewer multiply-adds than the direct form instead of 2.25x; one GEMM launch
// instead of 16 (each of step 6's ran at most a few waves of medium tiles and
// its own tail); the tile size is chosen for the batch as a whole with the
// gemm family's wave model. Memory: 36 (m c + c tp + m tp) floats of
// workspace; every pass is coalesced (thread index runs along c for U, along t
// for V, M and the output transform's reads).
//
// The whole batch is one pass (images_per_pass: groups of images whose V
// and M fit in L2 measured slower on every bench layer).
//
// Bottleneck: the GEMM's FFMA issue on layers with large c and m (ResNet
// 512->512, AlexNet conv3: ~40-50 TFLOP/s of the gemm kernel); the input and
// output transforms' DRAM traffic where c and m are small and the image
// large (ResNet 64->64 at 56^2: 36 (c + m) t floats twice each).
// Accuracy: worse than F(2x2) (F4X3_ERROR_FACTOR). k = 3, stride 1 only; any padding.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "families/convnet/conv_geom.cuh"
#include "families/convnet/cuda_rungs.hpp"
#include "families/convnet/winograd_f4x3.hpp"
#include "families/gemm/10_warp_tiled_policies.cuh"
#include "families/gemm/policy.hpp"
#include "tessera/blocks/device.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/core/error.hpp"

namespace tessera::conv_impl {

namespace {

using f4x3::ALPHA;
using f4x3::POS;
using f4x3::TILE;
using gemm_impl::dev::GemmArgs;
using gemm_impl::dev::Read;

constexpr int THREADS = 256;
constexpr std::size_t ALIGN = 256;  // each part of the workspace starts on a 256-byte boundary

struct Sizes {
  std::size_t tiles_h, tiles_w, t, tp;  // 4x4 output tiles per image side, in the batch, padded to 4
  std::size_t u, v, m;                  // floats of each transformed operand (all 36 positions)
};

Sizes sizes_of(const ConvSpec& s) {
  Sizes z{};
  z.tiles_h = (s.ho + TILE - 1) / TILE;
  z.tiles_w = (s.wo + TILE - 1) / TILE;
  z.t = s.n * z.tiles_h * z.tiles_w;
  z.tp = (z.t + 3) / 4 * 4;
  z.u = POS * s.m * s.c;
  z.v = POS * s.c * z.tp;
  z.m = POS * s.m * z.tp;
  return z;
}

std::size_t padded_bytes(std::size_t floats) { return (floats * sizeof(float) + ALIGN - 1) / ALIGN * ALIGN; }

// U[e][mi][ci]: thread i = mi * c + ci, the filters' own order, so the reads
// of w (9 floats each) and the 36 writes are both contiguous across a warp.
__global__ void __launch_bounds__(THREADS) winograd_f4x3_filter_kernel(long long mc, const float* __restrict__ w,
                                                                      float* __restrict__ u) {
  for (long long i = blockIdx.x * static_cast<long long>(THREADS) + threadIdx.x; i < mc;
       i += static_cast<long long>(gridDim.x) * THREADS) {
    float g[9];
#pragma unroll
    for (int j = 0; j < 9; ++j) g[j] = w[i * 9 + j];
    float out[POS];
    f4x3::filter_transform(g, out);
#pragma unroll
    for (int e = 0; e < POS; ++e) u[e * mc + i] = out[e];
  }
}

// V[e][ci][t]: thread i = ci * t_count + t; the 6x6 patch at (4 th - pad,
// 4 tw - pad), zeros outside the image. Neighbouring threads read patches 16
// bytes apart: each row's sectors serve the warp's six loads of that row
// from L1; the 36 writes are coalesced runs of t.
__global__ void __launch_bounds__(THREADS) winograd_f4x3_input_kernel(ConvGeom g, int tiles_h, int tiles_w,
                                                                     long long tp, const float* __restrict__ x,
                                                                     float* __restrict__ v) {
  // 32-bit indices (64-bit division costs ~4x more issue slots): supports()
  // keeps 36 c tp < 2^31, and a grid-stride step (<= 2^24) cannot carry an
  // unsigned index below 2^31 past 2^32.
  const unsigned tiles = unsigned(tiles_h) * unsigned(tiles_w);
  const unsigned t_count = unsigned(g.n) * tiles;
  const unsigned total = t_count * unsigned(g.c);
  const long long plane = tp * g.c;
  for (unsigned i = blockIdx.x * THREADS + threadIdx.x; i < total; i += gridDim.x * THREADS) {
    const unsigned t = i % t_count, c = i / t_count;
    const unsigned n = t / tiles, in_image = t % tiles;
    const int th = static_cast<int>(in_image / unsigned(tiles_w)), tw = static_cast<int>(in_image % unsigned(tiles_w));
    const int h0 = TILE * th - g.pad, w0 = TILE * tw - g.pad;
    const float* xc = x + (static_cast<long long>(n) * g.c + c) * g.h * g.w;
    float d[POS];
#pragma unroll
    for (int r = 0; r < ALPHA; ++r) {
      const int hi = h0 + r;
      const bool row_in = hi >= 0 && hi < g.h;
#pragma unroll
      for (int q = 0; q < ALPHA; ++q) {
        const int wi = w0 + q;
        d[ALPHA * r + q] = row_in && wi >= 0 && wi < g.w ? xc[static_cast<long long>(hi) * g.w + wi] : 0.0f;
      }
    }
    float out[POS];
    f4x3::input_transform(d, out);
    float* vp = v + static_cast<long long>(c) * tp + t;
#pragma unroll
    for (int e = 0; e < POS; ++e) vp[e * plane] = out[e];
  }
}

// y[n][mi][4 th + p][4 tw + q] = (A^T M A)[p][q]: thread i = mi * t_count + t
// reads its 36 sums (coalesced runs of t) and writes the part of its 4x4
// tile inside the image, a row of it as one float4 where `vec_rows` (wo % 4
// == 0 and y 16-byte aligned: every tile row then starts on 16 bytes).
__global__ void __launch_bounds__(THREADS) winograd_f4x3_output_kernel(ConvGeom g, int tiles_h, int tiles_w,
                                                                      long long tp, bool vec_rows,
                                                                      const float* __restrict__ mt,
                                                                      float* __restrict__ y) {
  // 32-bit indices, as in the input transform (supports(): 36 m tp < 2^31).
  const unsigned tiles = unsigned(tiles_h) * unsigned(tiles_w);
  const unsigned t_count = unsigned(g.n) * tiles;
  const unsigned total = t_count * unsigned(g.m);
  const long long plane = tp * g.m;
  for (unsigned i = blockIdx.x * THREADS + threadIdx.x; i < total; i += gridDim.x * THREADS) {
    const unsigned t = i % t_count, mi = i / t_count;
    const unsigned n = t / tiles, in_image = t % tiles;
    const int th = static_cast<int>(in_image / unsigned(tiles_w)), tw = static_cast<int>(in_image % unsigned(tiles_w));
    const float* mp = mt + static_cast<long long>(mi) * tp + t;
    float sums[POS];
#pragma unroll
    for (int e = 0; e < POS; ++e) sums[e] = mp[e * plane];
    float out[TILE * TILE];
    f4x3::output_transform(sums, out);
    float* yp = y + (static_cast<long long>(n) * g.m + mi) * g.ho * g.wo;
    const int w0 = TILE * tw;
#pragma unroll
    for (int p = 0; p < TILE; ++p) {
      const int ho = TILE * th + p;
      if (ho >= g.ho) break;
      float* row = yp + static_cast<long long>(ho) * g.wo + w0;
      if (vec_rows && w0 + TILE <= g.wo) {  // one 16-byte store: a whole row of the tile
        *reinterpret_cast<float4*>(row) =
            make_float4(out[TILE * p], out[TILE * p + 1], out[TILE * p + 2], out[TILE * p + 3]);
        continue;
      }
#pragma unroll
      for (int q = 0; q < TILE; ++q)
        if (w0 + q < g.wo) row[q] = out[TILE * p + q];
    }
  }
}

// The 36 products M[e] = U[e] V[e] in one launch: blockIdx.x a tile of the
// m x t product (the gemm kernel's grouped order), blockIdx.y the position
// e. The main loop and epilogue are step 10's (gemm family), unchanged; only
// the operands' bases move by e. The offsets are recomputed after the loop
// (as the gemm kernel does) so that they are not live across it.
template <class P>
__global__ void __launch_bounds__(P::THREADS, P::MIN_BLOCKS)
    winograd_f4x3_gemm_kernel(GemmArgs p, std::size_t a_step, std::size_t b_step, std::size_t c_step,
                              unsigned tiles_m, unsigned tiles_n) {
  extern __shared__ float4 smem_vec[];
  unsigned tm, tn;
  gemm_impl::dev::grouped_tile(blockIdx.x, tiles_m, tiles_n, P::GROUP_M, tm, tn);
  GemmArgs q = p;
  q.a += blockIdx.y * a_step;
  q.b += blockIdx.y * b_step;
  const auto slabs = static_cast<unsigned>((p.k + P::BK - 1) / P::BK);  // supports(): c < 2^31
  float acc[P::TM][P::TN];
  gemm_impl::dev::warp_tiled_mainloop<P, Read::along_k, Read::across_k_16, false>(
      q, reinterpret_cast<float*>(smem_vec), tm, tn, 0, slabs, acc);
  unsigned e;
  asm volatile("mov.u32 %0, %%ctaid.y;" : "=r"(e));
  gemm_impl::dev::grouped_tile(gemm_impl::dev::block_index_again(), tiles_m, tiles_n, P::GROUP_M, tm, tn);
  GemmArgs out = p;
  out.c += e * c_step;
  gemm_impl::dev::warp_tiled_epilogue<P, false>(out, tm, tn, true, acc);
}

template <class P>
void launch_batched_gemm(const GemmArgs& args, std::size_t a_step, std::size_t b_step, std::size_t c_step,
                         stream_t stream) {
  constexpr auto kernel = winograd_f4x3_gemm_kernel<P>;
  gemm_impl::dev::prepare_kernel<kernel, P>(false);  // the dynamic shared-memory limit, once per device
  const auto tiles_m = static_cast<unsigned>(detail::div_up(args.m, P::BM));
  const auto tiles_n = static_cast<unsigned>(detail::div_up(args.n, P::BN));
  detail::launch("winograd_f4x3_gemm_kernel", kernel, dim3(tiles_m * tiles_n, POS), dim3(P::THREADS), P::SMEM_BYTES,
                 stream, POS * args.m * args.n, args, a_step, b_step, c_step, tiles_m, tiles_n);
}

// The gemm family's wave model over the whole batch (its policy.hpp:
// ceil(blocks / SMs) * BM * BN / rate, rates measured on the H100), the 36
// positions multiplying the blocks: ResNet 512->512 7^2 n64 (m 512, t 256)
// takes 128 x 64 tiles (576 blocks), AlexNet conv3 n64 (m 384, t 1024)
// 128 x 128 (864), ResNet 64->64 56^2 n64 (m 64) 64 x 64 (7056). Each tile
// forced (lab rows winograd_f4x3_tile*, H200, docs/results/convnet-lab-f4x3-
// tiles-h200-2026-11-28.txt): the model's pick measured fastest or within
// 1 % on every bench layer it runs, except AlexNet conv3 n1 (64 x 64 6 %
// faster; implicit_gemm is that layer's pick). ResNet 512->512's 576 blocks
// are 1.09 waves of 4 resident a SM; 64 x 64's 1,152 (2.18 waves) measured
// only 0.6 % faster: the tail costs less than the smaller tile's rate.
std::size_t choose_gemm_tile(std::size_t m, std::size_t n, double sms) {
  std::size_t best = 0;
  double best_cost = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < gemm_impl::policy::WARP_TILED_TILE_COUNT; ++i) {
    const auto& c = gemm_impl::policy::WARP_TILED_TILES[i];
    const double blocks = double(detail::div_up(m, std::size_t(c.bm)) * detail::div_up(n, std::size_t(c.bn))) * POS;
    const double cost = std::ceil(blocks / sms) * c.bm * c.bn / c.tflops;
    if (cost < best_cost) {
      best_cost = cost;
      best = i;
    }
  }
  return best;
}

// run_winograd_f4x3's switch names the configurations by their index.
static_assert(gemm_impl::policy::WARP_TILED_TILES[0].bm == 128 && gemm_impl::policy::WARP_TILED_TILES[0].bn == 64 &&
                  gemm_impl::policy::WARP_TILED_TILES[1].bm == 64 && gemm_impl::policy::WARP_TILED_TILES[1].bn == 64 &&
                  gemm_impl::policy::WARP_TILED_TILES[2].bm == 128 && gemm_impl::policy::WARP_TILED_TILES[2].bn == 128 &&
                  gemm_impl::policy::WARP_TILED_TILE_COUNT == 3,
              "the gemm family's tile table changed: update run_winograd_f4x3's switch");

unsigned grid_for(std::size_t work) {
  return unsigned(std::min<std::size_t>(detail::div_up(work, std::size_t(THREADS)), 65536));
}

// Images per pass: the whole batch. A pass is the input transform, the
// GEMM and the output transform of a group of images (V and M sized for one
// group, reused by the next); run_winograd_f4x3_images takes any group size
// for the lab rows winograd_f4x3_images<N>. Measured on the H100
// (2026-11-28), ms for groups of 4, 8, 16 images and the whole batch of 64:
//   ResNet 64->64 56^2 n64   0.3748  0.3056  0.2982  0.2531
//   AlexNet conv3 n64        0.5163  0.3654  0.2970  0.2427
//   ResNet 512->512 7^2 n64  0.9999  0.5160  0.2793  0.1980
// Every layer gets faster with larger groups, even where a group of 8's V
// and M (29 MB on ResNet 64->64) fit in L2: a group's GEMM is n/group
// times narrower, so its 36 positions fill fewer waves of blocks and each
// pass pays three launches and their tails; the DRAM traffic a group in L2
// saves is worth less than that. The batch-1 layers are one pass either way.
std::size_t images_per_pass(const ConvSpec& s) { return s.n; }

std::size_t workspace_for(const ConvSpec& s, std::size_t images) {
  ConvSpec group = s;
  group.n = std::min(std::max<std::size_t>(images, 1), s.n);
  const Sizes z = sizes_of(group);
  // + ALIGN: a caller's workspace may start anywhere; run_winograd_f4x3_images aligns it up.
  return ALIGN + padded_bytes(POS * s.m * s.c) + padded_bytes(z.v) + padded_bytes(z.m);
}

// run_pass's `tile` when the wave model picks it (choose_gemm_tile).
constexpr int MODEL_TILE = -1;

// One pass over `s.n` images at x, y (a group of the call's batch); `tile`
// indexes the gemm family's WARP_TILED_TILES, or is MODEL_TILE.
void run_pass(const ConvSpec& s, const float* x, const float* u, float* v, float* mt, float* y, int tile,
              stream_t stream) {
  const ConvGeom g = geom_of(s);
  const Sizes z = sizes_of(s);
  const auto tp = static_cast<long long>(z.tp);
  detail::launch("winograd_f4x3_input_kernel", winograd_f4x3_input_kernel, dim3(grid_for(s.c * z.t)), dim3(THREADS),
                 0, stream, s.c * z.t, g, int(z.tiles_h), int(z.tiles_w), tp, x, v);

  // M[e] (m x t, ld tp) = U[e] (m x c, ld c) * V[e] (c x t, ld tp).
  const GemmArgs args{s.m, z.t, s.c, s.c, z.tp, z.tp, 1.0f, 0.0f, u, v, mt};
  const std::size_t a_step = s.m * s.c, b_step = s.c * z.tp, c_step = s.m * z.tp;
  if (tile == MODEL_TILE) tile = int(choose_gemm_tile(s.m, z.t, double(tessera::gpu::sm_count())));
  switch (tile) {
    case 0: launch_batched_gemm<gemm_impl::dev::Tiles128x64x16>(args, a_step, b_step, c_step, stream); break;
    case 1: launch_batched_gemm<gemm_impl::dev::Tiles64x64x16>(args, a_step, b_step, c_step, stream); break;
    default: launch_batched_gemm<gemm_impl::dev::Tiles128x128x16Serpentine>(args, a_step, b_step, c_step, stream);
  }

  detail::launch("winograd_f4x3_output_kernel", winograd_f4x3_output_kernel, dim3(grid_for(s.m * z.t)),
                 dim3(THREADS), 0, stream, s.m * z.t, g, int(z.tiles_h), int(z.tiles_w), tp,
                 s.wo % 4 == 0 && reinterpret_cast<std::uintptr_t>(y) % 16 == 0, mt, y);
}

// The whole call: U once, then the batch in passes of `images` images.
void run_winograd_f4x3_with(const ConvCall& call, std::size_t images, int tile) {
  const ConvSpec& s = call.spec;
  if (s.y_elems() == 0) return;
  images = std::min(std::max<std::size_t>(images, 1), s.n);
  // The GEMM's 16-byte copies and float4 stores need V's and M's rows on
  // 16-byte boundaries: every part starts on a 256-byte one.
  const auto raw = reinterpret_cast<std::uintptr_t>(call.workspace);
  auto* base = static_cast<unsigned char*>(call.workspace) + ((ALIGN - raw % ALIGN) % ALIGN);
  auto* u = reinterpret_cast<float*>(base);
  ConvSpec group = s;
  group.n = images;
  const Sizes zg = sizes_of(group);
  auto* v = reinterpret_cast<float*>(base + padded_bytes(POS * s.m * s.c));
  auto* mt = reinterpret_cast<float*>(base + padded_bytes(POS * s.m * s.c) + padded_bytes(zg.v));
  detail::launch("winograd_f4x3_filter_kernel", winograd_f4x3_filter_kernel, dim3(grid_for(s.m * s.c)),
                 dim3(THREADS), 0, call.stream, s.m * s.c, static_cast<long long>(s.m * s.c), call.w, u);
  for (std::size_t n0 = 0; n0 < s.n; n0 += images) {
    group.n = std::min(images, s.n - n0);
    run_pass(group, call.x + n0 * s.c * s.h * s.w, u, v, mt, call.y + n0 * s.m * s.ho * s.wo, tile, call.stream);
  }
}

}  // namespace

bool supports_winograd_f4x3(const ConvSpec& s) {
  if (s.k != 3 || s.stride != 1 || !fits_int32(s)) return false;
  const Sizes z = sizes_of(s);
  constexpr std::size_t LIMIT = std::size_t(1) << 31;
  // Each operand's 36 planes under 2^31 floats (32-bit tile arithmetic in
  // the GEMM; its grid's x dimension then stays far below 2^31 blocks).
  return z.u < LIMIT && z.v < LIMIT && z.m < LIMIT;
}

std::size_t ws_winograd_f4x3(const ConvSpec& s) { return workspace_for(s, images_per_pass(s)); }

std::size_t ws_winograd_f4x3_images(const ConvSpec& s, std::size_t images) { return workspace_for(s, images); }

void run_winograd_f4x3_images(const ConvCall& call, std::size_t images) {
  run_winograd_f4x3_with(call, images, MODEL_TILE);
}

void run_winograd_f4x3_tile(const ConvCall& call, int tile) {
  if (tile < 0 || std::size_t(tile) >= gemm_impl::policy::WARP_TILED_TILE_COUNT)
    throw Error("winograd_f4x3: GEMM tile index " + std::to_string(tile) + " is not in the gemm family's table");
  run_winograd_f4x3_with(call, images_per_pass(call.spec), tile);
}

void run_winograd_f4x3(const ConvCall& call) {
  run_winograd_f4x3_with(call, images_per_pass(call.spec), MODEL_TILE);
}

}  // namespace tessera::conv_impl
