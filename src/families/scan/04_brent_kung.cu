// Step 4 — Brent-Kung (seed 000 "Prefix-sum": Brent-Kung, its two
// thread-to-index mappings; PMPP ch. 8).
//
// What it changes over step 3: a work-efficient tree. A reduction tree
// (up-sweep: stride 1, 2, 4, ...) leaves partial sums at indices 2*stride*k - 1,
// then a distribution tree (down-sweep: stride SECTION/4 ... 1) pushes them to
// the right; 2n combines instead of n log n, and each thread owns two elements
// (section = 2 x 512 threads), loaded and stored coalesced. One barrier per
// level: no level writes an element that the same level reads. Three
// variants, one kernel:
//   brent_kung_modulo   the seed's first mapping: thread t owns indices t and
//                       t + 512 and acts where (index + 1) % (2*stride) == 0,
//                       so active threads are scattered over every warp
//                       (divergence at every level);
//   brent_kung_index    the seed's second mapping: thread t computes its index
//                       (t + 1) * 2*stride - 1, so the active threads are the
//                       first ones, contiguous: no divergence until fewer than
//                       32 are active; strided shared-memory accesses conflict;
//   brent_kung_padded   the second mapping with one padding slot per 32 (the
//                       conflict-free offset of GPU Gems 3 ch. 39), so the
//                       strided accesses spread over the banks.
// The hierarchical add-back (step 7) makes them full-array scans.
//
// Bottleneck: barriers (2 log2(1024) levels) with mostly idle threads, and the
// add-back's extra pass. Expected: around step 3 (~12-20% of copy), the index
// mapping ahead of the modulo one, the padded one ahead of both.
#include <cuda_runtime.h>

#include "families/scan/hierarchy.cuh"
#include "families/scan/cuda_rungs.hpp"

namespace tessera::scan_impl {

namespace {

constexpr int THREADS = 512;
constexpr unsigned SECTION = 2 * THREADS;  // two elements per thread

enum class Mapping { modulo, index, padded };

template <Mapping M>
__device__ __forceinline__ unsigned slot(unsigned i) {
  return M == Mapping::padded ? i + (i >> 5) : i;
}

template <class S, Mapping M>
__global__ __launch_bounds__(THREADS) void scan_brent_kung_kernel(const typename S::in_t* in, typename S::out_t* out,
                                                                  std::size_t n, typename S::acc_t* sums,
                                                                  bool exclusive, S f) {
  using acc_t = typename S::acc_t;
  __shared__ alignas(16) unsigned char raw[(SECTION + SECTION / 32) * sizeof(acc_t)];
  acc_t* xy = reinterpret_cast<acc_t*>(raw);
  const unsigned tid = threadIdx.x;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * SECTION;
#pragma unroll
  for (unsigned h = 0; h < 2; ++h) {
    const unsigned i = tid + h * THREADS;
    xy[slot<M>(i)] = base + i < n ? f.lift(in[base + i]) : f.identity();
  }

  // Reduction tree.
  for (unsigned stride = 1; stride < SECTION; stride *= 2) {
    __syncthreads();
    if constexpr (M == Mapping::modulo) {
#pragma unroll
      for (unsigned h = 0; h < 2; ++h) {
        const unsigned i = tid + h * THREADS;
        if ((i + 1) % (2 * stride) == 0) xy[i] = f.combine(xy[i - stride], xy[i]);
      }
    } else {
      const unsigned i = (tid + 1) * 2 * stride - 1;
      if (i < SECTION) xy[slot<M>(i)] = f.combine(xy[slot<M>(i - stride)], xy[slot<M>(i)]);
    }
  }
  // Distribution tree.
  for (unsigned stride = SECTION / 4; stride > 0; stride /= 2) {
    __syncthreads();
    if constexpr (M == Mapping::modulo) {
#pragma unroll
      for (unsigned h = 0; h < 2; ++h) {
        const unsigned i = tid + h * THREADS;
        if ((i + 1) % (2 * stride) == 0 && i + stride < SECTION) xy[i + stride] = f.combine(xy[i], xy[i + stride]);
      }
    } else {
      const unsigned i = (tid + 1) * 2 * stride - 1;
      if (i + stride < SECTION) xy[slot<M>(i + stride)] = f.combine(xy[slot<M>(i)], xy[slot<M>(i + stride)]);
    }
  }
  __syncthreads();

#pragma unroll
  for (unsigned h = 0; h < 2; ++h) {
    const unsigned i = tid + h * THREADS;
    if (base + i < n)
      out[base + i] = f.output(exclusive ? (i > 0 ? xy[slot<M>(i - 1)] : f.identity()) : xy[slot<M>(i)]);
  }
  if (sums != nullptr && tid == 0) sums[blockIdx.x] = xy[slot<M>(SECTION - 1)];
}

template <Mapping M>
struct BrentKung {
  static constexpr std::size_t SECTION = scan_impl::SECTION;
  template <class S>
  static void launch(const typename S::in_t* in, typename S::out_t* out, std::size_t n, typename S::acc_t* sums,
                     bool exclusive, unsigned blocks, cudaStream_t stream) {
    detail::launch(M == Mapping::modulo  ? "scan_brent_kung_modulo_kernel"
                   : M == Mapping::index ? "scan_brent_kung_index_kernel"
                                         : "scan_brent_kung_padded_kernel",
                   scan_brent_kung_kernel<S, M>, dim3(blocks), dim3(THREADS), 0, stream, n, in, out, n, sums,
                   exclusive, S{});
  }
};

}  // namespace

void run_brent_kung_modulo(const ScanCall& call) {
  run_in_hierarchy<BrentKung<Mapping::modulo>>("brent_kung_modulo", call);
}
std::size_t ws_brent_kung_modulo(const ScanSpec& spec) {
  return hierarchy_workspace<BrentKung<Mapping::modulo>>(spec);
}
bool supports_brent_kung_modulo(const ScanSpec& spec) { return seed_spec_supported(spec); }

void run_brent_kung_index(const ScanCall& call) {
  run_in_hierarchy<BrentKung<Mapping::index>>("brent_kung_index", call);
}
std::size_t ws_brent_kung_index(const ScanSpec& spec) { return hierarchy_workspace<BrentKung<Mapping::index>>(spec); }
bool supports_brent_kung_index(const ScanSpec& spec) { return seed_spec_supported(spec); }

void run_brent_kung_padded(const ScanCall& call) {
  run_in_hierarchy<BrentKung<Mapping::padded>>("brent_kung_padded", call);
}
std::size_t ws_brent_kung_padded(const ScanSpec& spec) {
  return hierarchy_workspace<BrentKung<Mapping::padded>>(spec);
}
bool supports_brent_kung_padded(const ScanSpec& spec) { return seed_spec_supported(spec); }

}  // namespace tessera::scan_impl
