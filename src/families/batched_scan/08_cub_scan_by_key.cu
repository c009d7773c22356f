// Step 8 — the vendor baseline: the best composition of CUB calls for a
// batched forward-then-backward scan (CUB and Thrust have no batched
// bidirectional scan). Rows are segments of one flat scan by key, the key of
// sample i being its row i / len (a transform of a counting iterator);
//   forward:          cub::DeviceScan::{Inclusive,Exclusive}SumByKey(in -> out)
//   backward:         the same over reverse iterators (rev(in) -> rev(out)),
//   forward_backward: forward in -> tmp (workspace), then backward
//                     rev(tmp) -> rev(out): the forward result is rounded to
//                     float in between, as any composition of two calls.
// Float accumulation, compact rows only (pitch == len: a flat scan); the
// other accumulators and pitches have no CUB counterpart short of more
// passes. CUB's temporary storage lives in the workspace (its size from CUB's
// null-pointer query): graph-capturable.
//
// Expected (issue 4's measurement on the H100): forward_backward on 10,000 x
// 10,000 at ~36% of the copy bandwidth (two reads and two writes of the batch
// plus the look-back scans' own traffic).
//
// Workspace: [ CUB temp storage ][ tmp: rows x len floats (forward_backward) ]
#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>

#include "tessera/blocks/multipass.cuh"
#include "families/batched_scan/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::batched_scan_impl {

namespace {

// The row of flat sample i (rows of `len` samples, compact).
struct RowOf {
  std::uint64_t len;
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const { return i / len; }
};

auto row_keys(std::size_t len) {
  return thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), RowOf{len});
}

// One scan by key of n samples; d_temp == nullptr only queries temp_bytes.
// `reverse`: rev(in) -> rev(out) (the keys need no reversal: rows of equal
// length reversed are still runs of len equal keys).
void scan_by_key(void* d_temp, std::size_t& temp_bytes, const float* in, float* out, std::size_t n, std::size_t len,
                 bool exclusive, bool reverse, cudaStream_t stream) {
  const auto keys = row_keys(len);
  const auto n64 = static_cast<std::int64_t>(n);
  if (reverse) {
    const auto rin = thrust::make_reverse_iterator(in + n);
    const auto rout = thrust::make_reverse_iterator(out + n);
    if (exclusive) TESSERA_CUDA(cub::DeviceScan::ExclusiveSumByKey(d_temp, temp_bytes, keys, rin, rout, n64, {}, stream));
    else TESSERA_CUDA(cub::DeviceScan::InclusiveSumByKey(d_temp, temp_bytes, keys, rin, rout, n64, {}, stream));
  } else {
    if (exclusive) TESSERA_CUDA(cub::DeviceScan::ExclusiveSumByKey(d_temp, temp_bytes, keys, in, out, n64, {}, stream));
    else TESSERA_CUDA(cub::DeviceScan::InclusiveSumByKey(d_temp, temp_bytes, keys, in, out, n64, {}, stream));
  }
}

std::size_t temp_bytes_for(const ScanSpec& s) {
  const std::size_t n = s.rows * s.len;
  std::size_t fwd = 0, bwd = 0;
  scan_by_key(nullptr, fwd, nullptr, nullptr, n, s.len, s.exclusive, false, nullptr);
  scan_by_key(nullptr, bwd, nullptr, nullptr, n, s.len, s.exclusive, true, nullptr);
  return fwd > bwd ? fwd : bwd;
}

}  // namespace

// In place only through the temporary (forward_backward): CUB does not
// document in-place scans by key.
bool supports_cub_scan_by_key(const ScanSpec& s) {
  return s.accum == Accum::native && s.in_pitch == s.len && s.out_pitch == s.len &&
         (!s.in_place || s.direction == ScanDirection::forward_backward);
}

std::size_t ws_cub_scan_by_key(const ScanSpec& s) {
  if (s.rows == 0 || s.len == 0) return 0;
  const std::size_t tmp = s.direction == ScanDirection::forward_backward ? s.rows * s.len * sizeof(float) : 0;
  return gpu::align_workspace(temp_bytes_for(s)) + tmp;
}

void run_cub_scan_by_key(const ScanCall& call) {
  const ScanSpec& s = call.spec;
  if (s.rows == 0 || s.len == 0) return;
  const std::size_t n = s.rows * s.len;
  std::size_t temp_bytes = temp_bytes_for(s);
  void* temp = call.workspace;
  switch (s.direction) {
    case ScanDirection::forward:
      scan_by_key(temp, temp_bytes, call.in, call.out, n, s.len, s.exclusive, false, call.stream);
      break;
    case ScanDirection::backward:
      scan_by_key(temp, temp_bytes, call.in, call.out, n, s.len, s.exclusive, true, call.stream);
      break;
    case ScanDirection::forward_backward: {
      float* tmp = gpu::workspace_at<float>(call.workspace, gpu::align_workspace(temp_bytes));
      scan_by_key(temp, temp_bytes, call.in, tmp, n, s.len, s.exclusive, false, call.stream);
      scan_by_key(temp, temp_bytes, tmp, call.out, n, s.len, s.exclusive, true, call.stream);
      break;
    }
  }
}

}  // namespace tessera::batched_scan_impl
