// SpMV step 8 — CSR nonzero split: tessera's load-balanced CSR. Tiles of
// TILE consecutive nonzeros, whatever rows they fall in, so every block does
// the same work and no row length can stall the grid (a 1e5-entry row is
// ~100 tiles spread over the GPU, not one thread's or one warp's loop).
//
// Per tile (one block):
//   - a first, short kernel finds every tile's first owned row by binary
//     search in the row offsets, all tiles at once (a search at the start of
//     each tile would put ~24 dependent loads before its first useful one):
//     a tile owns the rows whose end lies in (begin, end] (tile 0 also the
//     leading empty rows), so every row, empty ones included, is owned by
//     exactly one tile (nnz_split.hpp);
//   - the tile's products val[k] * x[col[k]] go to shared memory, values and
//     columns read with 16-byte vector loads marked streaming (__ldcs: read
//     once, they should not evict x from L2) and x through the read-only
//     path (__ldg);
//   - each owned row's part of the tile (a segment) is summed by one thread
//     when it has at most SHORT_SEGMENT entries, by one or more warps (lanes
//     strided, xor tree, pieces added in order) otherwise; so is the tile's
//     tail, the part of the next row that goes on past the tile (its carry);
//   - an owned row that began before the tile leaves its part in `head`; a
//     second kernel adds to it the carries of the tiles it crossed, nearest
//     first, and writes y.
// Deterministic: every sum has a fixed order (in the tile by position, the
// carries by tile), so the same bits come out every run. Bytes: values and
// columns once, row offsets once (plus a binary search a tile, cached), x,
// y once, and 2 values + 2 indices a tile of workspace (~1% at TILE 1024).
// Expected: the bandwidth of its bytes on every matrix shape.
#include <cstdint>

#include "families/spmv/cuda_rungs.hpp"
#include "families/spmv/nnz_split_kernels.cuh"

namespace tessera::spmv_impl {

void run_csr_nnz_split(const SpmvCall& c) {
  if (c.spec.rows == 0) return;
  gpu::dispatch_value(c.spec.dtype, "csr_nnz_split", [&]<class T>() {
    nnz_split_gpu::launch_nnz_split<T>(c.spec.rows, c.spec.nnz, c.a.row_offsets, c.a.col_indices,
                                       static_cast<const T*>(c.a.values),
                                       nnz_split_gpu::PlainX<T>{static_cast<const T*>(c.x)}, static_cast<T*>(c.y),
                                       T(c.alpha), T(c.beta), c.workspace, static_cast<cudaStream_t>(c.stream));
  });
}
std::size_t ws_csr_nnz_split(const SpmvSpec& s) {
  return nnz_split_gpu::cut_bytes(nnz_split::tiles_of(s.nnz), value_bytes(s.dtype));
}
bool supports_csr_nnz_split(const SpmvSpec& s) { return gpu::csr_supports(s); }

}  // namespace tessera::spmv_impl
