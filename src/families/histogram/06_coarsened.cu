// Step 6 — coarsening: each thread handles many elements, with 16-byte loads
// (seed 000 "Histogram" privatization + aggregation, under the thread
// coarsening and vector loads of the reduction ladder's cascading steps).
//
// What it changes over step 5 (per-warp copies + run aggregation, one scalar
// element per loop trip): the loads. A persistent grid (resident blocks)
// sweeps the input in tiles of 256 x 4 vectors of 16 bytes (16 bytes or 4
// floats each); a thread's 4 vectors of the next tile are in flight while it
// counts the current one (sweep_vec16 in common.cuh). Aggregation now sees
// runs of *adjacent* elements (a vector's 16 bytes), which is where real data
// (text, images) repeats itself. Any pointer alignment: a scalar head up to a
// 128-byte boundary and a scalar tail.
//
// Bottleneck: with the load instructions cut 16x for bytes, what is left is
// the shared-memory atomics: random bins conflict in banks (~3.5 wavefronts
// per warp instruction) on uniform bytes; skewed bytes mostly hit one address
// per warp, which the hardware merges, and aggregation removes 2/3 of the
// atomics. Expected: ~70% of copy on uniform bytes (about CUB, which does the
// same), ~95% on skewed bytes; floats (4 bytes per atomic) near copy.
#include "families/histogram/privatized.cuh"
#include "families/histogram/cuda_rungs.hpp"

namespace tessera::histogram_impl {

namespace {

constexpr int BLOCK_THREADS = 256;  // as steps 3-5: 8 per-warp copies
constexpr int UNROLL = 4;           // 16-byte vectors per thread per tile: 64 B in flight + 64 B prefetched
constexpr int WARP_THREADS = 32;    // step 4's copy per warp
constexpr int COPIES = BLOCK_THREADS / WARP_THREADS;

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void histogram_coarsened_vec16_kernel(const T* __restrict__ in,
                                                                                 std::size_t n, rule_t<T> rule,
                                                                                 std::uint32_t* __restrict__ counts) {
  const int bins = rule.bins;
  const int stride = copy_stride(COPIES, bins);
  std::uint32_t* s = smem_counters();
  zero_smem(s, static_cast<std::size_t>(COPIES) * stride);
  std::uint32_t* mine = s + (threadIdx.x / WARP_THREADS) * stride;
  RunAggregator run;
  auto on_bin = [&](int b) { run.add(b, mine); };
  sweep_vec16<T, BLOCK_THREADS, UNROLL>(in, n, rule, [] {}, count_vec16(rule, on_bin), on_bin);
  run.flush(mine);
  __syncthreads();
  merge_copies_to_global(s, COPIES, stride, bins, counts);
}

}  // namespace

void run_coarsened_vec16(const HistogramCall& call) {
  with_input_type("coarsened_vec16", call.spec, [&]<class T>() {
    const std::size_t n = call.spec.n;
    zero_counts(call);
    if (n > 0) {
      auto* kernel = histogram_coarsened_vec16_kernel<T>;
      const std::size_t smem = copies_smem_bytes(COPIES, call.spec.bins);
      const std::size_t useful = detail::div_up(n, std::size_t(BLOCK_THREADS) * UNROLL * Vec16Of<T>::N);
      const char* name = "histogram_coarsened_vec16_kernel";
      const unsigned grid = persistent_grid(reinterpret_cast<const void*>(kernel), BLOCK_THREADS, smem, useful, name);
      launch_kernel(name, kernel, grid, BLOCK_THREADS, smem, call, static_cast<const T*>(call.in), n,
                    rule_of<T>(call.spec), call.counts);
    }
    write_out_of_range(call);
  });
}

bool supports_coarsened_vec16(const HistogramSpec& spec) {
  return input_type_supported(spec) && copies_smem_bytes(COPIES, spec.bins) <= SMEM_LIMIT;
}

}  // namespace tessera::histogram_impl
