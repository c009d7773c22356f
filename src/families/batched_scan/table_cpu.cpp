// The CPU rungs of the batched_scan ladder: one line per variant.
#include "families/batched_scan/cpu_rungs.hpp"

namespace tessera::batched_scan_impl {

namespace {
bool supports_any(const ScanSpec&) { return true; }
std::size_t no_workspace(const ScanSpec&) { return 0; }

constexpr ScanVariant kCpuVariants[] = {
    {{"batched_scan", "cpu_reference", 0, Backend::cpu, Role::reference,
      "serial rows in compensated long double, forward result kept unrounded (seed 002 cpu_scansum_kernel, made exact)",
      true},
     supports_any, no_workspace, cpu::run_reference},
    {{"batched_scan", "cpu_openmp", 1, Backend::cpu, Role::reference,
      "OpenMP over rows, each row serial with the requested accumulator (seed 002 CPU loop, rows in parallel)", true},
     supports_any, no_workspace, cpu::run_openmp},
};
}  // namespace

std::span<const ScanVariant> cpu_variants() { return kCpuVariants; }

}  // namespace tessera::batched_scan_impl
