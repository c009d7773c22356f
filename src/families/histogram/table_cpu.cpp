// The CPU rungs of the histogram ladder: one line per variant.
#include "families/histogram/cpu_rungs.hpp"

namespace tessera::histogram_impl {

namespace {
bool supports_any(const HistogramSpec& s) { return s.dtype == Dtype::u8 || s.dtype == Dtype::f32; }
std::size_t no_workspace(const HistogramSpec&) { return 0; }

constexpr HistogramVariant kCpuVariants[] = {
    {{"histogram", "cpu_reference", 0, Backend::cpu, Role::reference,
      "serial loop, one counter per bin (seed 000 Histogram: the sequential algorithm)", true},
     supports_any, no_workspace, cpu::run_reference},
    {{"histogram", "cpu_openmp", 1, Backend::cpu, Role::reference,
      "OpenMP: a private histogram per thread, no atomics, merged bin by bin (seed 000 Histogram: privatization)", true},
     supports_any, no_workspace, cpu::run_openmp},
};
}  // namespace

std::span<const HistogramVariant> cpu_variants() { return kCpuVariants; }

}  // namespace tessera::histogram_impl
