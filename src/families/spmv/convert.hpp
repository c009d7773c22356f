// Format conversions on the GPU (convert.cu), from device CSR arrays into
// device plans, for the formats whose layout needs no sort: COO, ELL and
// HYB. The same layouts as formats.hpp's host conversions, byte for byte
// (tests/test_spmv_gpu.cpp compares them); JDS and the sliced formats
// sort rows by length on the GPU (convert_sorted.cu).
#pragma once

#include <memory>

#include "families/spmv/plans.hpp"

namespace tessera::spmv_impl::gpu {

// The row-length histogram, computed on the device (one pass over the
// offsets, atomics into max_length + 1 bins) and returned to the host.
formats::RowStats device_row_stats(const SpmvSpec& s, const CsrArrays& device, stream_t stream);

template <class T>
std::unique_ptr<CooPlan> device_coo(const SpmvSpec& s, const CsrArrays& device, stream_t stream);
template <class T>
std::unique_ptr<EllPlan> device_ell(const SpmvSpec& s, const CsrArrays& device, std::int64_t width, stream_t stream);
// JDS and the sliced formats (convert_sorted.cu): rows sorted by length on
// the GPU, the same arrays as formats::to_jds / to_sliced with this cut.
template <class T>
std::unique_ptr<JdsPlan> device_jds(const SpmvSpec& s, const CsrArrays& device, std::int64_t cut, stream_t stream);
template <class T>
std::unique_ptr<SlicedPlan> device_sliced(const SpmvSpec& s, const CsrArrays& device, std::int64_t height,
                                          std::int64_t window, std::int64_t cut, stream_t stream);
template <class T>
std::unique_ptr<HybPlan> device_hyb(const SpmvSpec& s, const CsrArrays& device, std::int64_t width, stream_t stream);

}  // namespace tessera::spmv_impl::gpu
