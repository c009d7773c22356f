// rle step 3 — tessera's run-length encoding: one pass with decoupled
// look-back (the kernel: single_pass.cuh), the tile's state packed with its
// flag in one 16-byte slot.
//
// The first status (lab: single_pass, TileStatus<RunState>: a flag array and
// value arrays) reads a slot with an acquire load of the flag and then the
// value words; an acquire orders every later load after it, so a lane's 4
// slots cost 8 serial L2 round trips per poll, and it measured 0.65-0.67x
// cub_run_length_encode. Here RunState is packed with its flag into one
// 16-byte slot, {runs << 2 | flag, (last_start + 1) << 2 | flag}, read and
// written with single relaxed .b128 accesses: one round trip per slot, 2
// slots per lane (64 x 16 B = 1 KiB per poll), and 48 registers instead of
// 76 (5 blocks per SM instead of 3). As in TileStatus's packed16 slots the
// flag is in both halves: the hardware may split a .b128 access into two
// 8-byte halves, and a read whose flags differ (halves of two different
// stores: each flag is stored once per slot) counts as invalid and is
// retried. Runs and last_start + 1 are below 2^62 for any n.
//
// Measured figures: docs/compose.md (rle) and the policy row.
#include "families/compose/rle/single_pass.cuh"
#include "families/compose/cuda_rungs.hpp"

namespace tessera::compose_impl {

namespace {

class PackedRunStatus {
 public:
  using RunState = rle_single_pass::RunState;
  __host__ __device__ static constexpr std::size_t bytes(std::size_t tiles) { return tiles * 16; }
  PackedRunStatus() = default;
  __host__ __device__ PackedRunStatus(void* base, std::size_t /*tiles*/) : base_(static_cast<unsigned char*>(base)) {}

  __device__ __forceinline__ void publish(std::size_t tile, gpu::TileFlag flag, const RunState& v) const {
    const auto f = static_cast<unsigned long long>(flag);
    gpu::lookback_detail::store_relaxed_b128(base_ + tile * 16, (v.runs << 2) | f,
                                             (static_cast<unsigned long long>(v.last_start + 1) << 2) | f);
  }
  __device__ __forceinline__ gpu::TileFlag load(std::size_t tile, RunState& v) const {
    unsigned long long lo, hi;
    gpu::lookback_detail::load_relaxed_b128(base_ + tile * 16, lo, hi);
    v.runs = lo >> 2;
    v.last_start = static_cast<long long>(hi >> 2) - 1;
    return (lo & 3u) == (hi & 3u) ? static_cast<gpu::TileFlag>(static_cast<unsigned>(lo & 3u)) : gpu::TILE_INVALID;
  }

 private:
  unsigned char* base_ = nullptr;
};

using PackedPolicy = rle_single_pass::Policy<PackedRunStatus, 2>;

}  // namespace

void run_rle_single_pass_lean(const Call& call) { rle_single_pass::run<PackedPolicy>(call); }
std::size_t ws_rle_single_pass_lean(const Spec& s) { return rle_single_pass::workspace_bytes<PackedPolicy>(s); }
bool supports_rle_single_pass_lean(const Spec& s) { return s.family == Family::rle && family_supports(s); }

}  // namespace tessera::compose_impl
