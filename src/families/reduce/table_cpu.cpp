// The CPU rungs of the reduction ladder: one line per variant.
#include "tessera/blocks/reducers.hpp"
#include "families/reduce/cpu_rungs.hpp"

namespace tessera::reduce_impl {

namespace {
bool supports_any(const ReduceSpec& s) {
  return dispatch_reducer(s.dtype, s.op, s.accum, []<class>() {});
}
std::size_t no_workspace(const ReduceSpec&) { return 0; }

constexpr ReduceVariant kCpuVariants[] = {
    {{"reduce", "cpu_reference", 0, Backend::cpu, Role::reference,
      "serial loop; float sums in compensated long double, integers exact (seed 000 Reduction: sequential O(n))", true},
     supports_any, no_workspace, cpu::run_reference},
    {{"reduce", "cpu_openmp", 1, Backend::cpu, Role::reference,
      "OpenMP: a private accumulator per thread, combined in thread order (privatization, seed 000)", true},
     supports_any, no_workspace, cpu::run_openmp},
};
}  // namespace

std::span<const ReduceVariant> cpu_variants() { return kCpuVariants; }

}  // namespace tessera::reduce_impl
