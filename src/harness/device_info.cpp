#include "harness/device_info.hpp"
#include "harness/size_check.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace fs = std::filesystem;

namespace {

#if TESSERA_HAVE_CUDA
fs::path cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "tessera";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "tessera";
  return fs::temp_directory_path() / "tessera-cache";
}

// The way the ceilings are timed; a cache written another way is re-measured.
// 2: runs enqueued behind a StreamBlocker (host enqueue time not counted).
// 3: adds the special-function (MUFU) rate.
constexpr int CEILING_METHOD = 3;

// Cached ceilings are keyed by GPU UUID and must name the same device and
// method.
bool read_cache(DeviceInfo& info) {
  std::ifstream in(cache_dir() / fmt::format("device-{}.json", info.uuid));
  if (!in) return false;
  try {
    const auto j = nlohmann::json::parse(in);
    if (j.at("name").get<std::string>() != info.name) return false;
    if (j.value("method", 0) != CEILING_METHOD) return false;
    info.copy_gbps = j.at("copy_gbps").get<double>();
    info.fp32_gflops = j.at("fp32_gflops").get<double>();
    info.mufu_gops = j.at("mufu_gops").get<double>();
    return info.copy_gbps > 0 && info.fp32_gflops > 0 && info.mufu_gops > 0;
  } catch (const std::exception&) {
    return false;  // a damaged cache is simply re-measured
  }
}

void write_cache(const DeviceInfo& info) {
  std::error_code ec;
  fs::create_directories(cache_dir(), ec);
  if (ec) return;  // caching is an optimisation; never fail a run over it
  const auto final_path = cache_dir() / fmt::format("device-{}.json", info.uuid);
  const auto tmp = final_path.string() + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) return;
    out << nlohmann::json{{"name", info.name}, {"uuid", info.uuid}, {"copy_gbps", info.copy_gbps},
                          {"fp32_gflops", info.fp32_gflops}, {"mufu_gops", info.mufu_gops},
                          {"method", CEILING_METHOD}}
               .dump(2);
  }
  fs::rename(tmp, final_path, ec);
}

// The runtime says "CUDA driver version is insufficient" when there is no
// driver at all; say what is likely instead, keeping the runtime's words.
std::string why_no_device(cudaError_t err) {
  switch (err) {
    case cudaSuccess:
    case cudaErrorNoDevice: return "the driver sees no CUDA device";
    case cudaErrorInsufficientDriver:
      return "no NVIDIA driver found, or one older than this build's CUDA runtime (cudaGetDeviceCount: "
             "cudaErrorInsufficientDriver)";
    default: return fmt::format("cudaGetDeviceCount: {}", cudaGetErrorString(err));
  }
}

std::string uuid_string(const cudaUUID_t& u) {
  std::string s;
  for (int i = 0; i < 16; ++i) s += fmt::format("{:02x}", static_cast<unsigned char>(u.bytes[i]));
  return s;
}
#endif

}  // namespace

double measure_host_copy_gbps() {
  const std::size_t bytes = std::size_t(256) << 20;
  std::vector<unsigned char> src(bytes, 1), dst(bytes, 0);
  const int threads = omp_get_max_threads();
  double best = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads)
    {
      const std::size_t chunk = bytes / static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t begin = chunk * static_cast<std::size_t>(omp_get_thread_num());
      const std::size_t len = omp_get_thread_num() == omp_get_num_threads() - 1 ? bytes - begin : chunk;
      std::memcpy(dst.data() + begin, src.data() + begin, len);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, 2.0 * double(bytes) / s / 1e9);
  }
  return best;
}

DeviceInfo query_device(bool measure, bool remeasure) {
  DeviceInfo info;
  info.host_threads = omp_get_max_threads();
  info.host_available = host_memory_available();
#if TESSERA_HAVE_CUDA
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    info.why_absent = why_no_device(err);
  } else {
    int dev = 0;
    TESSERA_CUDA(cudaGetDevice(&dev));
    cudaDeviceProp p{};
    TESSERA_CUDA(cudaGetDeviceProperties(&p, dev));
    info.present = true;
    info.name = p.name;
    info.uuid = uuid_string(p.uuid);
    info.sm_count = p.multiProcessorCount;
    info.cc_major = p.major;
    info.cc_minor = p.minor;
    info.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
    TESSERA_CUDA(cudaMemGetInfo(&info.free_mem, &info.total_mem));
    if (measure) {
      if (!remeasure && read_cache(info)) {
        info.ceilings_cached = true;
      } else {
        info.copy_gbps = measure_copy_gbps();
        info.fp32_gflops = measure_fp32_gflops();
        info.mufu_gops = measure_mufu_gops();
        write_cache(info);
      }
    }
  }
#else
  (void)remeasure;
  info.why_absent = "built without CUDA (CPU-only build)";
#endif
  if (measure && !info.present) info.host_copy_gbps = measure_host_copy_gbps();
  return info;
}

}  // namespace tessera::harness
