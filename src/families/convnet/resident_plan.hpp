// The resident_image rung's plan (10_resident_image.cu): how a small layer is
// cut into blocks and threads, its shared-memory need and a predicted time.
// Plain C++ (no CUDA headers): the policy asks supports_resident_image() in
// CPU-only builds too, and the lab sweeps plans through the same struct.
//
// A block is one cell: (image, group of `mb` filters, band of `band` output
// rows). It stages the band's input rows of every channel (zero padding
// included, so the inner loop tests no bounds) and the group's filters in
// shared memory once. Its threads are `slices` sets of `tps`: set s sums the
// input channels [s*cps, (s+1)*cps); a thread computes G filters x R pixels
// of the band at a time (the R pixels `pix_tiles` apart, so a warp reads
// consecutive input columns); the sets' partial sums meet in shared memory.
#pragma once

#include <algorithm>
#include <cstddef>

#include "families/convnet/contract.hpp"

namespace tessera::conv_impl::resident {

// Shared memory a block may use without an opt-in; keeping under it also
// leaves room for several blocks per SM.
inline constexpr std::size_t SMEM_LIMIT = 48 * 1024;
inline constexpr int MAX_THREADS = 256;

struct Plan {
  int g = 1;          // filters per thread (1, 2 or 4: a float, float2 or float4 weight load)
  int r = 2;          // pixels per thread (2 or 4)
  int mb = 1;         // filters per block, a multiple of g
  int band = 1;       // output rows per block
  int slices = 1;     // input-channel slices, partial sums added in a fixed order
  int tps = 1;        // threads per slice
  int cps = 1;        // input channels per slice
  int in_rows = 1;    // staged input rows: (band - 1) stride + k
  int in_cols = 1;    // staged input columns: (wo - 1) stride + k
  int x_floats = 0;   // staged input, rounded up to 4 floats (the filters that follow are float4-aligned)
  int w_floats = 0;   // staged filters: c k k x mb, filter-minor
  int red_floats = 0; // partial sums: slices x mb x band x wo (0 with one slice)
  long long cells = 0;  // blocks

