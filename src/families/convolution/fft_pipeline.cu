// The FFT convolution (overlap-save) of the 1D ladder's FFT rungs.
//
//   1. the mask, reversed and zero-padded to nfft (the seed's P[i] =
//      sum_j M[j] N[i - r + j] is a correlation; the FFT convolves), then
//      its spectrum H (one R2C);
//   2. gather: segment b holds inputs b * valid - r ... + nfft - 1, ghosts zero
//      (only the segments at the ends whose window leaves the signal);
//   3. R2C of every segment: one batched plan that reads the interior
//      segments' overlapping windows straight from the input (advanced
//      layout, idist = valid < nfft), single transforms for the gathered ones;
//   4. spectrum *= H / nfft (the 1/nfft of the unnormalised inverse);
//   5. C2R back into the segments;
//   6. scatter: outputs b * valid + q are segment b's results mask_w - 1 + q.
// About 2 log2(nfft) flops per sample per transform instead of 2 mask_w:
// for 1,025 taps, ~ 10x fewer operations, paid in memory passes (gather,
// 2 transforms of 1-2 passes each, multiply, scatter).
#include <cufft.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <mutex>
#include <tuple>

#include "families/convolution/common.cuh"
#include "families/convolution/fft_pipeline.hpp"
#include "tessera/core/error.hpp"

namespace tessera::convolution_impl::fft {

namespace {

constexpr int THREADS = 256;

void check_cufft(cufftResult r, const char* call, const OverlapSave& os) {
  if (r != CUFFT_SUCCESS)
    throw Error(std::string("convolution fft: ") + call + " failed with cufftResult " + std::to_string(int(r)) +
                " (nfft " + std::to_string(os.nfft) + ", " + std::to_string(os.blocks) + " blocks)" +
                (r == CUFFT_SETUP_FAILED ? ": libcufft could not be loaded or set up" : ""));
}

// A batched R2C and C2R pair of one blocking and its work-area size; never
// destroyed (a process keeps the few blockings it uses).
struct Plans {
  cufftHandle r2c = 0, c2r = 0;
  std::size_t work_bytes = 0;
};

// The forward transforms of `batch` overlapping windows of nfft inputs,
// `valid` apart, into spectra nfft / 2 + 1 apart.
struct WindowPlan {
  cufftHandle r2c = 0;
  std::size_t work_bytes = 0;
  bool ok = false;
};

std::mutex plans_mutex;  // guards the cache and each plan's stream/work-area set-exec sequence

cufftHandle make_plan(long long nfft, long long batch, cufftType type, std::size_t& work, const OverlapSave& os) {
  cufftHandle h = 0;
  check_cufft(cufftCreate(&h), "cufftCreate", os);
  check_cufft(cufftSetAutoAllocation(h, 0), "cufftSetAutoAllocation", os);
  long long n[1] = {nfft};
  std::size_t w = 0;
  check_cufft(cufftMakePlanMany64(h, 1, n, nullptr, 1, 0, nullptr, 1, 0, type, batch, &w), "cufftMakePlanMany64", os);
  work = std::max(work, w);
  return h;
}

// Plans for `batch` transforms of nfft on the current device (a plan
// belongs to the device it was made on); the caller holds plans_mutex.
const Plans& plans_locked(std::size_t nfft, std::size_t batch, const OverlapSave& os) {
  static std::map<std::tuple<int, std::size_t, std::size_t>, Plans> cache;
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  const auto key = std::make_tuple(device, nfft, batch);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  Plans p;
  p.r2c = make_plan((long long)nfft, (long long)batch, CUFFT_R2C, p.work_bytes, os);
  p.c2r = make_plan((long long)nfft, (long long)batch, CUFFT_C2R, p.work_bytes, os);
  return cache.emplace(key, p).first->second;
}

const WindowPlan& window_plan_locked(const OverlapSave& os) {
  static std::map<std::tuple<int, std::size_t, std::size_t, std::size_t>, WindowPlan> cache;
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  const auto key = std::make_tuple(device, os.nfft, os.direct, os.valid);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  WindowPlan p;
  p.ok = true;
  check_cufft(cufftCreate(&p.r2c), "cufftCreate", os);
  check_cufft(cufftSetAutoAllocation(p.r2c, 0), "cufftSetAutoAllocation", os);
  long long n[1] = {(long long)os.nfft}, inembed[1] = {(long long)os.nfft},
            onembed[1] = {(long long)(os.nfft / 2 + 1)};
  // Should a cuFFT refuse overlapping windows, the gather path serves (one
  // more pass over the signal, as before) instead of failing the call.
  if (cufftMakePlanMany64(p.r2c, 1, n, inembed, 1, (long long)os.valid, onembed, 1, (long long)(os.nfft / 2 + 1),
                          CUFFT_R2C, (long long)os.direct, &p.work_bytes) != CUFFT_SUCCESS) {
    cufftDestroy(p.r2c);
    p = WindowPlan{};
  }
  return cache.emplace(key, p).first->second;
}

std::size_t align_up(std::size_t b) { return (b + 255) / 256 * 256; }

struct Layout {
  std::size_t segments, spectra, mask_pad, mask_spectrum, work, total;
};

Layout layout_of(const OverlapSave& os, std::size_t work_bytes) {
  const std::size_t bins = os.nfft / 2 + 1;
  Layout l{};
  l.segments = 0;
  l.spectra = l.segments + align_up(os.blocks * os.nfft * sizeof(float));
  l.mask_pad = l.spectra + align_up(os.blocks * bins * sizeof(cufftComplex));
  l.mask_spectrum = l.mask_pad + align_up(os.nfft * sizeof(float));
  l.work = l.mask_spectrum + align_up(bins * sizeof(cufftComplex));
  l.total = l.work + align_up(work_bytes);
  return l;
}

std::size_t work_bytes_of(const OverlapSave& os) {
  std::lock_guard lock(plans_mutex);
  std::size_t w = std::max(plans_locked(os.nfft, os.blocks, os).work_bytes, plans_locked(os.nfft, 1, os).work_bytes);
  if (os.direct > 0) w = std::max(w, window_plan_locked(os).work_bytes);
  return w;
}

__global__ void conv_fft_reversed_mask_kernel(const float* __restrict__ mask, int mask_w, float* __restrict__ pad,
                                              std::int64_t nfft) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < nfft) pad[k] = k < mask_w ? mask[mask_w - 1 - k] : 0.0f;
}

