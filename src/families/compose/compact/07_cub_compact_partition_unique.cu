// Compact / partition / unique step 7 — the vendor baselines (CCCL's CUB:
// DeviceSelect and DevicePartition), one file for the three patterns, each
// with its temporary storage in the workspace (sized by CUB's null-pointer
// query) and the count written to the device, so a run allocates nothing and
// is graph-capturable:
//
//   cub_select_if       cub::DeviceSelect::If with the run-time predicate
//   cub_select_flagged  cub::DeviceSelect::Flagged (any non-zero flag byte)
//   cub_partition_if    cub::DevicePartition::If (rejected reversed at the end)
//   cub_select_unique   cub::DeviceSelect::Unique
#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>

#include "families/compose/ops.hpp"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

template <class T>
struct PredOp {
  Pred pred;
  T threshold;
  __device__ __forceinline__ bool operator()(const T& x) const { return passes(pred, x, threshold); }
};

enum class CubAlgo { select_if, select_flagged, partition_if, select_unique };

// The CUB call; temp == nullptr only sizes the temporary storage.
template <class T>
void cub_call(CubAlgo algo, void* temp, std::size_t& bytes, const Spec& s, const void* in, const std::uint8_t* flags,
              void* out, std::int64_t* count, cudaStream_t stream) {
  const T* x = static_cast<const T*>(in);
  T* y = static_cast<T*>(out);
  const auto n = static_cast<std::int64_t>(s.n);
  const PredOp<T> op{s.pred, s.threshold<T>()};
  switch (algo) {
    case CubAlgo::select_if: TESSERA_CUDA(cub::DeviceSelect::If(temp, bytes, x, y, count, n, op, stream)); break;
    case CubAlgo::select_flagged:
      TESSERA_CUDA(cub::DeviceSelect::Flagged(temp, bytes, x, flags, y, count, n, stream));
      break;
    case CubAlgo::partition_if: TESSERA_CUDA(cub::DevicePartition::If(temp, bytes, x, y, count, n, op, stream)); break;
    case CubAlgo::select_unique: TESSERA_CUDA(cub::DeviceSelect::Unique(temp, bytes, x, y, count, n, stream)); break;
  }
}

std::size_t cub_workspace(CubAlgo algo, const Spec& s) {
  std::size_t bytes = 0;
  if (s.n == 0) return 0;
  dispatch_key_type(s.dtype, [&]<class T>() { cub_call<T>(algo, nullptr, bytes, s, nullptr, nullptr, nullptr, nullptr, nullptr); });
  return bytes;
}

void cub_run(CubAlgo algo, const Call& c) {
  if (c.spec.n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(c.count, 0, sizeof(std::int64_t), c.stream));
    return;
  }
  std::size_t bytes = cub_workspace(algo, c.spec);
  dispatch_key_type(c.spec.dtype,
                    [&]<class T>() { cub_call<T>(algo, c.workspace, bytes, c.spec, c.in, c.flags, c.out, c.count, c.stream); });
}

bool select_ok(const Spec& s, Family f, bool flagged) {
  return s.family == f && s.flagged == flagged && family_supports(s);
}

}  // namespace

void run_cub_select_if(const Call& c) { cub_run(CubAlgo::select_if, c); }
std::size_t ws_cub_select_if(const Spec& s) { return cub_workspace(CubAlgo::select_if, s); }
bool supports_cub_select_if(const Spec& s) { return select_ok(s, Family::compact, false); }

void run_cub_select_flagged(const Call& c) { cub_run(CubAlgo::select_flagged, c); }
std::size_t ws_cub_select_flagged(const Spec& s) { return cub_workspace(CubAlgo::select_flagged, s); }
bool supports_cub_select_flagged(const Spec& s) { return select_ok(s, Family::compact, true); }

void run_cub_partition_if(const Call& c) { cub_run(CubAlgo::partition_if, c); }
std::size_t ws_cub_partition_if(const Spec& s) { return cub_workspace(CubAlgo::partition_if, s); }
bool supports_cub_partition_if(const Spec& s) { return select_ok(s, Family::partition, false); }

void run_cub_select_unique(const Call& c) { cub_run(CubAlgo::select_unique, c); }
std::size_t ws_cub_select_unique(const Spec& s) { return cub_workspace(CubAlgo::select_unique, s); }
bool supports_cub_select_unique(const Spec& s) { return select_ok(s, Family::unique, false); }

}  // namespace tessera::compose_impl
