// The spmv ladder: one row per variant, the only place a variant's name,
// step, role and `adds` are written. CPU rungs in every build; the CUDA rungs
// and the vendor baseline in CUDA builds (their run / workspace / supports /
// prepare functions: cuda_rungs.hpp). The lab adds no rows to this family.
#include "families/spmv/contract.hpp"
#include "families/spmv/cpu_rungs.hpp"
#include "ladder/ladder.hpp"

#if TESSERA_HAVE_CUDA
#include "families/spmv/cuda_rungs.hpp"
#endif

namespace tessera::spmv_impl {

using namespace ladder::roles;

namespace {

bool supports_values(const SpmvSpec& s) { return s.dtype == Dtype::f32 || s.dtype == Dtype::f64; }
std::size_t no_workspace(const SpmvSpec&) { return 0; }

// A CSR rung: nothing to prepare. A format rung: its prepare_X.
#define TESSERA_RUNG(name) supports_##name, ws_##name, nullptr, run_##name
#define TESSERA_FORMAT_RUNG(name) supports_##name, ws_##name, prepare_##name, run_##name

const SpmvVariant kLadder[] = {
    {{"spmv", "cpu_reference", 0, CPU, REFERENCE, "serial loop over CSR rows, each row's sum in double (float) or long double (double), rounded once (seed 000 SpMV: CSR)", true}, supports_values, no_workspace, nullptr, cpu::run_reference},
    {{"spmv", "cpu_openmp", 1, CPU, REFERENCE, "OpenMP over rows, dynamic chunks of 1024 rows so long rows do not unbalance threads; sums in the value type", true}, supports_values, no_workspace, nullptr, cpu::run_openmp},
#if TESSERA_HAVE_CUDA
    {{"spmv", "csr_scalar", 2, CUDA, TAUGHT, "a thread per CSR row: uncoalesced loads, a warp as slow as its longest row (seed 000 SpMV: CSR)", true}, TESSERA_RUNG(csr_scalar)},
    {{"spmv", "csr_vector", 3, CUDA, TAUGHT, "a group of 2-32 lanes per row sized from the mean row length: coalesced row reads, shuffle-reduced (CSR-vector)", true}, TESSERA_RUNG(csr_vector)},
    {{"spmv", "ell", 4, CUDA, TAUGHT, "rows padded to the longest, stored column-major: coalesced with a thread per row, no offsets; padding bytes (seed 000 SpMV: ELL)", true}, TESSERA_FORMAT_RUNG(ell)},
    {{"spmv", "coo_atomic", 5, CUDA, TAUGHT, "a thread per nonzero of (row, col, value) triples, atomicAdd into y: balanced whatever the rows (seed 000 SpMV: COO)", false}, TESSERA_FORMAT_RUNG(coo_atomic)},
    {{"spmv", "coo_segmented", 5, CUDA, TAUGHT, "COO tiles, segments of equal rows summed in shared memory, cut rows fixed up in tile order: no atomics, deterministic", true}, TESSERA_FORMAT_RUNG(coo_segmented)},
    {{"spmv", "hyb", 6, CUDA, TAUGHT, "ELL up to a width chosen from the row-length histogram, COO (atomics) for the long rows' tails, both on the GPU (seed 000 SpMV: hybrid ELL + COO)", false}, TESSERA_FORMAT_RUNG(hyb)},
    {{"spmv", "jds", 7, CUDA, TAUGHT, "rows sorted by length, permutation kept, jagged diagonals stored transposed: little divergence, coalesced, no padding (seed 000 SpMV: JDS)", true}, TESSERA_FORMAT_RUNG(jds)},
    {{"spmv", "jds_ell_sections", 7, CUDA, TAUGHT, "JDS-sorted rows in sections of 256, each an ELL padded to its own longest row, one launch (seed 000 SpMV: hybrid JDS + ELL)", true}, TESSERA_FORMAT_RUNG(jds_ell_sections)},
    {{"spmv", "csr_nnz_split", 8, CUDA, PRODUCT, "CSR in tiles of 1024 nonzeros whatever the rows: binary-searched row ownership, 16-byte streaming loads, x via __ldg, short rows per thread and long per warp, cut rows fixed up in order: balanced, deterministic", true}, TESSERA_RUNG(csr_nnz_split)},
    {{"spmv", "csr_subwarp_vec4", 8, CUDA, PRODUCT, "a group of 2-32 lanes per row (mean / 4 + 1), each lane 4 consecutive entries per 16-byte load from the row's 4-aligned start, masked; a 3-step tree for 8 lanes: regular rows of ~10-60 entries (the 27-point stencil) without a format", true}, TESSERA_RUNG(csr_subwarp_vec4)},
    {{"spmv", "csr_scalar_guarded", 8, CUDA, PRODUCT, "csr_scalar's thread per row up to 32 entries, each longer row summed by its whole block after the short ones (one barrier when none is): thread-per-row speed on short regular rows, no row can stall it; deterministic", true}, TESSERA_RUNG(csr_scalar_guarded)},
    {{"spmv", "sell_c_sigma", 8, CUDA, PRODUCT, "SELL-C-sigma: warp-high slices (C = 32) of rows sorted by length in windows of 1024, each padded to its own longest row", true}, TESSERA_FORMAT_RUNG(sell_c_sigma)},
    {{"spmv", "cusparse_spmv", 9, CUDA, VENDOR, "cusparseSpMV on the CSR matrix, CUSPARSE_SPMV_ALG_DEFAULT (vendor baseline; descriptor, buffer and 32-bit offsets prepared outside timing; bit-reproducibility is promised for CSR_ALG2 only)", false}, TESSERA_FORMAT_RUNG(cusparse_spmv)},
#endif
};

#undef TESSERA_RUNG
#undef TESSERA_FORMAT_RUNG

}  // namespace

ladder::Ladder<SpmvVariant>& variants_ladder() {
  static ladder::Ladder<SpmvVariant> ladder{kLadder};
  return ladder;
}

}  // namespace tessera::spmv_impl
