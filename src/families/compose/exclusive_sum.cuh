// The device-wide exclusive sum the compositions are built on (seed 003:
// "Scan – compute index"): flags -> indices, tile counts -> tile offsets.
// It is tessera's own single-pass look-back scan (scan_impl::exclusive_sum,
// families/scan/contract.hpp), typed here so that call sites stay generic in the
// index type: uint32 while n < 2^32, int64 beyond.
//
// Contract: out[i] = in[0] + ... + in[i-1] (out[0] = 0) for i < n; `workspace`
// holds exclusive_sum_workspace<I>(n) bytes; enqueued on `stream`, no
// allocation, no host synchronisation.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "families/scan/contract.hpp"

namespace tessera::gpu {

template <class I>
constexpr Dtype index_dtype() {
  static_assert(std::is_same_v<I, std::uint32_t> || std::is_same_v<I, std::int64_t>,
                "tessera's exclusive sum takes uint32 or int64");
  return std::is_same_v<I, std::uint32_t> ? Dtype::u32 : Dtype::i64;
}

template <class I>
std::size_t exclusive_sum_workspace(std::size_t n) {
  return n == 0 ? 0 : scan_impl::exclusive_sum_workspace_bytes(index_dtype<I>(), n);
}

template <class I>
void exclusive_sum(const I* in, I* out, std::size_t n, void* workspace, std::size_t workspace_bytes,
                   cudaStream_t stream) {
  if (n == 0) return;
  scan_impl::exclusive_sum(in, out, n, nullptr, workspace, workspace_bytes, stream);
}

}  // namespace tessera::gpu
