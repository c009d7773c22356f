// The GEMM ladders: one table, one line per variant — name, step, backend,
// role, what the step adds (and the seed section it comes from),
// determinism, what it writes of C, the harness limit, and its functions.
// Steps 0-1 (CPU) serve both products and every op(A), op(B); steps 2-11
// are the C = A*B ladder (steps 2-9, as taught, N,N only), 12-16 the
// C = A*A^T ladder. The tile and code-generation sweep of step 10
// is in lab/gemm/ (tuning rows, added by the lab build).
#include <vector>

#include "families/gemm/contract.hpp"
#include "families/gemm/cpu_rungs.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/gemm/cuda_rungs.hpp"
#endif

namespace tessera::gemm_impl {

namespace {

using namespace ladder::roles;

bool supports_any(const GemmSpec&) { return true; }

constexpr Fill FULL = Fill::full;

// Harness limits (GemmVariant::harness_max_macs): the serial double loop runs
// at ~1 G multiply-adds/s, so 2^30 is about a second; the OpenMP rung at tens
// of G/s on a many-core host, a few on 2 cores: 2^34.
constexpr std::uint64_t REFERENCE_MAX_MACS = std::uint64_t(1) << 30;
constexpr std::uint64_t OPENMP_MAX_MACS = std::uint64_t(1) << 34;
// The rungs that read operands from global memory in the inner loop (steps
// 2-4, 12): at 2-3 TFLOP/s an 8192^3 product (2^39 multiply-adds) takes
// ~0.5 s a run, ~5 s with its repetitions; 4096^3 (2^36) stays in.
constexpr std::uint64_t SLOW_RUNG_MAX_MACS = std::uint64_t(1) << 37;

const GemmVariant kTable[] = {
    {{"gemm", "cpu_reference", 0, CPU, REFERENCE, "serial loops, dot products in double, one rounding per element (seed 000 GEMM C=AB: Simple C Code)", true}, FULL, REFERENCE_MAX_MACS, supports_any, no_workspace, cpu::run_reference},
    {{"gemm", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP over 64x128 tiles of C, 128-deep packed panels of the right operand, float accumulation (seed 001 tiling on the CPU)", true}, FULL, OPENMP_MAX_MACS, supports_any, no_workspace, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"gemm", "naive", 2, CUDA, TAUGHT, "one thread per element of C, A and B read from global memory in the k loop (seed 000 GEMM C=AB Naive; seed 001 base kernel)", true}, FULL, SLOW_RUNG_MAX_MACS, is_ab_nn, no_workspace, run_naive},
    {{"gemm", "simple_blocked", 3, CUDA, TAUGHT, "w x w blocks, a warp per row of the C tile: A read as one broadcast word per warp, wasting 7/8 of each sector (seed 000 Simple Blocked; Best Practices 9.2.3.2)", true}, FULL, SLOW_RUNG_MAX_MACS, is_ab_nn, no_workspace, run_simple_blocked},
    {{"gemm", "shared_a_syncwarp", 4, CUDA, TAUGHT, "each warp stages its row of the A tile in shared memory (coalesced), ordered by __syncwarp only (seed 000 Tiling shared memory for A; Best Practices 9.2.3.2)", true}, FULL, SLOW_RUNG_MAX_MACS, is_ab_nn, no_workspace, run_shared_a_syncwarp},
    {{"gemm", "tiled_16", 5, CUDA, TAUGHT, "A and B tiles in shared memory, TILE_WIDTH 16, zero-fill on load, guarded store (seed 000 Tiling shared memory, handle boundary; seed 001)", true}, FULL, 0, is_ab_nn, no_workspace, run_tiled_16},
    {{"gemm", "tiled_32", 5, CUDA, TAUGHT, "A and B tiles in shared memory, TILE_WIDTH 32: 32 flops per float loaded (seed 000 Tiling shared memory; seed 001 tile-size arithmetic)", true}, FULL, 0, is_ab_nn, no_workspace, run_tiled_32},
    {{"gemm", "double_buffered", 6, CUDA, TAUGHT, "two pairs of 32x32 tiles: next tiles' loads in flight during the multiply-adds, one barrier per tile (seed 000 double buffer)", true}, FULL, 0, is_ab_nn, no_workspace, run_double_buffered},
    {{"gemm", "rect_tiles_s8", 7, CUDA, TAUGHT, "16x16 output tile, 16xS / Sx16 input tiles with S = 8: twice the barriers, idle loaders (seed 000 Tiling block dim)", true}, FULL, 0, is_ab_nn, no_workspace, run_rect_tiles_s8},
    {{"gemm", "rect_tiles_s32", 7, CUDA, TAUGHT, "16x16 output tile, S = 32 deep input tiles: half the barriers per flop, 2+2 loads in flight per thread (seed 000 Tiling block dim)", true}, FULL, 0, is_ab_nn, no_workspace, run_rect_tiles_s32},
    {{"gemm", "rect_tiles_s64", 7, CUDA, TAUGHT, "16x16 output tile, S = 64 deep input tiles: a quarter of the barriers, 4+4 loads in flight (seed 000 Tiling block dim)", true}, FULL, 0, is_ab_nn, no_workspace, run_rect_tiles_s64},
    {{"gemm", "joint_register", 8, CUDA, TAUGHT, "Volkov-Demmel T=64, U=16, S=4: B in registers (coalesced in row-major), A slab in shared memory read as LDS.128 broadcasts, 16 outputs per thread (seed 000 Joint register and shared memory tiling)", true}, FULL, 0, is_ab_nn, no_workspace, run_joint_register},
    {{"gemm", "thread_coarsened", 9, CUDA, TAUGHT, "8x8 outputs per thread from register fragments, 128x128x8 block tiles, A transposed in shared memory, 16-byte loads: 4 FFMA per shared word (seed 000 Thread coarsening)", true}, FULL, 0, is_ab_nn, no_workspace, run_thread_coarsened},
    {{"gemm", "warp_tiled", 10, CUDA, PRODUCT, "tessera: warp tiles of 8x8 (4x8) micro-tiles, LDS.128 conflict-free fragments, 3-stage cp.async pipeline, grouped block order for L2, unguarded interior copies and serpentine multiply-adds on 128x128 tiles; op(A), op(B) = N or T read in place; tile configuration and deterministic split-k chosen by shape (policy.hpp)", true}, FULL, 0, is_ab, warp_tiled_workspace_bytes, run_warp_tiled},
    {{"gemm", "cublas_sgemm", 11, CUDA, VENDOR, "cublasSgemm, FP32 math (CUBLAS_DEFAULT_MATH, no tensor cores), row-major as C^T = op(B)^T op(A)^T with the same ops: the vendor baseline", true}, FULL, 0, supports_cublas_sgemm, cublas_workspace_bytes, run_cublas_sgemm},
    {{"gemm", "aat_naive", 12, CUDA, TAUGHT, "C = A*A^T, one thread per element, A^T read down rows of A: 32 rows per warp load (seed 000 GEMM C=AA^T Simple Blocked; Best Practices 9.2.3.3)", true}, FULL, SLOW_RUNG_MAX_MACS, is_aat, no_workspace, run_aat_naive},
    {{"gemm", "aat_transposed_tile", 13, CUDA, TAUGHT, "C = A*A^T, coalesced loads, A^T tile stored transposed in shared memory: 32-way bank conflicts on the store (seed 000 GEMM C=AA^T Tiling shared memory; Best Practices 9.2.3.3)", true}, FULL, 0, is_aat, no_workspace, run_aat_transposed_tile},
    {{"gemm", "aat_padded_tile", 14, CUDA, TAUGHT, "C = A*A^T, transposed tile padded to TILE+1 columns: no bank conflicts (seed 000 GEMM C=AA^T Avoid shared memory bank conflict)", true}, FULL, 0, is_aat, no_workspace, run_aat_padded_tile},
    {{"gemm", "aat_warp_tiled", 15, CUDA, PRODUCT, "tessera: the warp_tiled kernel with A's rows as both operands, tiles on and below the diagonal only, mirrored float4 stores: half the work, exactly symmetric", true}, FULL, 0, is_aat, no_workspace, run_aat_warp_tiled},
    {{"gemm", "cublas_ssyrk", 16, CUDA, VENDOR, "cublasSsyrk, FP32 math: writes the lower triangle only (compared there; the API mirrors it): the A*A^T vendor baseline", true}, Fill::lower, 0, supports_cublas_ssyrk, cublas_workspace_bytes, run_cublas_ssyrk},
#endif
};

}  // namespace

std::string_view to_string(GemmOp op) noexcept { return op == GemmOp::ab ? "ab" : "aat"; }

ladder::Ladder<GemmVariant>& variants_ladder() {
  static ladder::Ladder<GemmVariant> ladder{std::span<const GemmVariant>(kTable)};
  return ladder;
}

}  // namespace tessera::gemm_impl
