// The sliced-ELL kernel shared by jds_ell_sections (07_jds.cu: a global sort,
// large sections) and sell_c_sigma (08_sell_c_sigma.cu: warp-high slices,
// a local sort window): one thread per sorted row, entry k of row `lane` of
// slice s at slice_offsets[s] + k * height + lane, so a warp's loads of one
// step are consecutive; each slice runs only as long as its own longest row.
#pragma once

#include "families/spmv/common.cuh"

namespace tessera::spmv_impl::gpu {

template <class T>
__global__ __launch_bounds__(BLOCK_THREADS) void sliced_kernel(SlicedView s, const T* __restrict__ x,
                                                               T* __restrict__ y, T alpha, T beta) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= s.rows) return;
  const std::int64_t slice = i / s.height, lane = i % s.height;
  const std::int64_t base = s.slice_offsets[slice] + lane;
  const std::int32_t width = s.slice_width[slice];
  const T* __restrict__ val = static_cast<const T*>(s.val);
  T sum = 0;
  for (std::int32_t k = 0; k < width; ++k) {
    const std::int64_t at = base + std::int64_t(k) * s.height;
    const std::int32_t c = s.col[at];
    if (c < 0) break;  // padding: the rest of this row is padding too
    sum += val[at] * load_x(x, c);
  }
  write_row(y, s.perm[i], sum, alpha, beta);
}

template <class T>
void launch_sliced(const SlicedView& s, const SpmvCall& c) {
  if (s.rows == 0) return;
  detail::launch("spmv_sliced_kernel", sliced_kernel<T>, dim3(blocks_for(s.rows, BLOCK_THREADS)),
                 dim3(BLOCK_THREADS), 0, c.stream, std::size_t(s.rows), s, static_cast<const T*>(c.x),
                 static_cast<T*>(c.y), T(c.alpha), T(c.beta));
}

}  // namespace tessera::spmv_impl::gpu
