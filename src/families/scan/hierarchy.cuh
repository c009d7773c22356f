// The hierarchical scan of seed 000 ("Hierarchical scan": kernel 1 scans each
// section and records its total in S, kernel 2 scans S, kernel 3 adds
// S[b - 1] to every element of section b), recursive so that any n works: S
// is scanned by the same three steps when it has more than one section.
//
// Step 7 is this driver as a rung of its own; steps 2-6 are block-level
// algorithms and become full-array scans by running inside it. A SectionRung
// provides
//   static constexpr std::size_t SECTION;   // elements per block, a power of two
//   template <class S> static void launch(const typename S::in_t* in, typename S::out_t* out,
//                                         std::size_t n, typename S::acc_t* sums, bool exclusive,
//                                         unsigned blocks, cudaStream_t stream);
//     block b scans section b, [b * SECTION, min(n, (b + 1) * SECTION)), of `in`
//     into `out` as if it were the whole array (in == out allowed: a block
//     reads its section before writing it), and stores the section's total
//     state in sums[b] when sums is not null.
//
// Level 0 scans the elements (ScanOf<R>, inclusive or exclusive); the levels
// above scan acc_t states (states_scan_t<R>), always inclusive. The add-back
// combines the state of the section prefix with the element's local output
// lifted back to a state: out = output(combine(S[b - 1], lift(out))). For
// float sums with a wider accumulator that local output has been rounded to
// float once (the tolerance in families/scan/problem.cpp allows it);
// the single-pass rungs (8, 9) never round an intermediate.
//
// Workspace: one acc_t array per level with more than one section
// (256-byte aligned each): b0 = ceil(n / SECTION), b1 = ceil(b0 / SECTION), ...
// Everything is enqueued on the call's stream: no allocation, no sync.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "tessera/blocks/scan_ops.hpp"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/multipass.cuh"
#include "families/scan/contract.hpp"
#include "tessera/core/error.hpp"

namespace tessera::scan_impl {

// Threads of the add-back kernel; each handles SECTION / ADD_THREADS elements
// of one section, so the prefix is read once per block.
constexpr int ADD_THREADS = 256;

// out[i] = output(combine(prefix[b - 1], lift(out[i]))) for every element of
// section b = blockIdx.x + 1 (section 0 has nothing before it).
template <class S, std::size_t SECTION>
__global__ __launch_bounds__(ADD_THREADS) void scan_add_prefix_kernel(typename S::out_t* out, std::size_t n,
                                                                      const typename S::acc_t* prefix, S f) {
  const std::size_t section = static_cast<std::size_t>(blockIdx.x) + 1;
  const typename S::acc_t p = prefix[section - 1];
  const std::size_t begin = section * SECTION;
  const std::size_t end = begin + SECTION < n ? begin + SECTION : n;
  for (std::size_t i = begin + threadIdx.x; i < end; i += ADD_THREADS) out[i] = f.output(f.combine(p, f.lift(out[i])));
}

template <class Rung>
struct Hierarchy {
  static constexpr std::size_t SECTION = Rung::SECTION;
  static_assert(SECTION >= 2 && (SECTION & (SECTION - 1)) == 0, "SECTION: a power of two");

  static constexpr std::size_t sections(std::size_t n) { return (n + SECTION - 1) / SECTION; }

  // Bytes of the per-level section totals for n elements of acc_bytes states.
  static std::size_t workspace_bytes(std::size_t n, std::size_t acc_bytes) {
    std::size_t bytes = 0;
    for (std::size_t b = sections(n); b > 1; b = sections(b)) bytes += gpu::align_workspace(b * acc_bytes);
    return bytes;
  }

  template <class S>
  static void add_prefix(typename S::out_t* out, std::size_t n, const typename S::acc_t* prefix, std::size_t blocks,
                         cudaStream_t stream) {
    detail::launch("scan_add_prefix_kernel", scan_add_prefix_kernel<S, SECTION>,
                   dim3(gpu::checked_grid(blocks - 1, "scan_add_prefix_kernel", n)), dim3(ADD_THREADS), 0, stream, n,
                   out, n, prefix, S{});
  }

  // Inclusive scan, in place, of m states at `data`; `ws` has room for the
  // levels above.
  template <class R>
  static void scan_states(typename R::acc_t* data, std::size_t m, unsigned char* ws, cudaStream_t stream) {
    using SP = states_scan_t<R>;
    const std::size_t blocks = sections(m);
    const unsigned grid = gpu::checked_grid(blocks, "scan section kernel (totals)", m);
    if (blocks == 1) {
      Rung::template launch<SP>(data, data, m, nullptr, false, grid, stream);
      return;
    }
    auto* sums = reinterpret_cast<typename R::acc_t*>(ws);
    Rung::template launch<SP>(data, data, m, sums, false, grid, stream);
    scan_states<R>(sums, blocks, ws + gpu::align_workspace(blocks * sizeof(typename R::acc_t)), stream);
    add_prefix<SP>(data, m, sums, blocks, stream);
  }