// Segments b0 .. b0 + total / nfft - 1.
__global__ void conv_fft_gather_kernel(const float* __restrict__ in, std::int64_t n, int r, std::int64_t nfft,
                                       std::int64_t valid, std::int64_t b0, std::int64_t total,
                                       float* __restrict__ seg) {
  const std::int64_t i = b0 * nfft + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= b0 * nfft + total) return;
  const std::int64_t b = i / nfft, s = i - b * nfft;
  const std::int64_t x = b * valid - r + s;
  seg[i] = (x >= 0 && x < n) ? __ldg(in + x) : 0.0f;
}

__global__ void conv_fft_multiply_kernel(cufftComplex* __restrict__ spec, const cufftComplex* __restrict__ h,
                                         std::int64_t bins, std::int64_t total, float scale) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const cufftComplex a = spec[i], w = h[i % bins];
  spec[i] = make_float2((a.x * w.x - a.y * w.y) * scale, (a.x * w.y + a.y * w.x) * scale);
}

__global__ void conv_fft_scatter_kernel(const float* __restrict__ seg, std::int64_t n, int overlap, std::int64_t nfft,
                                        std::int64_t valid, float* __restrict__ out) {
  const std::int64_t x = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= n) return;
  const std::int64_t b = x / valid, q = x - b * valid;
  out[x] = seg[b * nfft + overlap + q];
}

dim3 blocks_for(std::size_t n) { return dim3(static_cast<unsigned>((n + THREADS - 1) / THREADS)); }

}  // namespace

std::size_t workspace_bytes(const OverlapSave& os) { return layout_of(os, work_bytes_of(os)).total; }

void prepare(const OverlapSave& os) { (void)work_bytes_of(os); }

