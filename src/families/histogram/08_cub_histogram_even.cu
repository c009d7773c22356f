// Step 8 — the vendor baseline: cub::DeviceHistogram::HistogramEven (CCCL),
// the yardstick for tessera's step-7 kernels.
//
// Bytes: 257 levels over [0, 256) with int levels (CUB's exact integer bin
// rule: bin = byte). Floats: bins + 1 levels over [lo, hi) with float levels
// — CUB's rule is tessera's (bins.hpp) except the clamp at
// the top edge, so the variant declines a range whose largest value below hi
// rounds to bin `bins` (CUB would count it past the last bin). CUB zeroes the
// counts itself; the out-of-range count comes from the counts
// (write_out_of_range). CUB's temporary storage lives in the workspace (its
// size from CUB's null-pointer query), so a run allocates nothing and is
// graph-capturable. n = 0 skips CUB: the counts are zeroed directly.
#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_histogram.cuh>

#include "families/histogram/common.cuh"
#include "families/histogram/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::histogram_impl {

namespace {

// CUB's call; d_temp == nullptr only queries temp_bytes.
void cub_histogram(void* d_temp, std::size_t& temp_bytes, const HistogramSpec& s, const void* in,
                   std::uint32_t* counts, cudaStream_t stream) {
  const auto n = static_cast<std::int64_t>(s.n);
  if (s.dtype == Dtype::u8) {
    TESSERA_CUDA(cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, static_cast<const unsigned char*>(in),
                                                     reinterpret_cast<unsigned int*>(counts), ByteBins::bins + 1, 0,
                                                     ByteBins::bins, n, stream));
  } else {
    TESSERA_CUDA(cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, static_cast<const float*>(in),
                                                     reinterpret_cast<unsigned int*>(counts), s.bins + 1, s.lo, s.hi,
                                                     n, stream));
  }
}

std::size_t temp_storage_bytes(const HistogramSpec& s) {
  std::size_t bytes = 0;
  cub_histogram(nullptr, bytes, s, nullptr, nullptr, nullptr);
  return bytes;
}

}  // namespace

bool supports_cub_histogram_even(const HistogramSpec& s) {
  if (s.dtype == Dtype::u8) return true;
  return s.dtype == Dtype::f32 && !EvenBins::make(s.bins, s.lo, s.hi).top_edge_overflows();
}

std::size_t workspace_cub_histogram_even(const HistogramSpec& s) {
  if (s.n == 0) return 0;
  return temp_storage_bytes(s);
}

void run_cub_histogram_even(const HistogramCall& call) {
  if (!supports_cub_histogram_even(call.spec))
    throw Error("histogram variant 'cub_histogram_even' does not support " + describe(call.spec) +
                " (input type, or a top-edge value CUB would count past the last bin)");
  if (call.spec.n == 0) {
    zero_counts(call);
  } else {
    std::size_t temp_bytes = temp_storage_bytes(call.spec);
    cub_histogram(call.workspace, temp_bytes, call.spec, call.in, call.counts, call.stream);
  }
  write_out_of_range(call);
}

}  // namespace tessera::histogram_impl
