// Step 9 refinement — cluster look-back (kernel, protocol and the bound
// arithmetic: src/cuda/scan/lookback_cluster.cuh). lookback_early_publish's
// sub-tile shape (256 threads x 12 vectors = 48 KiB, 2 blocks per SM, sparse
// 32-slot window, streaming output stores), scanned by clusters of C CTAs as
// one super-tile of C x 48 KiB, so the look-back's frontier moves C times as
// many bytes per tile it passes:
//   lookback_cluster    C = 4 (192 KiB super-tiles, 66 resident on an H100
//                       at 2 CTAs per SM): predicted 88-93% of copy,
//                       1.08-1.12x cub::DeviceScan.
//   lookback_cluster8   C = 8 (384 KiB super-tiles, 33 resident): about the
//                       same or a point less (more CTAs wait on the slowest
//                       sub-tile and on one look-back).
// 4-byte elements with the native accumulator only (float, int32, uint32;
// sum, min, max), like the other tuned look-back policies. Needs sm_90
// (thread block clusters); the launch throws on a device without them.
#include <cuda_runtime.h>

#include "cuda/scan/hierarchy.cuh"
#include "cuda/scan/lookback_cluster.cuh"
#include "cuda/scan/lookback_rows.cuh"
#include "cuda/scan/rungs.hpp"

namespace tessera::scan_impl {

namespace {

// Provenance: the sub-tile is lookback_early_publish's best H100 shape
// (48 KiB beat 32 KiB by 1 point, 2026-11-23); the cluster sizes are the
// portable ones that fit 2 CTAs per SM in a GPC (4: a quarter of the
// frontier load; 8: an eighth).
using LookbackCluster48k = gpu::LookbackPolicy<256, 12, 1, 2, gpu::CacheHint::streaming>;
constexpr int CLUSTER_SMALL = 4;  // 4 x 48 KiB super-tiles
constexpr int CLUSTER_LARGE = 8;  // 8 x 48 KiB super-tiles (the largest portable cluster)
static_assert(LookbackCluster48k::THREADS * LookbackCluster48k::VECTORS * 16 == 48 * 1024,
              "48 KiB sub-tiles of 4-byte data");

// cudaOccupancyMaxActiveClusters of the float-sum kernel at CLUSTER CTAs.
template <int CLUSTER>
int max_active_clusters() {
  const auto kernel = gpu::scan_lookback_cluster_kernel<LookbackCluster48k, CLUSTER, ScanOf<PlainSum<float, float>>>;
  cudaLaunchAttribute attribute;
  // Any grid that is a multiple of the cluster size.
  const cudaLaunchConfig_t config = detail::cluster_launch_config(
      dim3(CLUSTER * 1024), dim3(LookbackCluster48k::THREADS), CLUSTER, 0, nullptr, attribute);
  int clusters = 0;
  TESSERA_CUDA(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  return clusters;
}

template <int CLUSTER>
void run_cluster(const char* variant, const ScanCall& call) {
  if (!four_byte_native(call.spec)) throw_unsupported(variant, call.spec);
  dispatch_scan_or_throw(variant, call.spec, [&]<class R>() {
    if constexpr (sizeof(typename R::in_t) == 4 && std::is_same_v<typename R::in_t, typename R::acc_t>) {
      using S = ScanOf<R>;
      run_lookback_cluster<LookbackCluster48k, CLUSTER>(
          "scan_lookback_cluster_kernel", S{}, static_cast<const typename S::in_t*>(call.in),
          static_cast<typename S::out_t*>(call.out), call.spec.n, call.spec.exclusive, call.workspace, call.stream);
    }
  });
}

}  // namespace

void run_lookback_cluster(const ScanCall& call) { run_cluster<CLUSTER_SMALL>("lookback_cluster", call); }
std::size_t ws_lookback_cluster(const ScanSpec& spec) { return lookback_workspace<LookbackCluster48k>(spec); }
bool supports_lookback_cluster(const ScanSpec& spec) { return four_byte_native(spec); }

void run_lookback_cluster8(const ScanCall& call) { run_cluster<CLUSTER_LARGE>("lookback_cluster8", call); }
std::size_t ws_lookback_cluster8(const ScanSpec& spec) { return lookback_workspace<LookbackCluster48k>(spec); }
bool supports_lookback_cluster8(const ScanSpec& spec) { return four_byte_native(spec); }

int lookback_cluster_max_active(int cluster_ctas) {
  if (cluster_ctas == CLUSTER_SMALL) return max_active_clusters<CLUSTER_SMALL>();
  if (cluster_ctas == CLUSTER_LARGE) return max_active_clusters<CLUSTER_LARGE>();
  return 0;
}

}  // namespace tessera::scan_impl
