// The machine a run measures: the GPU (name, SMs, memory, L2) and its
// measured ceilings (device-to-device copy bandwidth counting read + write,
// FP32 FMA rate, special-function rate), cached per GPU under $XDG_CACHE_HOME/tessera (or
// ~/.cache/tessera) keyed by the device UUID. Without a GPU: the host's copy
// bandwidth, the ceiling of the CPU variants.
#pragma once

#include <cstddef>
#include <string>

namespace tessera::harness {

struct DeviceInfo {
  bool present = false;        // a usable CUDA device
  std::string name;            // "NVIDIA H100 80GB HBM3"
  std::string uuid;
  int sm_count = 0;
  int cc_major = 0, cc_minor = 0;
  std::size_t total_mem = 0, free_mem = 0;
  std::size_t l2_bytes = 0;
  double copy_gbps = 0;        // measured device-to-device copy, read + write
  double fp32_gflops = 0;      // measured FP32 FMA rate (2 flops per FMA)
  double mufu_gops = 0;        // measured special-function rate (rsqrtf through MUFU)
  bool ceilings_cached = false;
  std::string why_absent;      // when !present: the runtime's reason
  int host_threads = 0;
  double host_copy_gbps = 0;   // measured host memcpy, read + write (CPU ceiling)
  std::size_t host_available = 0;  // host memory this process may still use (0: unknown)
};

// Queries the device; measures (or reads the cached) ceilings when `measure`.
// `remeasure` ignores the cache.
DeviceInfo query_device(bool measure, bool remeasure = false);

// Measurements (device_ceilings.cu / device_info.cpp).
double measure_copy_gbps();
double measure_fp32_gflops();
double measure_mufu_gops();
double measure_host_copy_gbps();

}  // namespace tessera::harness
