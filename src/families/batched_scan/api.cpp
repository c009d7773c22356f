// Public batched_scan API (CUDA builds): validation, workspace, dispatch by
// row length (docs/batched_scan.md, "Which variant the API picks").
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "families/batched_scan/api_common.hpp"
#include "core/device_memory.hpp"
#include "families/batched_scan/cuda_rungs.hpp"

namespace tessera {

namespace {

using api::Memory;

void check_memory(const batched_scan_impl::ScanVariant& v, const float* in, const float* out) {
  const Memory want = v.info.backend == Backend::cpu ? Memory::host : Memory::device;
  const char* where = want == Memory::host ? "host" : "device";
  require(api::memory_of(in) == want,
          fmt::format("tessera::batched_scan: in must point to {} memory for variant '{}'", where, v.info.name));
  require(api::memory_of(out) == want,
          fmt::format("tessera::batched_scan: out must point to {} memory for variant '{}'", where, v.info.name));
}

}  // namespace

// Float rows at least this long (and longer than fused_fitted's tiles) go to
// fused_pipelined_bulk: one persistent 896-thread block per SM pays ~3.2 us
// of fixed work per row, which a row of 10,000 floats (3.5 us of memory time
// per SM) hides and a shorter row does not (H100, 8,000 samples:
// fused_one_pass 92.4% of copy, fused_pipelined_bulk 80.4%). The 8-byte
// accumulators take fused_pipelined_lazy_bulk (384 x 28, two blocks per SM)
// from fused_fitted's end (8,000 samples: double-float 80.2%, Kahan 85.8%,
// double 91.0%; fused_one_pass 33.2 / 36.5 / 51.3%;
// docs/results/batched_scan-fitted-ladders-h100-2026-11-23.txt).
constexpr std::size_t PIPELINED_MIN_LEN = 8192;

std::string batched_scan_default_variant(std::size_t, std::size_t len, Accum accum, ScanDirection) {
  // The tessera rungs support every accumulator and direction; the choice is
  // by row length and accumulator, from the H100 bench of 10,000 x 10,000,
  // 1,000 x 100,000 and 100 x 1,000,000 (docs/results/batched_scan-h100-2026-11-23b.txt,
  // -2026-11-23c/-23d.json for the chains rungs, -2026-11-23f for the bulk ones):
  //   rows of 129 to 7,677 samples: fused_fitted (300 to 7,000 samples: float
  //   78-93% of copy, double 77-92%, Kahan 78-90%, double-float 75-91%;
  //   fused_one_pass 5-86%, 3-47%, 2-33%, 2-30%:
  //   docs/results/batched_scan-fitted-h100-2026-11-23.txt and
  //   batched_scan-blockscan-trim-h100-2026-11-23.txt);
  //   fused rows: float fused_pipelined_bulk 94.5-95.0% of copy
  //   (fused_pipelined 92.4-92.8%, fused_one_pass 87.4%); double / Kahan /
  //   double-float fused_pipelined_lazy_bulk 91.8 / 89.7 / 89.2%
  //   (fused_pipelined_lazy 90.1 / 87.8 / 87.4%, chains4 89.9 / 82.7 / 78.6%);
  //   long rows (without multi_tile_resident, and its fallback for rows too
  //   long for it): float multi_tile 61-62%; double multi_tile_pipelined
  //   46.5-47.9% (multi_tile 43.7-44.9%); Kahan and double-float
  //   multi_tile_occupancy 41.7-43.4% / 40.0-42.0% (multi_tile 32.6-33.9% /
  //   30.8-32.2%).
  // Short rows: short_rows up to 128 samples (float) or 256 (the 8-byte
  // accumulators, 8 samples per lane: H100, rows of 129 / 160 / 200 / 256,
  // % of copy, short_rows against fused_fitted: double 61.6 / 74.9 / 84.5 /
  // 90.6 against 51.0 / 64.1 / 79.2 / 85.0, Kahan 42.4 / 51.9 / 64.4 / 82.1
  // against 34.0 / 42.5 / 53.1 / 67.5, double-float 43.2 / 53.0 / 65.6 /
  // 83.1 against 32.6 / 40.7 / 50.8 / 64.5;
  // docs/results/batched_scan-two-level-h100-2026-11-24.txt, run 15).
  if (len <= batched_scan_impl::short_row_max_len(accum)) return "short_rows";
  if (len <= batched_scan_impl::FITTED_MAX_LEN) return "fused_fitted";
  if (len <= batched_scan_impl::FUSED_MAX_LEN) {
    if (accum != Accum::native) return "fused_pipelined_lazy_bulk";  // double, Kahan, double-float
    return len < PIPELINED_MIN_LEN ? "fused_one_pass" : "fused_pipelined_bulk";
  }
  // Long rows: rows held in shared memory (% of copy for rows of 10^5 /
  // 10^6 samples, H100; docs/results/batched_scan-self-accums-h100-2026-11-23.txt,
  // and batched_scan-resident-chains-h100-2026-11-23.txt for Kahan and
  // double-float with two-chain consumers):
  //   float, double: multi_tile_resident_self (float 88.9 / 85.5%, double
  //   79.2 / 81.1%; multi_tile_resident 83.6 / 75.0% and 78.5 / 74.8%);
  //   Kahan, double-float (the aggregators' totals in double; run 20 of
  //   docs/results/batched_scan-two-level-h100-2026-11-24.txt, two runs):
  //   multi_tile_resident_self 69.5 / 65.8% and 67.4-67.5 / 63.2%
  //   (multi_tile_resident 65.8-65.9 / 66.5-66.7% and 64.3-64.4 /
  //   64.4-64.5%).
  // Rows too long for the GPU's shared memory are streamed inside either
  // (multi_tile_streamed's kernel; 10 x 10^7 samples: float 65.1%, double
  // 64.0%, Kahan 60.3%, double-float 58.2%, against the three-launch rungs'
  // 61.5 / 46.8 / 42.3 / 40.7%: docs/batched_scan.md, "Two-level
  // carries"); below sm_90 the three-launch rung above runs.
  return "multi_tile_resident_self";
}

void batched_scan(const float* in, std::size_t in_pitch, float* out, std::size_t out_pitch, std::size_t rows,
                  std::size_t len, const BatchedScanOptions& options) {
  batched_scan_impl::ScanSpec spec;
  const auto& v = batched_scan_impl::resolve(in, in_pitch, out, out_pitch, rows, len, options, spec);
  if (rows == 0 || len == 0) return;
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  const bool have_gpu = detail::cuda_device_available();
  if (v.info.backend == Backend::cpu) {
    // Host data. Without a device (a CUDA build on a machine with no GPU)
    // there is no stream to order with and every pointer is a host pointer.
    std::vector<unsigned char> ws(ws_bytes);
    if (have_gpu) {
      check_memory(v, in, out);
      TESSERA_CUDA(cudaStreamSynchronize(options.stream));  // CPU variants run in stream order
    }
    v.run({spec, in, out, ws.empty() ? nullptr : ws.data(), options.stream});
    return;
  }
  require(have_gpu, fmt::format("tessera::batched_scan: variant '{}' needs a CUDA device and none is available "
                                "(variant = \"cpu_openmp\" scans host memory)",
                                v.info.name));
  check_memory(v, in, out);
  api::AsyncScratch ws(ws_bytes, options.stream, "tessera::batched_scan");
  v.run({spec, in, out, ws.get(), options.stream});
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
