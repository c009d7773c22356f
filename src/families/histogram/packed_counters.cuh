// Lane-private packed counters: the kernel template of step 7's
// packed16_atomic (07_packed_counters.cu) and of the lab's 8-bit
// configurations (lab/histogram/tuning_packed_counters.cuh), one kernel whose
// PackedPolicy (counter width, update kind, block size, tile) is each row's
// only difference.
//
// What it changes over step 6 (per-warp copies + 16-byte loads): who owns a
// counter. Every *thread* has its own histogram in shared memory, with small
// counters packed into 32-bit words: word (r, t) at priv[r * BLOCK + t] holds
// the counters of bins r * PACK .. r * PACK + PACK - 1 of thread t
// (PACK = 2 with 16-bit counters, 4 with 8-bit ones). A bin update adds
// 1 << (BITS * (bin % PACK)) to that word.
//   - No bank conflicts, ever: a warp's 32 lanes touch 32 words whose index
//     is t mod 32 plus a multiple of BLOCK (a multiple of 32), i.e. 32
//     different banks, whatever the bins. Step 6's random-bin atomics need
//     ~3.5 bank wavefronts per warp instruction; these need one.
//   - No contention, ever: a word has one writer, so skewed data (80% in one
//     bin) costs exactly what uniform data costs.
//   - The update is either a shared atomic whose result is unused (ATOMS
//     with no destination: issued and forgotten, no latency on the thread)
//     or a plain load/add/store (the word is private; costs two shared
//     accesses and a load latency per element).
// A counter holds FIELD_MAX = 2^BITS - 1: before any can overflow, the block
// flushes (every FLUSH_TILES tiles of the sweep, and at the end): a barrier,
// then the block reads the whole private area (rotated so the 32 lanes read
// 32 banks), sums each bin over the threads and adds it to a 32-bit block
// histogram in shared memory (zeroing the words when counting goes on);
// at the end the block histogram goes to the global counts, one atomic per
// bin. Loads: sweep_vec16 (persistent grid, 16-byte vectors, the next tile in
// flight while this one is counted).
//
// Configurations (tuning as data, PackedPolicy below): 16-bit counters take
// bins / 2 words a thread and flush only at the end in practice (2^16 - 1
// per counter: 4095 vectors a thread); 8-bit counters take bins / 4, so
// twice the threads fit, at the cost of a flush every ~240 bytes a thread
// (each counter holds 255). Which configuration the product runs, and why,
// is in 07_packed_counters.cu; the others are the lab's rows.
//
// Bottleneck: DRAM. Per byte: one conflict-free shared access (atomic) or
// two (rmw) and ~6 integer instructions, against ~12 bytes per SM-clock that
// DRAM delivers on H100: both fit. Expected: ~100% of copy (a histogram only
// reads, so it can pass copy's read + write rate) on uniform AND skewed
// bytes: >= 1.3x CUB on uniform data (CUB pays the random-bank atomics),
// >= 1.05x on skewed data. The flush costs packed8 ~30% more instructions
// and shared accesses; packed16 has half the warps to hide DRAM latency.
// For floats: up to ~400 bins with 16-bit counters (rows x BLOCK words),
// 4 bins-computations per vector, same DRAM bound.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "families/histogram/common.cuh"

namespace tessera::histogram_impl {

template <int BITS_, bool ATOMIC_, int BLOCK_, int MIN_BLOCKS_, int UNROLL_>
struct PackedPolicy {
  static constexpr int BITS = BITS_;      // counter width
  static constexpr int PACK = 32 / BITS;  // counters per word
  static constexpr std::uint32_t FIELD_MAX = (1u << BITS) - 1u;
  static constexpr bool ATOMIC = ATOMIC_;  // atomic (fire-and-forget) or load/add/store updates
  static constexpr int BLOCK = BLOCK_;
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;  // resident blocks per SM the registers must allow
  static constexpr int UNROLL = UNROLL_;          // 16-byte vectors per thread per tile
  static_assert(BITS == 8 || BITS == 16, "8- or 16-bit counters");
  static_assert(BLOCK % 32 == 0 && BLOCK >= 128, "whole warps, >= 128 threads (sweep_vec16)");
  static_assert(BLOCK * MIN_BLOCKS <= 2048, "sm_90: 2048 resident threads per SM");

