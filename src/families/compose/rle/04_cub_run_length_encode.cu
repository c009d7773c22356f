// rle step 4 — the vendor baseline: cub::DeviceRunLengthEncode::Encode, keys and
// int64 run lengths out, the number of runs to the device, temporary storage
// in the workspace. CCCL 3.0's Encode counts in int: n < 2^31 only.
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <cub/device/device_run_length_encode.cuh>

#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::compose_impl {

namespace {

template <class T>
void encode(void* temp, std::size_t& bytes, const Call& c, std::size_t n, cudaStream_t stream) {
  TESSERA_CUDA(cub::DeviceRunLengthEncode::Encode(temp, bytes, static_cast<const T*>(c.in), static_cast<T*>(c.out),
                                                  c.lengths, c.count, static_cast<int>(n), stream));
}

}  // namespace

void run_cub_run_length_encode(const Call& c) {
  const std::size_t n = c.spec.n;
  if (n == 0) {
    TESSERA_CUDA(cudaMemsetAsync(c.count, 0, sizeof(std::int64_t), c.stream));
    return;
  }
  dispatch_key_type(c.spec.dtype, [&]<class T>() {
    std::size_t bytes = 0;
    encode<T>(nullptr, bytes, c, n, c.stream);
    encode<T>(c.workspace, bytes, c, n, c.stream);
  });
}

std::size_t ws_cub_run_length_encode(const Spec& s) {
  std::size_t bytes = 0;
  if (s.n == 0) return 0;
  dispatch_key_type(s.dtype, [&]<class T>() { encode<T>(nullptr, bytes, Call{}, s.n, nullptr); });
  return bytes;
}

bool supports_cub_run_length_encode(const Spec& s) {
  return s.family == Family::rle && family_supports(s) && s.n <= static_cast<std::size_t>(INT_MAX);
}

}  // namespace tessera::compose_impl
