// Step 2 — Kogge-Stone in shared memory (seed 000 "Prefix-sum": Kogge-Stone;
// seed 003 "Scan").
//
// What it changes over the CPU rungs: one element per thread in shared
// memory; at step `stride` (1, 2, 4, ...) thread t adds the value `stride`
// slots to its left. A step needs two barriers: one before the reads (the
// previous step's writes are visible) and one between the reads and the
// writes (nobody overwrites a value a slower thread has yet to read). A block
// scans its 512-element section; the hierarchical add-back of step 7
// (hierarchy.cuh) makes it a full-array scan.
//
// Bottleneck: barriers and work. log2(512) = 9 steps of two barriers each and
// n log n combines (not work-efficient), plus the add-back's second pass over
// the output (4 n element moves instead of 2 n). Expected: ~10-15% of the copy
// bandwidth.
#include <cuda_runtime.h>

#include "families/scan/hierarchy.cuh"
#include "families/scan/cuda_rungs.hpp"

namespace tessera::scan_impl {

namespace {

constexpr int THREADS = 512;  // = the section: one element per thread (seed: SECTION_SIZE threads)

template <class S>
__global__ __launch_bounds__(THREADS) void scan_kogge_stone_kernel(const typename S::in_t* in,
                                                                   typename S::out_t* out, std::size_t n,
                                                                   typename S::acc_t* sums, bool exclusive, S f) {
  using acc_t = typename S::acc_t;
  __shared__ alignas(16) unsigned char raw[THREADS * sizeof(acc_t)];
  acc_t* xy = reinterpret_cast<acc_t*>(raw);
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * THREADS + tid;
  xy[tid] = i < n ? f.lift(in[i]) : f.identity();
  for (unsigned stride = 1; stride < THREADS; stride *= 2) {
    __syncthreads();  // the previous step's writes are visible
    acc_t t = xy[tid];
    if (tid >= stride) t = f.combine(xy[tid - stride], t);
    __syncthreads();  // every read of this step is done before anyone overwrites
    xy[tid] = t;
  }
  __syncthreads();
  if (i < n) out[i] = f.output(exclusive ? (tid > 0 ? xy[tid - 1] : f.identity()) : xy[tid]);
  if (sums != nullptr && tid == THREADS - 1) sums[blockIdx.x] = xy[THREADS - 1];
}

struct KoggeStone {
  static constexpr std::size_t SECTION = THREADS;
  template <class S>
  static void launch(const typename S::in_t* in, typename S::out_t* out, std::size_t n, typename S::acc_t* sums,
                     bool exclusive, unsigned blocks, cudaStream_t stream) {
    detail::launch("scan_kogge_stone_kernel", scan_kogge_stone_kernel<S>, dim3(blocks), dim3(THREADS), 0, stream, n,
                   in, out, n, sums, exclusive, S{});
  }
};

}  // namespace

void run_kogge_stone(const ScanCall& call) { run_in_hierarchy<KoggeStone>("kogge_stone", call); }
std::size_t ws_kogge_stone(const ScanSpec& spec) { return hierarchy_workspace<KoggeStone>(spec); }
bool supports_kogge_stone(const ScanSpec& spec) { return seed_spec_supported(spec); }

}  // namespace tessera::scan_impl