  // Tiles between two flushes: a tile gives a thread UNROLL * VEC elements,
  // the remainder up to 2 more (sweep_vec16), and no counter may pass FIELD_MAX.
  template <class T>
  static constexpr int flush_tiles() {
    return static_cast<int>((FIELD_MAX - 2) / (static_cast<std::uint32_t>(UNROLL) * Vec16Of<T>::N));
  }
};

template <class P>
constexpr int rows_for(int bins) {
  return (bins + P::PACK - 1) / P::PACK;
}

template <class P>
constexpr std::size_t packed_smem_bytes(int bins) {
  return (static_cast<std::size_t>(rows_for<P>(bins)) * P::BLOCK + static_cast<std::size_t>(bins)) *
         sizeof(std::uint32_t);
}

// Adds every thread's private counters into block_hist (32-bit, `bins`
// words), zeroing them when `zero`. Every thread of the block. Items are
// (row, 32-word segment) pairs; lane l starts its segment at word l and wraps
// around, so at each step the 32 lanes of a warp read 32 different banks.
// Field sums fit their accumulator lanes: 32 x 255 < 2^16 (8-bit counters,
// summed two per 32-bit register), 32 x 65535 < 2^32 (16-bit, one each).
template <class P>
__device__ __forceinline__ void flush_private(std::uint32_t* priv, std::uint32_t* block_hist, int rows, int bins,
                                              bool zero) {
  constexpr int SEGS = P::BLOCK / 32;
  __syncthreads();  // every thread's updates are in
  const unsigned lane = threadIdx.x % 32;
  for (int item = threadIdx.x; item < rows * SEGS; item += P::BLOCK) {
    const int row = item / SEGS;
    std::uint32_t* seg = priv + row * P::BLOCK + (item % SEGS) * 32;
    std::uint32_t acc0 = 0, acc1 = 0;
#pragma unroll 8
    for (unsigned k = 0; k < 32; ++k) {
      const unsigned col = (k + lane) & 31u;
      const std::uint32_t w = seg[col];
      if (zero) seg[col] = 0u;
      if constexpr (P::BITS == 16) {
        acc0 += w & 0xFFFFu;
        acc1 += w >> 16;
      } else {
        acc0 += w & 0x00FF00FFu;         // bins 4r + 0 (low half), 4r + 2 (high half)
        acc1 += (w >> 8) & 0x00FF00FFu;  // bins 4r + 1, 4r + 3
      }
    }
    auto add = [&](int bin, std::uint32_t v) {
      if (bin < bins && v != 0) atomicAdd(block_hist + bin, v);
    };
    if constexpr (P::BITS == 16) {
      add(row * 2, acc0);
      add(row * 2 + 1, acc1);
    } else {
      add(row * 4, acc0 & 0xFFFFu);
      add(row * 4 + 1, acc1 & 0xFFFFu);
      add(row * 4 + 2, acc0 >> 16);
      add(row * 4 + 3, acc1 >> 16);
    }
  }
  __syncthreads();  // zeroed words and block_hist are complete before anyone goes on
}

// One counter update at shared address `addr` (a 32-bit shared-window
// address). Inline PTX so that the address arithmetic stays one IMAD per
// element (the compiler's generic-to-shared conversion added a LEA each):
// `red` is the atomic add without a result (fire-and-forget); the plain
// load/add/store is safe because the word has one writer. "memory" keeps the
// updates in program order with the barriers of the flush.
template <class P>
__device__ __forceinline__ void bump(unsigned addr, std::uint32_t inc) {
  if constexpr (P::ATOMIC) {
    asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(addr), "r"(inc) : "memory");
  } else {
    std::uint32_t w;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(w) : "r"(addr) : "memory");
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr), "r"(w + inc) : "memory");
  }
}

// Bin b of the thread whose word (0, t) is at `base`: word row b / PACK,
// field b % PACK.
template <class P>
__device__ __forceinline__ void bump_bin(unsigned base, unsigned b) {
  bump<P>(base + (b / P::PACK) * (P::BLOCK * 4u), 1u << ((b % P::PACK) * P::BITS));
}

