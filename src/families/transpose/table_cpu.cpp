// The CPU rungs of the transpose ladder: one line per variant.
#include "families/transpose/cpu_rungs.hpp"

namespace tessera::transpose_impl {

namespace {
// Any element size the CPU moves: 1, 4 or 8 bytes.
bool supports_any(const TransposeSpec& s) {
  const std::size_t e = size_of(s.dtype);
  return e == 1 || e == 4 || e == 8;
}

constexpr TransposeVariant kCpuVariants[] = {
    {{"transpose", "cpu_reference", 0, Backend::cpu, Role::reference,
      "serial double loop out[j][i] = in[i][j], input read row by row (seed 000 Transpose: the definition)", true},
     Output::transpose, supports_any, nullptr, cpu::run_reference},
    {{"transpose", "cpu_openmp_blocked", 1, Backend::cpu, Role::reference,
      "OpenMP over 64x64 cache blocks: each output line written whole while it is in L1 (the CPU's shared-memory tile)", true},
     Output::transpose, supports_any, nullptr, cpu::run_openmp_blocked},
};
}  // namespace

std::span<const TransposeVariant> cpu_variants() { return kCpuVariants; }

}  // namespace tessera::transpose_impl
