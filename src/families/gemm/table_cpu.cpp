// The CPU rungs of the GEMM ladders: one line per variant. Both serve A*B and
// A*A^T.
#include "families/gemm/cpu_rungs.hpp"

namespace tessera::gemm_impl {

namespace {

bool supports_any(const GemmSpec&) { return true; }

// Harness limits (GemmVariant::harness_max_macs): the serial double loop runs
// at ~1 G multiply-adds/s, so 2^30 is about a second; the OpenMP rung at tens
// of G/s on a many-core host, a few on 2 cores: 2^34.
constexpr std::uint64_t REFERENCE_MAX_MACS = std::uint64_t(1) << 30;
constexpr std::uint64_t OPENMP_MAX_MACS = std::uint64_t(1) << 34;

constexpr GemmVariant kCpuVariants[] = {
    {{"gemm", "cpu_reference", 0, Backend::cpu, Role::reference,
      "serial loops, dot products in double, one rounding per element (seed 000 GEMM C=AB: Simple C Code)", true},
     Fill::full, REFERENCE_MAX_MACS, supports_any, no_workspace, cpu::run_reference},
    {{"gemm", "cpu_openmp", 1, Backend::cpu, Role::reference,
      "OpenMP over 64x128 tiles of C, 128-deep packed panels of the right operand, float accumulation (seed 001 tiling on the CPU)",
      true},
     Fill::full, OPENMP_MAX_MACS, supports_any, no_workspace, cpu::run_openmp},
};

}  // namespace

std::span<const GemmVariant> cpu_variants() { return kCpuVariants; }

}  // namespace tessera::gemm_impl
