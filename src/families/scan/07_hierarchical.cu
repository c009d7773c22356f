// Step 7 — the hierarchical scan (seed 000 "Hierarchical scan": scan blocks,
// scan the block sums, add), two variants:
//
//   hierarchical      the three kernels of the seed as a rung of their own:
//                     kernel 1 is step 6's shuffle section scan coarsened to
//                     4096-element sections (16 per thread), so there are half
//                     as many section totals and one level less for large n;
//                     kernel 2 scans the totals with the same three steps
//                     (recursion, any n); kernel 3 adds S[b - 1] to section b,
//                     one block per section (hierarchy.cuh). Steps 2-6 run
//                     inside this same driver with their own kernel 1.
//                     Memory: read n, write n, read n, write n.
//   reduce_then_scan  kernel 1 only reduces each section (no output written),
//                     the totals are scanned as above, and kernel 3 re-reads
//                     the input and scans each section from its prefix:
//                     read n, read n, write n, and no intermediate rounding of
//                     wide float accumulators.
//
// Bottleneck: DRAM passes. Expected: hierarchical ~45% of copy (4 passes),
// reduce_then_scan ~60% (3 passes).
#include <cuda_runtime.h>

#include "families/scan/hierarchy.cuh"
#include "families/scan/cuda_rungs.hpp"
#include "families/scan/section_scan.cuh"

namespace tessera::scan_impl {

namespace {

// 256 threads x 16 elements: 4096-element sections (16 KiB of float).
using Config = SectionConfig<256, 16, Phase2::warp_shuffle>;
using ReduceConfig = SectionConfig<256, 16, Phase2::warp_shuffle, /*STORE=*/false>;

constexpr char KERNEL_NAME[] = "scan_hierarchical_kernel";
using Coarse = RecordingSections<Config, KERNEL_NAME>;

using H = Hierarchy<Coarse>;

template <class R>
void run_reduce_then_scan_for(const ScanCall& call) {
  using S = ScanOf<R>;
  using acc_t = typename R::acc_t;
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  const auto* in = static_cast<const typename S::in_t*>(call.in);
  auto* out = static_cast<typename S::out_t*>(call.out);
  const std::size_t blocks = H::sections(n);
  const unsigned grid = gpu::checked_grid(blocks, "scan_reduce_then_scan_kernel", n);
  if (blocks == 1) {
    Coarse::launch<S>(in, out, n, nullptr, call.spec.exclusive, grid, call.stream);
    return;
  }
  auto* ws = static_cast<unsigned char*>(call.workspace);
  auto* sums = reinterpret_cast<acc_t*>(ws);
  detail::launch("scan_reduce_sections_kernel", scan_section_kernel<S, ReduceConfig, RecordTotal<acc_t>>, dim3(grid),
                 dim3(Config::THREADS), 0, call.stream, n, in, static_cast<typename S::out_t*>(nullptr), n, false,
                 RecordTotal<acc_t>{sums}, S{});
  H::scan_states<R>(sums, blocks, ws + gpu::align_workspace(blocks * sizeof(acc_t)), call.stream);
  detail::launch("scan_reduce_then_scan_kernel", scan_section_kernel<S, Config, GivenPrefix<acc_t>>, dim3(grid),
                 dim3(Config::THREADS), 0, call.stream, n, in, out, n, call.spec.exclusive,
                 GivenPrefix<acc_t>{sums}, S{});
}

}  // namespace

void run_hierarchical(const ScanCall& call) { run_in_hierarchy<Coarse>("hierarchical", call); }
std::size_t ws_hierarchical(const ScanSpec& spec) { return hierarchy_workspace<Coarse>(spec); }
bool supports_hierarchical(const ScanSpec& spec) { return seed_spec_supported(spec); }

void run_reduce_then_scan(const ScanCall& call) {
  dispatch_seed_or_throw("reduce_then_scan", call.spec, [&]<class R>() { run_reduce_then_scan_for<R>(call); });
}
// The level-0 totals plus what scanning them needs: the same as the
// hierarchical driver's.
std::size_t ws_reduce_then_scan(const ScanSpec& spec) { return hierarchy_workspace<Coarse>(spec); }
bool supports_reduce_then_scan(const ScanSpec& spec) { return seed_spec_supported(spec); }

}  // namespace tessera::scan_impl