// The 4 bytes of w. 16-bit counters: byte v goes to word row v >> 1 (byte
// offset (v & 0xFE) * BLOCK * 2) with increment 0x10000 if v is odd, else 1.
// Both parts are split off all four bytes at once (two LOP3 a word), then
// each byte costs PRMT + IMAD for the address and PRMT + IMAD for the
// increment: ~4.5 integer instructions a byte, not the ~7 of per-byte shifts
// and masks (SASS of the H100 build: the packed16 kernel was issue-bound at
// ~8 instructions a byte with 3 warps a scheduler). 8-bit counters, the
// same way: offset (v & 0xFC) * BLOCK, increment 1 << 8 * (v & 3).
template <class P>
__device__ __forceinline__ void bump_word(unsigned base, std::uint32_t w) {
  if constexpr (P::BITS == 16) {
    const std::uint32_t even = w & 0xFEFEFEFEu;  // each byte's v & 0xFE
    const std::uint32_t odd = w & 0x01010101u;   // each byte's v & 1
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned selector = 0x4440u | k;  // byte k of x, zeros above
      const std::uint32_t row_bytes = __byte_perm(even, 0u, selector);
      const std::uint32_t is_odd = __byte_perm(odd, 0u, selector);
      bump<P>(base + row_bytes * (P::BLOCK * 2u), is_odd * 0xFFFFu + 1u);  // 1 or 0x10000
    }
  } else {
    const std::uint32_t rows = w & 0xFCFCFCFCu;           // each byte's v & 0xFC
    const std::uint32_t shifts = (w & 0x03030303u) << 3;  // each byte's 8 * (v & 3), no carry out
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned selector = 0x4440u | k;
      bump<P>(base + __byte_perm(rows, 0u, selector) * static_cast<unsigned>(P::BLOCK),
              1u << __byte_perm(shifts, 0u, selector));
    }
  }
}

template <class T, class P>
__global__ __launch_bounds__(P::BLOCK, P::MIN_BLOCKS) void histogram_packed_kernel(const T* __restrict__ in,
                                                                                  std::size_t n, rule_t<T> rule,
                                                                                  std::uint32_t* __restrict__ counts) {
  constexpr int FLUSH_TILES = P::template flush_tiles<T>();
  const int bins = rule.bins;
  const int rows = rows_for<P>(bins);
  std::uint32_t* priv = smem_counters();
  std::uint32_t* block_hist = priv + rows * P::BLOCK;
  zero_smem(priv, static_cast<std::size_t>(rows) * P::BLOCK + bins);

  // Shared address of the thread's word (0, t); word (r, t) is r * BLOCK * 4 bytes on.
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(priv)) + threadIdx.x * 4u;
  int tiles_since_flush = 0;  // block-uniform
  auto before_tile = [&] {
    if (tiles_since_flush == FLUSH_TILES) {
      flush_private<P>(priv, block_hist, rows, bins, true);
      tiles_since_flush = 0;
    }
    ++tiles_since_flush;
  };
  auto on_bin = [&](int b) {
    if (b >= 0) bump_bin<P>(base, static_cast<unsigned>(b));
  };
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    auto on_vec = [&](const uint4& v) {
      bump_word<P>(base, v.x);
      bump_word<P>(base, v.y);
      bump_word<P>(base, v.z);
      bump_word<P>(base, v.w);
    };
    sweep_vec16<T, P::BLOCK, P::UNROLL>(in, n, rule, before_tile, on_vec, on_bin);
  } else {
    sweep_vec16<T, P::BLOCK, P::UNROLL>(in, n, rule, before_tile, count_vec16(rule, on_bin), on_bin);
  }
  flush_private<P>(priv, block_hist, rows, bins, false);
  merge_copies_to_global(block_hist, 1, bins, bins, counts);
}

template <class P>
bool packed_supports(const HistogramSpec& spec) {
  return input_type_supported(spec) && packed_smem_bytes<P>(spec.bins) <= SMEM_LIMIT;
}

template <class P>
void run_packed(const char* variant, const char* kernel_name, const HistogramCall& call) {
  with_input_type(variant, call.spec, [&]<class T>() {
    if (!packed_supports<P>(call.spec))
      throw Error(std::string("histogram variant '") + variant + "': " + std::to_string(call.spec.bins) +
                  " bins do not fit its private counters");
    const std::size_t n = call.spec.n;
    zero_counts(call);
    if (n > 0) {
      auto* kernel = histogram_packed_kernel<T, P>;
      const std::size_t smem = packed_smem_bytes<P>(call.spec.bins);
      const std::size_t useful = detail::div_up(n, std::size_t(P::BLOCK) * P::UNROLL * Vec16Of<T>::N);
      const unsigned grid = persistent_grid(reinterpret_cast<const void*>(kernel), P::BLOCK, smem, useful, kernel_name);
      launch_kernel(kernel_name, kernel, grid, P::BLOCK, smem, call, static_cast<const T*>(call.in), n,
                    rule_of<T>(call.spec), call.counts);
    }
    write_out_of_range(call);
  });
}

}  // namespace tessera::histogram_impl
