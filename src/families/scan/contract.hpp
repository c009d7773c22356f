// The scan pattern's internal contract: what one call carries, what one
// registered variant provides, and the device-wide exclusive sum that other
// patterns (compaction, select, unique, run-length encode) build on.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ladder/ladder.hpp"
#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::scan_impl {

// What is being scanned (everything but the data).
struct ScanSpec {
  Dtype dtype;     // float, double, int32, int64, uint32
  Op op;           // sum, min, max
  Accum accum;     // float sums: native, double, kahan, dfloat
  bool exclusive;  // exclusive: out[i] combines in[0 .. i-1], out[0] is the identity
  std::size_t n;
};

// One call. `in` and `out` are device pointers for CUDA variants and host
// pointers for CPU variants, n elements of `dtype` each; in == out scans in
// place (every variant supports it); other overlaps are rejected by the API.
// `workspace` holds workspace_bytes(spec) bytes of the same memory kind,
// 256-byte aligned, contents undefined on entry. A CUDA run only enqueues work
// on `stream`: no allocation, no host synchronisation (graph-capturable).
struct ScanCall {
  ScanSpec spec;
  const void* in;
  void* out;
  void* workspace;
  stream_t stream;
};

struct ScanVariant {
  VariantInfo info;
  bool (*supports)(const ScanSpec&);
  std::size_t (*workspace_bytes)(const ScanSpec&);
  void (*run)(const ScanCall&);
};

// The ladder (ladder.cpp's one table, in step order): all(), find(name),
// at(name, who). The lab build adds its tuning rows to it (lab/scan/).
ladder::Ladder<ScanVariant>& variants_ladder();

// ---- device-wide exclusive sum for other patterns (CUDA builds only) -------
//
// tessera's single-pass decoupled look-back scan (the kernel of 09_lookback.cu,
// tessera/blocks/lookback_tile.cuh, which any element width fits), as a plain
// entry point for patterns that turn flags or counts into output offsets:
//
//   const std::size_t ws = scan_impl::exclusive_sum_workspace_bytes(Dtype::u32, n);
//   // ... allocate ws bytes of device memory (cudaMalloc alignment) ...
//   scan_impl::exclusive_sum(d_flags, d_offsets, n, d_count, d_ws, ws, stream);
//
// out[i] = in[0] + ... + in[i-1] (out[0] = 0), wrapping modulo 2^32 (uint32)
// or 2^64 (int64, two's complement). `total`, when not null, receives
// in[0] + ... + in[n-1] as one device element (for compaction: the number of
// kept elements). n == 0 writes only *total = 0. in == out is allowed (in
// place); other overlaps are not. Any element pointer alignment works (16-byte
// vector accesses where in and out allow them). Only enqueues work on
// `stream` (one cudaMemsetAsync of the workspace head, one kernel): no
// allocation, no synchronisation, graph-capturable. The workspace contents are
// undefined on entry and garbage afterwards; its size depends only on (type,
// n). Throws tessera::Error for another type, a null pointer with n > 0, or a
// workspace that is too small (workspace_bytes names the size).
std::size_t exclusive_sum_workspace_bytes(Dtype type, std::size_t n);  // type: Dtype::u32 or Dtype::i64
void exclusive_sum(const std::uint32_t* in, std::uint32_t* out, std::size_t n, std::uint32_t* total,
                   void* workspace, std::size_t workspace_bytes, stream_t stream);
void exclusive_sum(const std::int64_t* in, std::int64_t* out, std::size_t n, std::int64_t* total, void* workspace,
                   std::size_t workspace_bytes, stream_t stream);

// ---- a user operator through the public header (CUDA builds only) ----------
//
// An affine map x -> a * x + b modulo 2^32. Scanning with composition (left
// map first) is associative and not commutative: the test of
// tessera::scan_with (include/tessera/scan.cuh), instantiated in
// user_op_check.cu so that the plain C++ GPU tests can call it. Throws what
// scan_with throws.
struct Affine32 {
  std::uint32_t a, b;
};
std::size_t affine_scan_workspace_bytes(std::size_t n);
void affine_scan(const Affine32* in, std::size_t n, Affine32* out, bool exclusive, Workspace workspace,
                 stream_t stream);

}  // namespace tessera::scan_impl
