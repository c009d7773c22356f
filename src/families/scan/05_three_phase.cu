// Step 5 — three-phase scan (seed 000 "Algorithm cascading: three-phase").
//
// What it changes over step 4: sections larger than the block. 256 threads
// scan 2048 elements: the section is loaded with coalesced, corner-turned
// accesses into shared memory, each thread scans its 8 consecutive elements
// serially (phase 1), the 256 subsection totals are scanned with step 3's
// double-buffered Kogge-Stone (phase 2), and each thread adds the total of the
// subsections before it (phase 3) before coalesced stores
// (section_scan.cuh). Work: n - 1 + T log T + n - T for T threads, close to
// the sequential n; the hierarchical add-back (step 7) makes it a full-array
// scan, with 4x fewer section totals than steps 2-4.
//
// Bottleneck: memory passes (the add-back reads and writes the output again)
// and shared-memory traffic; the tree levels are only 8 of them. Expected:
// ~30-40% of copy.
#include <cuda_runtime.h>

#include "families/scan/hierarchy.cuh"
#include "families/scan/cuda_rungs.hpp"
#include "families/scan/section_scan.cuh"

namespace tessera::scan_impl {

namespace {

// 256 threads x 8 elements: 2048-element sections (8 KiB of float in shared
// memory), Kogge-Stone over 256 totals in phase 2.
using Config = SectionConfig<256, 8, Phase2::kogge_stone>;

constexpr char KERNEL_NAME[] = "scan_three_phase_kernel";
using ThreePhase = RecordingSections<Config, KERNEL_NAME>;

}  // namespace

void run_three_phase(const ScanCall& call) { run_in_hierarchy<ThreePhase>("three_phase", call); }
std::size_t ws_three_phase(const ScanSpec& spec) { return hierarchy_workspace<ThreePhase>(spec); }
bool supports_three_phase(const ScanSpec& spec) { return seed_spec_supported(spec); }

}  // namespace tessera::scan_impl
