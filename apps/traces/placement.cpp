// Where the scan runs when the options leave it open: the host when its scan
// keeps up with the file's I/O, the GPU otherwise. Decided from IN's sizes,
// the accumulator and the host's threads only, never by asking the CUDA
// driver (asking starts it: 0.1 s for the driver, 0.1 s more for a context,
// the largest fixed cost of a run, which the host path never pays).
//
// The run's time, roughly: on the host, the longer of its I/O and its scan
// (the three stages overlap); on the GPU, the I/O plus the GPU's start, which
// the first batches' reads hide only in part (the results are needed before
// anything can be written). So the host wins when
//     sample bytes / host scan rate  <=  file bytes / I/O rate + GPU start,
// which is "the host keeps up with the I/O" for large files and "the scan
// costs less than a GPU's start" for small ones.
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <string_view>

#include "engine.hpp"
#include "tessera/core/error.hpp"

namespace tessera::traces {
namespace {

// One host thread's scan rate (GB/s of float32 samples) inside the pipeline,
// the reader and the writer running beside it: the measured rates, not the
// in-memory ones (those are ~12x higher: tessera bench batched_scan,
// cpu_openmp at 16 threads, 400 MB forward_backward native in 14.3 ms).
struct HostRate {
  Accum accum;
  double gbps_per_thread;
  std::string_view measured;
};
constexpr HostRate kHostRates[] = {
    {Accum::native, 0.142,
     "H100 machine, 16 threads, 10,000 x 10,000 float32 forward_backward: 400 MB scanned in 0.110-0.176 s of busy "
     "time beside the reader and writer (the slowest of 3 runs; docs/results/traces-e2e-h100-2026-11-27.txt)"},
    // The others scaled by their in-memory time against native's, same
    // machine and shape (cpu_openmp, 16 threads: native 14.3 ms, double
    // 16.2 ms, Kahan 101.4 ms, double-float 109.6 ms;
    // git show f020937:docs/results/batched_scan-final-h100-2026-11-24.txt).
    {Accum::f64, 0.126, "native's rate x 14.3 / 16.2"},
    {Accum::kahan, 0.020, "native's rate x 14.3 / 101.4"},
    {Accum::dfloat, 0.0185, "native's rate x 14.3 / 109.6"},
};

// The I/O the host must keep up with: `cp IN OUT && sync` of the 400 MB file
// took 0.30-0.35 s on the H100 machine's disk; the faster copy.
constexpr double IO_GBPS = 1.33;
// The GPU's start as a run waits for it: driver 0.100-0.108 s, context
// 0.105-0.121 s; the runs waited 0.204-0.226 s (same report).
constexpr double GPU_START_S = 0.20;

double host_rate_per_thread(Accum a) {
  for (const HostRate& r : kHostRates)
    if (r.accum == a) return r.gbps_per_thread;
  return kHostRates[std::size(kHostRates) - 1].gbps_per_thread;  // unknown: the slowest
}

bool is_host_variant(const std::string& v) { return v.starts_with("cpu_"); }

}  // namespace

std::size_t host_threads() { return static_cast<std::size_t>(std::max(1, omp_get_max_threads())); }

Placement place_scan(const TraceScanOptions& scan, const FileInfo& info, std::size_t threads) {
  if (!scan.variant.empty()) {
    const bool host = is_host_variant(scan.variant);
    require(scan.device == ScanDevice::automatic || (scan.device == ScanDevice::host) == host,
            fmt::format("--variant {} runs on the {}, and the scan was asked to run on the {}", scan.variant,
                        host ? "host" : "GPU", host ? "GPU" : "host"));
    return {!host, fmt::format("--variant {}", scan.variant)};
  }
  if (scan.device == ScanDevice::host) return {false, "--device host"};
  if (scan.device == ScanDevice::gpu) return {true, "--device gpu"};
  const double sample_gb = static_cast<double>(info.traces) * info.samples * 4 / 1e9;
  const double file_gb = static_cast<double>(std::max<std::uint64_t>(info.file_bytes, 1)) / 1e9;
  const double rate = static_cast<double>(std::max<std::size_t>(threads, 1)) * host_rate_per_thread(scan.accum);
  const double scan_s = sample_gb / rate;
  const double io_s = file_gb / IO_GBPS;
  const bool host = scan_s <= io_s + GPU_START_S;
  return {!host, fmt::format("chosen: its scan of {:.1f} MB, ~{:.3f} s at {} threads x {:.3g} GB/s ({} sums), is {} the "
                             "I/O expected ({:.3f} s at {:.2f} GB/s) plus a GPU's start ({:.2f} s); --variant or "
                             "--device pins it",
                             sample_gb * 1e3, scan_s, threads, host_rate_per_thread(scan.accum), to_string(scan.accum),
                             host ? "within" : "past", io_s, IO_GBPS, GPU_START_S)};
}

}  // namespace tessera::traces
