// Step 7 — tessera's histogram for many bins: a warp-voted hot bin in
// registers over several shared-memory copies.
//
// What it changes over step 6 (per-warp copies + run aggregation + 16-byte
// loads): contention is measured, not assumed. Lane-private counters
// (07_packed_counters.cu) need rows x BLOCK words, too many for 1024 or 4096
// bins; here the block keeps COPIES shared-memory histograms (as many as fit
// a 48 KB budget, up to one per warp), and each warp first samples the input:
// every lane takes the bin of its first element, __match_any_sync groups
// equal bins, and the bin most lanes share becomes the warp's hot bin. From
// then on an element of the hot bin only increments a register; the others
// go to the warp's copy with a shared atomic. On skewed data (80% in one
// bin) the hot bin is found with near certainty and 80% of the updates never
// reach shared memory; on uniform data the vote picks some bin and costs one
// compare per element. At the end each warp adds its lanes' hot counts
// (__reduce_add_sync) to its copy with one atomic, and the copies go to the
// global counts.
//
// Bottleneck: DRAM for floats (4 bytes per update: ~3 updates per SM-clock
// needed, the atomics give ~9 even with random-bank conflicts); for bytes on
// uniform data the random-bank atomics, as in step 6. Expected: ~100% of copy
// for float histograms of 1024-4096 bins, uniform or skewed; bytes as step 6
// on uniform data, better on skewed data.
#include <cuda_runtime.h>

#include "families/histogram/privatized.cuh"
#include "families/histogram/cuda_rungs.hpp"

namespace tessera::histogram_impl {

namespace {

constexpr int BLOCK_THREADS = 256;  // 8 warps: up to 8 copies
constexpr int UNROLL = 4;           // as step 6
constexpr int WARPS = BLOCK_THREADS / 32;
// Copies per block: the most (a power of two, <= WARPS) within this budget,
// so 4 blocks of 256 threads still fit an SM; one copy at least, up to SMEM_LIMIT.
constexpr std::size_t COPIES_BUDGET = std::size_t(48) << 10;
constexpr int NO_HOT_BIN = -2;  // matches no bin: valid bins are >= 0, dropped values -1
constexpr unsigned FULL_MASK = 0xffffffffu;

int copies_for(int bins) {
  int copies = WARPS;
  while (copies > 1 && copies_smem_bytes(copies, bins) > COPIES_BUDGET) copies /= 2;
  return copies;
}

template <class T>
__device__ __forceinline__ int warp_hot_bin(const T* __restrict__ in, std::size_t n, const rule_t<T>& rule) {
  // Sample: the first element of the thread's first vector (any element would
  // do for correctness; this one is about to be read anyway).
  const gpu::VecSplit split = gpu::split_for_vec16<BODY_ALIGN>(in, n);
  const std::size_t first =
      split.head + (static_cast<std::size_t>(blockIdx.x) * BLOCK_THREADS * UNROLL + threadIdx.x) * Vec16Of<T>::N;
  const int b = rule.bin(in[first < n ? first : n - 1]);
  const unsigned votes = __popc(__match_any_sync(FULL_MASK, b));
  const unsigned lane = threadIdx.x % 32;
  const unsigned winner = __reduce_max_sync(FULL_MASK, (votes << 5) | lane) & 31u;
  const int hot = __shfl_sync(FULL_MASK, b, static_cast<int>(winner));
  return hot >= 0 ? hot : NO_HOT_BIN;
}

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void histogram_hot_bin_kernel(const T* __restrict__ in, std::size_t n,
                                                                         rule_t<T> rule, int copies,
                                                                         std::uint32_t* __restrict__ counts) {
  const int bins = rule.bins;
  const int stride = copy_stride(copies, bins);
  std::uint32_t* s = smem_counters();
  zero_smem(s, static_cast<std::size_t>(copies) * stride);
  const int warp = static_cast<int>(threadIdx.x / 32);
  std::uint32_t* mine = s + (warp % copies) * stride;

  const int hot = warp_hot_bin<T>(in, n, rule);
  std::uint32_t hot_count = 0;
  auto on_bin = [&](int b) {
    if (b == hot) ++hot_count;
    else if (b >= 0) atomicAdd(mine + b, 1u);
  };
  sweep_vec16<T, BLOCK_THREADS, UNROLL>(in, n, rule, [] {}, count_vec16(rule, on_bin), on_bin);
  hot_count = __reduce_add_sync(FULL_MASK, hot_count);
  if (threadIdx.x % 32 == 0 && hot >= 0 && hot_count != 0) atomicAdd(mine + hot, hot_count);
  __syncthreads();
  merge_copies_to_global(s, copies, stride, bins, counts);
}

}  // namespace

void run_hot_bin_copies(const HistogramCall& call) {
  with_input_type("hot_bin_copies", call.spec, [&]<class T>() {
    if (!supports_hot_bin_copies(call.spec))
      throw Error("histogram variant 'hot_bin_copies': " + std::to_string(call.spec.bins) +
                  " bins do not fit one shared-memory copy");
    const std::size_t n = call.spec.n;
    zero_counts(call);
    if (n > 0) {
      auto* kernel = histogram_hot_bin_kernel<T>;
      const int copies = copies_for(call.spec.bins);
      const std::size_t smem = copies_smem_bytes(copies, call.spec.bins);
      const std::size_t useful = detail::div_up(n, std::size_t(BLOCK_THREADS) * UNROLL * Vec16Of<T>::N);
      const char* name = "histogram_hot_bin_kernel";
      const unsigned grid = persistent_grid(reinterpret_cast<const void*>(kernel), BLOCK_THREADS, smem, useful, name);
      launch_kernel(name, kernel, grid, BLOCK_THREADS, smem, call, static_cast<const T*>(call.in), n,
                    rule_of<T>(call.spec), copies, call.counts);
    }
    write_out_of_range(call);
  });
}

bool supports_hot_bin_copies(const HistogramSpec& spec) {
  return input_type_supported(spec) && copies_smem_bytes(1, spec.bins) <= SMEM_LIMIT;
}

}  // namespace tessera::histogram_impl
