// Step 6 — warp-shuffle scan with a block level on top (seed 000
// "Prefix-sum": "can be implemented with the warp shuffle instruction";
// seed 003 "Scan").
//
// What it changes over step 5: phase 2 leaves shared memory. Each warp scans
// its 32 subsection totals in registers with __shfl_up_sync (five steps, no
// barrier), lane 31 stores the warp's total, and after one barrier every warp
// scans the 8 warp totals itself (tessera/blocks/warp_scan.cuh,
// block_scan.cuh): one barrier instead of eight, and 8 shared slots instead
// of 512. Same 2048-element sections, same hierarchical add-back (step 7).
//
// Bottleneck: the memory passes of the add-back, as in step 5; the block scan
// is no longer the cost. Expected: ~35-45% of copy.
#include <cuda_runtime.h>

#include "families/scan/hierarchy.cuh"
#include "families/scan/cuda_rungs.hpp"
#include "families/scan/section_scan.cuh"

namespace tessera::scan_impl {

namespace {

// Step 5's sections (256 threads x 8 elements), shuffle phase 2.
using Config = SectionConfig<256, 8, Phase2::warp_shuffle>;

constexpr char KERNEL_NAME[] = "scan_warp_shuffle_kernel";
using WarpShuffle = RecordingSections<Config, KERNEL_NAME>;

}  // namespace

void run_warp_shuffle(const ScanCall& call) { run_in_hierarchy<WarpShuffle>("warp_shuffle", call); }
std::size_t ws_warp_shuffle(const ScanSpec& spec) { return hierarchy_workspace<WarpShuffle>(spec); }
bool supports_warp_shuffle(const ScanSpec& spec) { return seed_spec_supported(spec); }

}  // namespace tessera::scan_impl