void run(const ConvCall& call, const OverlapSave& os) {
  const ConvSpec& s = call.spec;
  if (s.outputs() == 0) return;
  const std::size_t bins = os.nfft / 2 + 1;
  std::lock_guard lock(plans_mutex);
  const Plans& batch = plans_locked(os.nfft, os.blocks, os);
  const Plans& single = plans_locked(os.nfft, 1, os);
  // cuFFT's R2C reads its real input as pairs: every window must start
  // 8-byte aligned (an even window step, an even first offset, an aligned
  // signal), else it fails at execution (cufftResult 4, seen on the H100 with
  // 7 taps); those blockings take the gather path.
  const std::int64_t first_offset = std::int64_t(os.direct_first) * std::int64_t(os.valid) - std::int64_t(s.rx());
  const bool pairs_aligned = os.valid % 2 == 0 && first_offset % 2 == 0 &&
                             reinterpret_cast<std::uintptr_t>(call.in) % 8 == 0;
  const WindowPlan* windows =
      os.direct > 0 && pairs_aligned && window_plan_locked(os).ok ? &window_plan_locked(os) : nullptr;
  const Layout l = layout_of(os, std::max({batch.work_bytes, single.work_bytes,
                                           windows != nullptr ? windows->work_bytes : std::size_t(0)}));
  auto* base = static_cast<unsigned char*>(call.workspace);
  auto* seg = reinterpret_cast<float*>(base + l.segments);
  auto* spec = reinterpret_cast<cufftComplex*>(base + l.spectra);
  auto* mask_pad = reinterpret_cast<float*>(base + l.mask_pad);
  auto* h = reinterpret_cast<cufftComplex*>(base + l.mask_spectrum);
  void* work = base + l.work;
  const auto nfft = std::int64_t(os.nfft), valid = std::int64_t(os.valid), n = std::int64_t(s.width);

  detail::launch("conv_fft_reversed_mask_kernel", conv_fft_reversed_mask_kernel, blocks_for(os.nfft), dim3(THREADS),
                 0, call.stream, os.nfft, call.mask, int(s.mask_w), mask_pad, nfft);
  for (cufftHandle p : {single.r2c, batch.r2c, batch.c2r}) {
    check_cufft(cufftSetStream(p, call.stream), "cufftSetStream", os);
    check_cufft(cufftSetWorkArea(p, work), "cufftSetWorkArea", os);
  }
  check_cufft(cufftExecR2C(single.r2c, mask_pad, h), "cufftExecR2C (mask)", os);
  // Gathers segments [b0, b1) into their places in `seg`.
  auto gather = [&](std::size_t b0, std::size_t b1) {
    const std::size_t total = (b1 - b0) * os.nfft;
    if (total == 0) return;
    detail::launch("conv_fft_gather_kernel", conv_fft_gather_kernel, blocks_for(total), dim3(THREADS), 0,
                   call.stream, total, call.in, n, int(s.rx()), nfft, valid, std::int64_t(b0), std::int64_t(total),
                   seg);
  };
  if (windows == nullptr) {
    gather(0, os.blocks);
    check_cufft(cufftExecR2C(batch.r2c, seg, spec), "cufftExecR2C (segments)", os);
  } else {
    check_cufft(cufftSetStream(windows->r2c, call.stream), "cufftSetStream", os);
    check_cufft(cufftSetWorkArea(windows->r2c, work), "cufftSetWorkArea", os);
    const std::size_t end = os.direct_first + os.direct;
    // Out of place, an R2C leaves its input as it was: the caller's signal
    // is read, never written (the pointer is only non-const in the API).
    auto* first_window = const_cast<float*>(call.in) + (std::int64_t(os.direct_first) * valid - s.rx());
    check_cufft(cufftExecR2C(windows->r2c, first_window, spec + os.direct_first * bins),
                "cufftExecR2C (overlapping windows)", os);
    gather(0, os.direct_first);
    gather(end, os.blocks);
    for (std::size_t b = 0; b < os.blocks; ++b) {
      if (b == os.direct_first) b = end;  // the edge segments: at most a few
      if (b >= os.blocks) break;
      check_cufft(cufftExecR2C(single.r2c, seg + b * os.nfft, spec + b * bins), "cufftExecR2C (edge segment)", os);
    }
  }
  detail::launch("conv_fft_multiply_kernel", conv_fft_multiply_kernel, blocks_for(os.blocks * bins), dim3(THREADS),
                 0, call.stream, os.blocks * bins, spec, h, std::int64_t(bins), std::int64_t(os.blocks * bins),
                 1.0f / float(os.nfft));
  check_cufft(cufftExecC2R(batch.c2r, spec, seg), "cufftExecC2R (segments)", os);
  detail::launch("conv_fft_scatter_kernel", conv_fft_scatter_kernel, blocks_for(s.width), dim3(THREADS), 0,
                 call.stream, s.width, seg, n, int(s.mask_w - 1), nfft, valid, call.out);
}

}  // namespace tessera::convolution_impl::fft
