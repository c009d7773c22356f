// Host helpers shared by the step-9 variant files (09_lookback.cu,
// 09_lookback_early.cu): which specs the tuned look-back policies take, and
// a policy's workspace size for a spec.
#pragma once

#include <cstddef>

#include "families/scan/hierarchy.cuh"
#include "tessera/blocks/lookback_tile.cuh"

namespace tessera::scan_impl {

// The tuned policies: 4-byte elements with the native accumulator (float,
// int32, uint32; sum, min, max), to bound compile time.
inline bool four_byte_native(const ScanSpec& spec) {
  return (spec.dtype == Dtype::f32 || spec.dtype == Dtype::i32 || spec.dtype == Dtype::u32) &&
         spec.accum == Accum::native && scan_spec_supported(spec);
}

// LookbackScan<P, ScanOf<R>>::workspace_bytes(n) for the spec's R.
template <class P>
std::size_t lookback_workspace(const ScanSpec& spec) {
  std::size_t bytes = 0;
  dispatch_scan(spec.dtype, spec.op, spec.accum,
                [&]<class R>() { bytes = gpu::LookbackScan<P, ScanOf<R>>::workspace_bytes(spec.n); });
  return bytes;
}

}  // namespace tessera::scan_impl
