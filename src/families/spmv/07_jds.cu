// SpMV step 7 — JDS: rows sorted by decreasing length, the permutation kept
// (seed 000 SpMV, "JDS"), in two storages:
//
//   jds               transposed, unpadded (the seed's "JDS + CSR +
//                     Transpose"): entry k of every sorted row that has one,
//                     contiguous (jagged diagonal k). Thread i takes sorted
//                     row i: neighbours have similar lengths (little
//                     divergence) and read consecutive addresses (coalesced),
//                     with no padding at all. y is written through the
//                     permutation (scattered).
//   jds_ell_sections  the sorted rows cut into sections of SECTION_ROWS (256),
//                     each an ELL padded only to its own longest row (the
//                     seed's "Hybrid JDS + ELL"). One launch covers every
//                     section (the seed launches one kernel per section; a
//                     slice table does the same without the launches).
// Expected: near CSR-vector on stencils (sorting changes little), better
// than ELL on power-law matrices; the global sort scatters y. Rows past the
// cut (formats::long_row_cut: 4x the mean, at least 128) are not in the
// format: long_rows.cuh sums them, a warp (or a block) per row, in the same
// run, so no row length serialises on one thread (the power law's rows past
// 1e5 took 56 ms and 222 ms that way).
#include "families/spmv/cuda_rungs.hpp"
#include "families/spmv/long_rows.cuh"
#include "families/spmv/sliced.cuh"

namespace tessera::spmv_impl {

namespace {

template <class T>
__global__ __launch_bounds__(gpu::BLOCK_THREADS) void jds_kernel(gpu::JdsView j, const T* __restrict__ x,
                                                                 T* __restrict__ y, T alpha, T beta) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= j.rows) return;
  const T* __restrict__ val = static_cast<const T*>(j.val);
  const std::int32_t len = j.length[i];
  T sum = 0;
  for (std::int32_t k = 0; k < len; ++k) {
    const std::int64_t at = j.diag_offsets[k] + i;
    sum += val[at] * gpu::load_x(x, j.col[at]);
  }
  gpu::write_row(y, j.perm[i], sum, alpha, beta);
}

}  // namespace

void run_jds(const SpmvCall& c) {
  const auto& plan = gpu::plan_of<gpu::JdsPlan>(c, "jds");
  const std::int64_t rows = plan.view.rows;  // the rows up to the cut
  gpu::dispatch_value(c.spec.dtype, "jds", [&]<class T>() {
    if (rows > 0)
      detail::launch("spmv_jds_kernel", jds_kernel<T>, dim3(gpu::blocks_for(rows, gpu::BLOCK_THREADS)),
                     dim3(gpu::BLOCK_THREADS), 0, c.stream, std::size_t(rows), plan.view,
                     static_cast<const T*>(c.x), static_cast<T*>(c.y), T(c.alpha), T(c.beta));
    gpu::launch_long_rows<T>(plan.long_rows.view, c);
  });
}
std::size_t ws_jds(const SpmvSpec&) { return 0; }
bool supports_jds(const SpmvSpec& s) { return gpu::format_supports(s); }

void run_jds_ell_sections(const SpmvCall& c) {
  const auto& plan = gpu::plan_of<gpu::SlicedPlan>(c, "jds_ell_sections");
  gpu::dispatch_value(c.spec.dtype, "jds_ell_sections", [&]<class T>() {
    gpu::launch_sliced<T>(plan.view, c);
    gpu::launch_long_rows<T>(plan.long_rows.view, c);
  });
}
std::size_t ws_jds_ell_sections(const SpmvSpec&) { return 0; }
bool supports_jds_ell_sections(const SpmvSpec& s) { return gpu::format_supports(s); }
}  // namespace tessera::spmv_impl
