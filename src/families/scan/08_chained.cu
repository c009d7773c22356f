// Step 8 — stream-based chained scan (seed 000 "Stream based scan"; seed 003
// "__threadfence", atomics).
//
// What it changes over step 7: one kernel, one pass over memory. Each block
// scans a 4096-element section (step 7's kernel 1) and, instead of writing its
// total for later kernels, waits for its left neighbour's inclusive prefix:
// thread 0 spins on the neighbour's flag, reads its prefix, publishes its own
// (prefix . total: value store, __threadfence(), flag set with atomicExch),
// and the block adds the prefix to its outputs. The fence orders the value
// before the flag for every other block; the reader fences after seeing the
// flag and reads the value with volatile loads (through L2, never a stale L1
// line). Sections are handed out by an atomic counter (dynamic block index),
// not blockIdx.x: a block only ever waits on a section taken by a block
// already running, so no block waits on one that cannot be scheduled.
// (The seed reads the flag with atomicAdd(flag, 0); a volatile load gives
// the same visibility without read-modify-write traffic on the flag.)
//
// Bottleneck: the chain. Section b cannot publish before section b - 1 has:
// one flag round trip through L2 (~1 us) per 4096 elements, ~32 KiB of
// traffic per microsecond. Expected: 1-3% of copy at 2^28 (tens of ms).
#include <cuda_runtime.h>

#include <cstring>

#include "families/scan/hierarchy.cuh"
#include "families/scan/cuda_rungs.hpp"
#include "families/scan/section_scan.cuh"

namespace tessera::scan_impl {

namespace {

using Config = SectionConfig<256, 16, Phase2::warp_shuffle>;  // step 7's sections
constexpr std::size_t COUNTER_BYTES = gpu::WORKSPACE_ALIGN;

// acc_t states are moved as volatile 32-bit words (every state here is a
// multiple of 4 bytes).
template <class T>
__device__ __forceinline__ void store_volatile(T* p, const T& v) {
  static_assert(sizeof(T) % 4 == 0, "states of whole 32-bit words");
  unsigned w[sizeof(T) / 4];
  memcpy(w, &v, sizeof(T));
  volatile unsigned* q = reinterpret_cast<volatile unsigned*>(p);
#pragma unroll
  for (std::size_t i = 0; i < sizeof(T) / 4; ++i) q[i] = w[i];
}
template <class T>
__device__ __forceinline__ T load_volatile(const T* p) {
  unsigned w[sizeof(T) / 4];
  const volatile unsigned* q = reinterpret_cast<const volatile unsigned*>(p);
#pragma unroll
  for (std::size_t i = 0; i < sizeof(T) / 4; ++i) w[i] = q[i];
  T v;
  memcpy(&v, w, sizeof(T));
  return v;
}

template <class acc_t>
struct ChainedPrefix {
  unsigned* counter;  // zeroed before the launch
  unsigned* flags;    // zeroed before the launch; flags[s] = 1 once values[s] is published
  acc_t* values;      // values[s]: inclusive prefix of sections 0..s

  __device__ unsigned section_index(unsigned& slot) const { return gpu::take_tile_index(counter, slot); }

  __device__ void publish(unsigned s, const acc_t& inclusive) const {
    store_volatile(values + s, inclusive);
    __threadfence();  // the value reaches every block before the flag
    atomicExch(flags + s, 1u);
  }

  template <class S>
  __device__ bool operator()(unsigned s, const acc_t& total, acc_t& prefix, const S& f) const {
    if (s == 0) {
      publish(0, total);
      return false;
    }
    const volatile unsigned* left = flags + (s - 1);
    while (*left == 0) {
    }
    __threadfence();  // the neighbour's value is read after its flag
    prefix = load_volatile(values + (s - 1));
    publish(s, f.combine(prefix, total));
    return true;
  }
};

template <class R>
void run_chained_for(const ScanCall& call) {
  using S = ScanOf<R>;
  using acc_t = typename R::acc_t;
  const std::size_t n = call.spec.n;
  if (n == 0) return;
  const std::size_t sections = (n + Config::SECTION - 1) / Config::SECTION;
  const unsigned grid = gpu::checked_grid(sections, "scan_chained_kernel", n);
  auto* ws = static_cast<unsigned char*>(call.workspace);
  const std::size_t flags_bytes = gpu::align_workspace(sections * sizeof(unsigned));
  const ChainedPrefix<acc_t> prefix{reinterpret_cast<unsigned*>(ws), reinterpret_cast<unsigned*>(ws + COUNTER_BYTES),
                                    reinterpret_cast<acc_t*>(ws + COUNTER_BYTES + flags_bytes)};
  TESSERA_CUDA(cudaMemsetAsync(ws, 0, COUNTER_BYTES + flags_bytes, call.stream));
  detail::launch("scan_chained_kernel", scan_section_kernel<S, Config, ChainedPrefix<acc_t>>, dim3(grid),
                 dim3(Config::THREADS), 0, call.stream, n, static_cast<const typename S::in_t*>(call.in),
                 static_cast<typename S::out_t*>(call.out), n, call.spec.exclusive, prefix, S{});
}

}  // namespace

void run_chained(const ScanCall& call) {
  dispatch_seed_or_throw("chained", call.spec, [&]<class R>() { run_chained_for<R>(call); });
}

// [ counter (256 B) ][ flags ][ inclusive prefixes ], 256-byte aligned parts.
std::size_t ws_chained(const ScanSpec& spec) {
  if (spec.n == 0) return 0;
  const std::size_t sections = (spec.n + Config::SECTION - 1) / Config::SECTION;
  return COUNTER_BYTES + gpu::align_workspace(sections * sizeof(unsigned)) +
         gpu::align_workspace(sections * scan_acc_bytes(spec));
}

bool supports_chained(const ScanSpec& spec) { return seed_spec_supported(spec); }

}  // namespace tessera::scan_impl