  template <class R>
  static void run(const ScanCall& call) {
    using S = ScanOf<R>;
    const std::size_t n = call.spec.n;
    if (n == 0) return;
    const auto* in = static_cast<const typename S::in_t*>(call.in);
    auto* out = static_cast<typename S::out_t*>(call.out);
    const std::size_t blocks = sections(n);
    const unsigned grid = gpu::checked_grid(blocks, "scan section kernel", n);
    if (blocks == 1) {
      Rung::template launch<S>(in, out, n, nullptr, call.spec.exclusive, grid, call.stream);
      return;
    }
    auto* ws = static_cast<unsigned char*>(call.workspace);
    auto* sums = reinterpret_cast<typename R::acc_t*>(ws);
    Rung::template launch<S>(in, out, n, sums, call.spec.exclusive, grid, call.stream);
    scan_states<R>(sums, blocks, ws + gpu::align_workspace(blocks * sizeof(typename R::acc_t)), call.stream);
    add_prefix<S>(out, n, sums, blocks, call.stream);
  }
};

// ---- what every scan rung's run / ws / supports functions share -----------

[[noreturn]] inline void throw_unsupported(const char* variant, const ScanSpec& spec) {
  throw Error(std::string("scan variant '") + variant + "' does not support dtype " +
              std::string(to_string(spec.dtype)) + ", op " + std::string(to_string(spec.op)) + ", accum " +
              std::string(to_string(spec.accum)));
}

// f.template operator()<R>() for the spec's reducer, or Error.
template <class F>
void dispatch_scan_or_throw(const char* variant, const ScanSpec& spec, F&& f) {
  if (!dispatch_scan(spec.dtype, spec.op, spec.accum, std::forward<F>(f))) throw_unsupported(variant, spec);
}

// The seed rungs (steps 2-8) are compiled for a subset of the combinations,
// to keep the build short (each rung is a few kernels per reducer): float sum
// (float or double accumulator), float min and max, double sum, int32 /
// uint32 / int64 sums. That covers every algorithmic case (4- and 8-byte
// states, a state wider than the element, a non-sum operator); step 9 and the
// vendor baseline take every combination. Returns false for the others.
template <class F>
bool dispatch_seed_scan(const ScanSpec& s, F&& f) {
  const bool native = s.accum == Accum::native;
  switch (s.dtype) {
    case Dtype::f32:
      if (s.op == Op::sum && native) f.template operator()<PlainSum<float, float>>();
      else if (s.op == Op::sum && s.accum == Accum::f64) f.template operator()<PlainSum<float, double>>();
      else if (s.op == Op::min && native) f.template operator()<MinOp<float>>();
      else if (s.op == Op::max && native) f.template operator()<MaxOp<float>>();
      else return false;
      return true;
    case Dtype::f64:
      if (s.op != Op::sum || !(native || s.accum == Accum::f64)) return false;
      f.template operator()<PlainSum<double, double>>();
      return true;
    case Dtype::i32:
    case Dtype::u32:
      if (s.op != Op::sum || !native) return false;
      f.template operator()<WrapSum<std::uint32_t>>();
      return true;
    case Dtype::i64:
      if (s.op != Op::sum || !native) return false;
      f.template operator()<WrapSum<std::uint64_t>>();
      return true;
    default: return false;
  }
}

inline bool seed_spec_supported(const ScanSpec& spec) { return dispatch_seed_scan(spec, IgnoreScanReducer{}); }

template <class F>
void dispatch_seed_or_throw(const char* variant, const ScanSpec& spec, F&& f) {
  if (!dispatch_seed_scan(spec, std::forward<F>(f))) throw_unsupported(variant, spec);
}

// sizeof(acc_t) of the spec's reducer; 0 when there is none.
inline std::size_t scan_acc_bytes(const ScanSpec& spec) {
  std::size_t bytes = 0;
  dispatch_scan(spec.dtype, spec.op, spec.accum, [&]<class R>() { bytes = sizeof(typename R::acc_t); });
  return bytes;
}

inline bool scan_spec_supported(const ScanSpec& spec) { return scan_supported(spec.dtype, spec.op, spec.accum); }

template <class Rung>
void run_in_hierarchy(const char* variant, const ScanCall& call) {
  dispatch_seed_or_throw(variant, call.spec, [&]<class R>() { Hierarchy<Rung>::template run<R>(call); });
}

template <class Rung>
std::size_t hierarchy_workspace(const ScanSpec& spec) {
  return Hierarchy<Rung>::workspace_bytes(spec.n, scan_acc_bytes(spec));
}

}  // namespace tessera::scan_impl
