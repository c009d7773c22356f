// The CPU rungs of the scan ladder: one line per variant.
#include "tessera/blocks/scan_ops.hpp"
#include "families/scan/cpu_rungs.hpp"

namespace tessera::scan_impl {

namespace {
bool supports_any(const ScanSpec& s) { return scan_supported(s.dtype, s.op, s.accum); }
std::size_t no_workspace(const ScanSpec&) { return 0; }

constexpr ScanVariant kCpuVariants[] = {
    {{"scan", "cpu_reference", 0, Backend::cpu, Role::reference,
      "serial y[i] = y[i-1] + x[i]; float sums in compensated long double, integers wrap exactly (seed 000 Prefix-sum: sequential C)", true},
     supports_any, no_workspace, cpu::run_reference},
    {{"scan", "cpu_openmp", 1, Backend::cpu, Role::reference,
      "OpenMP two-pass: reduce static chunks, scan the chunk totals in thread order, rescan each chunk from its prefix (seed 000 hierarchical scan, on cores)", true},
     supports_any, no_workspace, cpu::run_openmp},
};
}  // namespace

std::span<const ScanVariant> cpu_variants() { return kCpuVariants; }

}  // namespace tessera::scan_impl
