// Step 3 — double-buffered Kogge-Stone (seed 000 "Prefix-sum": double buffer
// Kogge-Stone).
//
// What it changes over step 2: two shared arrays; each step reads one and
// writes the other, then they swap. A value is never overwritten in the step
// that reads it, so the second barrier of step 2 goes: one barrier per step.
// Same 512-element sections, same hierarchical add-back (step 7).
//
// Bottleneck: still n log n combines and the add-back's extra pass; half the
// barriers of step 2. Expected: a little above step 2 (~12-18% of copy).
#include <cuda_runtime.h>

#include "families/scan/hierarchy.cuh"
#include "families/scan/cuda_rungs.hpp"

namespace tessera::scan_impl {

namespace {

constexpr int THREADS = 512;  // = the section, as in step 2

template <class S>
__global__ __launch_bounds__(THREADS) void scan_kogge_stone_double_buffer_kernel(const typename S::in_t* in,
                                                                                 typename S::out_t* out,
                                                                                 std::size_t n,
                                                                                 typename S::acc_t* sums,
                                                                                 bool exclusive, S f) {
  using acc_t = typename S::acc_t;
  __shared__ alignas(16) unsigned char raw[2 * THREADS * sizeof(acc_t)];
  acc_t* src = reinterpret_cast<acc_t*>(raw);
  acc_t* dst = src + THREADS;
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * THREADS + tid;
  src[tid] = i < n ? f.lift(in[i]) : f.identity();
  for (unsigned stride = 1; stride < THREADS; stride *= 2) {
    __syncthreads();  // src is complete; dst was last read before this barrier
    dst[tid] = tid >= stride ? f.combine(src[tid - stride], src[tid]) : src[tid];
    acc_t* t = src;
    src = dst;
    dst = t;
  }
  __syncthreads();
  if (i < n) out[i] = f.output(exclusive ? (tid > 0 ? src[tid - 1] : f.identity()) : src[tid]);
  if (sums != nullptr && tid == THREADS - 1) sums[blockIdx.x] = src[THREADS - 1];
}

struct KoggeStoneDoubleBuffer {
  static constexpr std::size_t SECTION = THREADS;
  template <class S>
  static void launch(const typename S::in_t* in, typename S::out_t* out, std::size_t n, typename S::acc_t* sums,
                     bool exclusive, unsigned blocks, cudaStream_t stream) {
    detail::launch("scan_kogge_stone_double_buffer_kernel", scan_kogge_stone_double_buffer_kernel<S>, dim3(blocks),
                   dim3(THREADS), 0, stream, n, in, out, n, sums, exclusive, S{});
  }
};

}  // namespace

void run_kogge_stone_double_buffer(const ScanCall& call) {
  run_in_hierarchy<KoggeStoneDoubleBuffer>("kogge_stone_double_buffer", call);
}
std::size_t ws_kogge_stone_double_buffer(const ScanSpec& spec) {
  return hierarchy_workspace<KoggeStoneDoubleBuffer>(spec);
}
bool supports_kogge_stone_double_buffer(const ScanSpec& spec) { return seed_spec_supported(spec); }

}  // namespace tessera::scan_impl
