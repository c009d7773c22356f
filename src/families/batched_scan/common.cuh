// Small pieces every CUDA batched_scan rung shares: the accumulator dispatch,
// grid sizing from the occupancy API, and kernel-attribute setup.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <string>
#include <type_traits>

#include "tessera/blocks/reducers.hpp"
#include "tessera/blocks/device.cuh"
#include "tessera/blocks/launch.cuh"
#include "families/batched_scan/contract.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"

namespace tessera::batched_scan_impl::gpu_detail {

inline bool has_work(const ScanSpec& s) { return s.rows > 0 && s.len > 0; }

// f.template operator()<R>() with R the reducer of the accumulator (float
// samples, sums): PlainSum<float, float>, PlainSum<float, double>, KahanSum,
// DFloatSum. Only those are instantiated (dispatch_reducer's other dtypes
// are never taken for float samples).
template <class F>
void dispatch_accum(const char* variant, Accum accum, F&& f) {
  auto float_only = [&f]<class R>() {
    if constexpr (std::is_same_v<typename R::in_t, float> && !std::is_same_v<R, MinOp<float>> &&
                  !std::is_same_v<R, MaxOp<float>>)
      f.template operator()<R>();
  };
  if (!dispatch_reducer(Dtype::f32, Op::sum, accum, float_only))
    throw Error(std::string("batched_scan variant '") + variant + "': unknown accumulator");
}

// grid.x of a launch; throws past the hardware limit.
inline unsigned grid_of(std::size_t blocks, const char* kernel, const ScanSpec& s) {
  if (blocks < 1 || blocks > static_cast<std::size_t>(INT_MAX))
    throw Error(std::string("batched_scan: ") + kernel + " needs " + std::to_string(blocks) + " blocks for " +
                describe(s) + " (grid.x limit " + std::to_string(INT_MAX) + ")");
  return static_cast<unsigned>(blocks);
}

// Lets `kernel` use `smem` bytes of dynamic shared memory (past the 48 KB
// default) and returns how many of its blocks fit on one SM (>= 1). Host-side
// only: safe during graph capture. The attribute is set on every call (cheap,
// and correct whichever device is current); the occupancy is cached per
// kernel (the same on every device of one architecture).
template <class Kernel>
int prepare_kernel(Kernel kernel, int block, std::size_t smem, std::atomic<int>& cache) {
  if (smem > 48 * 1024)
    TESSERA_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int per_sm = cache.load(std::memory_order_relaxed);
  if (per_sm == 0) {
    TESSERA_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem));
    per_sm = std::max(per_sm, 1);
    cache.store(per_sm, std::memory_order_relaxed);
  }
  return per_sm;
}

}  // namespace tessera::batched_scan_impl::gpu_detail
