// The three-phase section scan of seed 000 ("Algorithm cascading:
// three-phase"), shared by steps 5-8. A block scans a section of THREADS x
// ITEMS elements, more than it has threads:
//   load   corner turning: thread t loads elements t, t + THREADS, ... of the
//          section (coalesced) into shared memory;
//   phase 1  thread t scans its own ITEMS consecutive elements serially, in
//          registers (shared-memory reads padded one slot per 32 against bank
//          conflicts);
//   phase 2  the THREADS thread totals are scanned across the block: with the
//          double-buffered Kogge-Stone of step 3 in shared memory (step 5), or
//          with warp shuffles and one level of warp totals (step 6 on,
//          tessera/blocks/block_scan.cuh);
//   phase 3  each thread adds the prefix of the threads before it to its
//          elements, and the section goes back through shared memory to
//          coalesced stores.
// A Prefix object decides what the section's total means to the rest of the
// array: record it for the hierarchical driver (RecordTotal), combine a
// prefix computed by an earlier kernel (GivenPrefix, reduce-then-scan), or
// wait for the left neighbour's inclusive prefix (step 8's ChainedPrefix).
// Its operator() runs in thread 0 once the total is known and returns whether
// the section has a prefix; the block gets it through shared memory.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "tessera/blocks/block_scan.cuh"
#include "tessera/blocks/launch.cuh"
#include "tessera/blocks/lookback.cuh"

namespace tessera::scan_impl {

enum class Phase2 { kogge_stone, warp_shuffle };

template <int THREADS_, int ITEMS_, Phase2 PHASE2_, bool STORE_ = true>
struct SectionConfig {
  static constexpr int THREADS = THREADS_;
  static constexpr int ITEMS = ITEMS_;     // elements per thread (the thread-serial subsection)
  static constexpr Phase2 PHASE2 = PHASE2_;
  static constexpr bool STORE = STORE_;    // false: only the section total (reduce-then-scan pass 1)
  static constexpr std::size_t SECTION = static_cast<std::size_t>(THREADS) * ITEMS;
  static_assert(gpu::valid_scan_block<THREADS>, "THREADS: whole warps, at most 1024");
  static_assert(ITEMS >= 1 && ITEMS <= 32, "ITEMS: 1..32 elements per thread");
};

// Shared-memory slot of section element i: one padding slot per 32, so that
// thread t reading element t * ITEMS + j hits a different bank than its
// neighbours.
__device__ __forceinline__ unsigned padded(unsigned i) { return i + (i >> 5); }

// ---- prefix policies -------------------------------------------------------

// Hierarchical kernel 1: the section's total goes to sums[section]; no prefix.
template <class acc_t>
struct RecordTotal {
  acc_t* sums;  // may be null (a single section)
  __device__ unsigned section_index(unsigned&) const { return blockIdx.x; }
  template <class S>
  __device__ bool operator()(unsigned section, const acc_t& total, acc_t&, const S&) const {
    if (sums != nullptr) sums[section] = total;
    return false;
  }
};

// Reduce-then-scan pass 2: section b's prefix is inclusive_sums[b - 1].
template <class acc_t>
struct GivenPrefix {
  const acc_t* inclusive_sums;
  __device__ unsigned section_index(unsigned&) const { return blockIdx.x; }
  template <class S>
  __device__ bool operator()(unsigned section, const acc_t&, acc_t& prefix, const S&) const {
    if (section == 0) return false;
    prefix = inclusive_sums[section - 1];
    return true;
  }
};

// ---- the section scan ------------------------------------------------------

template <class S, class Cfg, class Prefix>
__device__ __forceinline__ void scan_section(const typename S::in_t* in, typename S::out_t* out, std::size_t n,
                                             bool exclusive, const S& f, const Prefix& prefix) {
  using in_t = typename S::in_t;
  using out_t = typename S::out_t;
  using acc_t = typename S::acc_t;
  constexpr int THREADS = Cfg::THREADS;
  constexpr int ITEMS = Cfg::ITEMS;
  constexpr unsigned SECTION = static_cast<unsigned>(Cfg::SECTION);
  constexpr std::size_t ELEM = sizeof(in_t) > sizeof(out_t) ? sizeof(in_t) : sizeof(out_t);
  constexpr int KS_SLOTS = Cfg::PHASE2 == Phase2::kogge_stone ? 2 * THREADS : THREADS / 32;

  // Raw storage (states may be user types): the section, padded, as in_t then
  // out_t; the phase-2 scratch; the section prefix.
  __shared__ alignas(16) unsigned char s_data[(SECTION + SECTION / 32) * ELEM];
  __shared__ alignas(16) unsigned char s_scratch[(KS_SLOTS + 1) * sizeof(acc_t)];
  __shared__ unsigned s_section;
  __shared__ bool s_has_prefix;
  in_t* s_in = reinterpret_cast<in_t*>(s_data);
  out_t* s_out = reinterpret_cast<out_t*>(s_data);
  acc_t* scratch = reinterpret_cast<acc_t*>(s_scratch);
  acc_t* s_prefix = scratch + KS_SLOTS;

  const unsigned tid = threadIdx.x;
  const unsigned section = prefix.section_index(s_section);  // may take a barrier (dynamic index)
  const std::size_t begin = static_cast<std::size_t>(section) * SECTION;
  const std::size_t count = n - begin < SECTION ? n - begin : SECTION;  // elements in this section

  // Load: corner turning, coalesced.
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const unsigned i = static_cast<unsigned>(k) * THREADS + tid;
    if (i < count) s_in[padded(i)] = in[begin + i];
  }
  __syncthreads();

