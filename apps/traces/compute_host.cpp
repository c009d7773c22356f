// The host path (cpu_* variants of tessera::batched_scan on the batch buffers
// themselves, through batched_scan_host: the buffers are this engine's own
// host memory, so nothing asks the CUDA driver where they live, and the
// driver is never loaded) and the host-or-GPU compute side a placement names.
#include <fmt/format.h>

#include <vector>

#include "engine.hpp"
#include "tessera/batched_scan.hpp"
#include "tessera/core/error.hpp"

namespace tessera::traces {
namespace {

constexpr std::string_view HOST_DEFAULT_VARIANT = "cpu_openmp";

bool is_host_variant(const std::string& v) { return v.starts_with("cpu_"); }

}  // namespace

// An unknown name is a typo, not a missing GPU: refuse it first, with the
// ladder's list of names. The workspace query resolves the name without
// running anything; its other refusals (a variant that does not support a
// one-sample row, no device) are left to prepare(), which sees the real shape.
void check_variant_name(const TraceScanOptions& scan) {
  if (scan.variant.empty()) return;
  try {
    (void)batched_scan_workspace_bytes(1, 1, {.direction = scan.direction, .accum = scan.accum,
                                              .exclusive = scan.exclusive, .variant = scan.variant});
  } catch (const Error& e) {
    const std::string_view what = e.what();
    if (what.find("no variant named") == std::string_view::npos) return;
    const auto list = what.find("(variants:");
    throw Error(fmt::format("--variant {}: no batched_scan variant of that name in this build {}", scan.variant,
                            list == std::string_view::npos ? what : what.substr(list)));
  }
}

namespace {

class HostScan final : public Compute {
 public:
  explicit HostScan(const TraceScanOptions& scan) : opt_(scan) {
    if (opt_.variant.empty()) opt_.variant = HOST_DEFAULT_VARIANT;
  }
  void prepare(std::size_t, std::size_t len, PhaseLog& log) override {
    ScopedPhase p(log, "probe scan (host)");
    // One row of the real length through the real call: an unknown variant or
    // an unsupported accumulator fails here, before any output exists.
    std::vector<float> probe(len, 0.0f);
    batched_scan_host(probe.data(), 1, len, probe.data(), options());
  }
  void run(float* x, std::size_t rows, std::size_t len, std::size_t) override {
    batched_scan_host(x, rows, len, x, options());
  }
  std::string variant() const override { return opt_.variant; }

 private:
  BatchedScanOptions options() const {
    return {.direction = opt_.direction, .accum = opt_.accum, .exclusive = opt_.exclusive, .variant = opt_.variant};
  }
  TraceScanOptions opt_;
};

}  // namespace

std::unique_ptr<Compute> make_host_scan(const TraceScanOptions& scan) { return std::make_unique<HostScan>(scan); }

std::unique_ptr<Compute> make_scan_compute(const TraceScanOptions& scan, const Placement& placement) {
  if (!placement.gpu || is_host_variant(scan.variant)) return make_host_scan(scan);
  if (auto gpu = make_device_scan(scan)) return gpu;
  if (!scan.variant.empty())
    throw Error(fmt::format("--variant {}: a GPU variant, and no GPU was found: use a host variant ({}, "
                            "cpu_reference)",
                            scan.variant, HOST_DEFAULT_VARIANT));
  if (scan.device == ScanDevice::gpu)
    throw Error("--device gpu: no GPU was found (no CUDA driver or device); --device host scans on the host");
  return make_host_scan(scan);
}

}  // namespace tessera::traces