  int threads() const { return slices * tps; }
  std::size_t smem_bytes() const { return std::size_t(x_floats + w_floats + red_floats) * sizeof(float); }
};

// Filters per thread: 4 when the last group wastes little (m % 4 == 0 or
// m > 8), else 2 for even m, else 1.
inline int filters_per_thread(const ConvSpec& s) {
  if (s.m % 4 == 0 || s.m > 8) return 4;
  return s.m % 2 == 0 ? 2 : 1;
}

// The plan's sizes for a choice of g, r, mb, band, slices (tps left to the caller).
inline Plan make_plan(const ConvSpec& s, int g, int r, int mb, int band, int slices) {
  Plan p;
  p.g = g, p.r = r, p.mb = mb, p.band = band, p.slices = slices;
  p.cps = int((s.c + std::size_t(slices) - 1) / std::size_t(slices));
  p.in_rows = int((std::size_t(band) - 1) * s.stride + s.k);
  p.in_cols = int((s.wo - 1) * s.stride + s.k);
  const std::size_t x = s.c * std::size_t(p.in_rows) * std::size_t(p.in_cols);
  const std::size_t w = s.c * s.k * s.k * std::size_t(mb);
  const std::size_t red = slices > 1 ? std::size_t(slices) * std::size_t(mb) * std::size_t(band) * s.wo : 0;
  // Saturate: a layer far too large for the rung must not wrap into a small number.
  const std::size_t cap = std::size_t(1) << 28;
  p.x_floats = int(std::min(cap, (x + 3) / 4 * 4));
  p.w_floats = int(std::min(cap, w));
  p.red_floats = int(std::min(cap, red));
  p.cells = (long long)s.n * (long long)((s.m + std::size_t(mb) - 1) / std::size_t(mb)) *
            (long long)((s.ho + std::size_t(band) - 1) / std::size_t(band));
  return p;
}

// The smallest block the rung can form (one output row, g filters, one
// slice) fits shared memory: every input channel's k rows of the padded
// width and g filters. Layers past this (many channels or wide images) are
// declined; the policy never picks the rung for them.
inline bool supports_resident_image(const ConvSpec& s) {
  if (!fits_int32(s) || s.wo > (std::size_t(1) << 20) || s.k > 64 || s.stride > 64) return false;
  const Plan p = make_plan(s, filters_per_thread(s), 2, filters_per_thread(s), 1, 1);
  return p.smem_bytes() <= SMEM_LIMIT;
}


// A predicted time for a plan on `sms` SMs, in SM cycles: the blocks an SM
// holds at once each wait one staging round trip, then their threads' serial
// instructions; the SM issues at most IPC warp instructions a cycle across
// them. STAGE_CYCLES one round trip to L2 (a thread stages 8 values a round
// trip, the input then the filters), CPI_WARP a lone warp's cycles per
// instruction (its shared loads' latency mostly exposed: a thread's FMAs
// wait on them), IPC two of the four schedulers' issue slots.
// CPI_WARP 4 is fitted to the lab sweep on the H100 (labbench-convnet-
// resident_*.txt, 2026-11-28): it cuts LeNet-5 conv2 n64 into 256 cells of
// 4 filters and 6 one-channel slices instead of 128 of 8 filters and 3
// slices (CPI_WARP 2, the first guess): 0.0065 ms against 0.0078-0.0080,
// two blocks an SM hiding each other's latency. conv1 n64 keeps its plan
// (0.0048-0.0050 ms); the batch-1 layers move to fewer, larger cells,
// measured within the spread of one plan between runs (conv1 n1 0.0035
// against 0.0033, conv2 n1 0.0044 against 0.0043).
struct Model {
  double stage_cycles = 600, cpi_warp = 4.0, ipc = 2.0;
  // The lab's sweeps pin knobs the constants rarely move:
  int only_r = 0;             // 2 or 4 pixels a thread only (0: either)
  int max_slices = 8;         // at most this many channel slices
  int min_cells_per_sm = 0;   // at least this many blocks an SM (when the layer has them)
  int max_threads = MAX_THREADS;
};

inline double predicted_cycles(const ConvSpec& s, const Plan& p, int sms, const Model& model = {}) {
  const double STAGE_CYCLES = model.stage_cycles, CPI_WARP = model.cpi_warp, IPC = model.ipc;
  const long long pix = (long long)p.band * (long long)s.wo;
  const long long pix_tiles = (pix + p.r - 1) / p.r;
  const long long tiles = (long long)(p.mb / p.g) * pix_tiles;
  const long long kk = (long long)(s.k * s.k);
  const double iters = double((tiles + p.tps - 1) / p.tps) * double(p.cps) * double(kk);
  const double per_iter = 2.0 * p.r + 1 + double(p.r) * p.g + 2;  // loads, address adds, weights, FMAs, loop
  const double staged = double(p.x_floats + p.w_floats) / p.threads();
  const double reduce = p.slices > 1 ? double(p.mb) * double(pix) / p.threads() * (3.0 * p.slices + 6) : 0.0;
  const double thread_instr = iters * per_iter + staged * 12 + reduce + 2.0 * p.r * p.g;
  const int warps = (p.threads() + 31) / 32;
  const long long by_smem = (long long)(228 * 1024 / (p.smem_bytes() + 1024));
  const long long resident = std::max<long long>(1, std::min<long long>({64 / warps, 32, by_smem}));
  const long long per_sm = (p.cells + sms - 1) / sms;
  const long long waves = (per_sm + resident - 1) / resident;
  const long long batch = 8LL * p.threads();
  const double rounds = double((p.x_floats + batch - 1) / batch + (p.w_floats + batch - 1) / batch);
  const double latency = STAGE_CYCLES * rounds + thread_instr * CPI_WARP;
  const double throughput = double(per_sm) * warps * thread_instr / IPC + STAGE_CYCLES * rounds;
  return std::max(double(waves) * latency, throughput);
}

// The plan of least predicted time among r in {2, 4}, mb = g, 2g, 4g, ...
// (up to every filter), bands of 1 to ho rows (at most 64 choices) and 1 to
// 8 slices, within MAX_THREADS threads and SMEM_LIMIT bytes. Requires
// supports_resident_image(s).
inline Plan choose_plan(const ConvSpec& s, int sms, const Model& model = {}) {
  const int g = filters_per_thread(s);
  const int m_round = int((s.m + std::size_t(g) - 1) / std::size_t(g)) * g;
  const int max_threads = std::clamp(model.max_threads, 1, MAX_THREADS);
  // The smallest cell (always within the limits when supported): the answer
  // if no candidate meets the pinned knobs.
  Plan best = make_plan(s, g, model.only_r == 4 ? 4 : 2, g, 1, 1);
  best.tps = std::min<int>(max_threads, int((std::size_t(best.r) - 1 + s.wo) / std::size_t(best.r)));
  double best_cycles = 1e300;
  const long long min_cells = std::min<long long>((long long)model.min_cells_per_sm * sms, best.cells);
  const int ho = int(s.ho);
  const int max_slices = int(std::min<std::size_t>(s.c, std::size_t(std::max(1, model.max_slices))));
  for (int r : {2, 4}) {
    if (model.only_r != 0 && r != model.only_r) continue;
    for (int mb = g;; mb = std::min(mb * 2, m_round)) {
      int last_band = 0;
      for (int bands = 1; bands <= ho && bands <= 64; ++bands) {
        const int band = (ho + bands - 1) / bands;
        if (band == last_band) continue;
        last_band = band;
        for (int slices = 1; slices <= max_slices; ++slices) {
          Plan p = make_plan(s, g, r, mb, band, slices);
          if (p.smem_bytes() > SMEM_LIMIT) continue;
          if (slices > 1 && (slices - 1) * p.cps >= int(s.c)) continue;  // an empty slice
          const long long pix_tiles = ((long long)band * (long long)s.wo + r - 1) / r;
          const long long tiles = (long long)(mb / g) * pix_tiles;
          if (slices > max_threads || p.cells < min_cells) continue;
          p.tps = int(std::min<long long>(tiles, max_threads / slices));
          const double cycles = predicted_cycles(s, p, sms, model);
          if (cycles < best_cycles) best = p, best_cycles = cycles;
        }
      }
      if (mb == m_round) break;
    }
  }
  return best;
}

}  // namespace tessera::conv_impl::resident