  // Phase 1: the thread's subsection, serially.
  acc_t local[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned i = tid * ITEMS + j;
    const acc_t x = i < count ? f.lift(s_in[padded(i)]) : f.identity();
    local[j] = j == 0 ? x : f.combine(local[j - 1], x);
  }

  // Phase 2: exclusive scan of the thread totals.
  acc_t before, total;
  if constexpr (Cfg::PHASE2 == Phase2::kogge_stone) {
    // Step 3's double-buffered Kogge-Stone: one barrier per step.
    acc_t* src = scratch;
    acc_t* dst = scratch + THREADS;
    src[tid] = local[ITEMS - 1];
    __syncthreads();
#pragma unroll
    for (unsigned stride = 1; stride < THREADS; stride *= 2) {
      dst[tid] = tid >= stride ? f.combine(src[tid - stride], src[tid]) : src[tid];
      __syncthreads();
      acc_t* t = src;
      src = dst;
      dst = t;
    }
    before = tid > 0 ? src[tid - 1] : f.identity();
    total = src[THREADS - 1];
  } else {
    before = gpu::block_exclusive_scan<THREADS>(local[ITEMS - 1], f, scratch, total);
  }

  // The section's prefix from the rest of the array (thread 0), to everyone.
  if (tid == 0) {
    acc_t p;
    s_has_prefix = prefix(section, total, p, f);
    if (s_has_prefix) *s_prefix = p;
  }
  __syncthreads();
  if constexpr (!Cfg::STORE) return;

  // Phase 3: add back, then coalesced stores through shared memory (the
  // barrier above ordered every read of s_in before these writes).
  if (s_has_prefix) before = tid > 0 ? f.combine(*s_prefix, before) : *s_prefix;
  const bool has_before = s_has_prefix || tid > 0;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const unsigned i = tid * ITEMS + j;
    if (i >= count) break;
    acc_t y;
    if (exclusive) y = j == 0 ? before : (has_before ? f.combine(before, local[j - 1]) : local[j - 1]);
    else y = has_before ? f.combine(before, local[j]) : local[j];
    if (exclusive && j == 0 && !has_before) y = f.identity();
    s_out[padded(i)] = f.output(y);
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const unsigned i = static_cast<unsigned>(k) * THREADS + tid;
    if (i < count) out[begin + i] = s_out[padded(i)];
  }
}

template <class S, class Cfg, class Prefix>
__global__ __launch_bounds__(Cfg::THREADS) void scan_section_kernel(const typename S::in_t* in,
                                                                    typename S::out_t* out, std::size_t n,
                                                                    bool exclusive, Prefix prefix, S f) {
  scan_section<S, Cfg>(in, out, n, exclusive, f, prefix);
}

// A section scan as a rung of the hierarchical driver (hierarchy.cuh's
// SectionRung): block b scans section b and records its total. NAME names the
// kernel in launch errors.
template <class Cfg, const char* NAME>
struct RecordingSections {
  static constexpr std::size_t SECTION = Cfg::SECTION;
  template <class S>
  static void launch(const typename S::in_t* in, typename S::out_t* out, std::size_t n, typename S::acc_t* sums,
                     bool exclusive, unsigned blocks, cudaStream_t stream) {
    using P = RecordTotal<typename S::acc_t>;
    detail::launch(NAME, scan_section_kernel<S, Cfg, P>, dim3(blocks), dim3(Cfg::THREADS), 0, stream, n, in, out, n,
                   exclusive, P{sums}, S{});
  }
};

}  // namespace tessera::scan_impl
