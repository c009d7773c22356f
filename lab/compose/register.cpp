// The lab's rows of the compose ladders (Role::tuning), added to the
// product's ladders by tessera-lab and tessera_lab_tests: the one-pass
// kernels' policies the API does not pick, and the product's select rungs on
// the patterns whose default they are not (single_pass_wide on compact and
// unique, single_pass_early on partition and unique). Each row's measurement is in its
// rung's header comment and in docs/compose.md ("What was tried").
#include <string_view>
#include <vector>

#include "families/compose/contract.hpp"
#include "lab_rungs.hpp"
#include "ladder/ladder.hpp"
#include "register_lab.hpp"

namespace tessera::lab {

#if TESSERA_HAVE_CUDA
namespace {

using namespace ladder::roles;
using compose_impl::Family;
using compose_impl::Variant;
#define TESSERA_RUNG(name) compose_impl::supports_##name, compose_impl::ws_##name, compose_impl::run_##name

constexpr std::string_view PRIMARY_ADDS =
    "one pass with decoupled look-back over 16-byte {flag, count} tile slots, 4 predecessors per lane (128 per "
    "poll), 256-thread tiles, 16-byte loads, one block scan per tile, staged for coalesced writes (the sweep's "
    "primary policy)";
constexpr std::string_view LEAN_ADDS =
    "single_pass with 8-byte look-back status words (count << 2 | flag) polled 64 per round instead of 128 16-byte "
    "slots, 32-register cap for 8 blocks per SM";
constexpr std::string_view WIDE_ADDS =
    "single_pass_lean on 512-thread tiles (32 KiB of input): half the tiles, so half the look-backs, tile-counter "
    "atomics and status polls per byte (partition's pick)";
constexpr std::string_view EARLY_ADDS =
    "single_pass_wide with the early look-back: warp 0 looks back before staging while the other warps stage, "
    "sparse 32-slot re-poll of only the missing status words, L2 prefetch of the tile over the tile-index atomic "
    "(flagged compaction's pick)";

// The select kernels' sweep: every point a select pattern's product ladder
// does not already hold becomes a lab row of that pattern.
struct SweepPoint {
  std::string_view name;
  int step;
  std::string_view adds;
  bool (*supports)(const compose_impl::Spec&);
  std::size_t (*workspace_bytes)(const compose_impl::Spec&);
  void (*run)(const compose_impl::Call&);
};

const SweepPoint select_sweep[] = {
    {"single_pass", 4, PRIMARY_ADDS, TESSERA_RUNG(select_single_pass)},
    {"single_pass_lean", 4, LEAN_ADDS, TESSERA_RUNG(select_single_pass_lean)},
    {"single_pass_wide", 4, WIDE_ADDS, TESSERA_RUNG(select_single_pass_wide)},
    {"single_pass_early", 5, EARLY_ADDS, TESSERA_RUNG(select_single_pass_early)},
};

const Variant rle_rows[] = {
    {{"rle", "single_pass", 3, CUDA, TUNING, "single_pass_lean's kernel with the first status: (runs, last start) in TileStatus<RunState>, a flag array and value arrays read by an acquire then the values, slot after slot (2 L2 round trips per slot), 4 slots per lane", true}, TESSERA_RUNG(rle_single_pass)},
};

#undef TESSERA_RUNG

}  // namespace
#endif

void register_compose_lab() {
#if TESSERA_HAVE_CUDA
  for (Family f : {Family::compact, Family::partition, Family::unique}) {
    auto& ladder_of_f = compose_impl::variants_ladder(f);
    std::vector<Variant> rows;
    for (const SweepPoint& p : select_sweep)
      if (ladder_of_f.find(p.name) == nullptr)
        rows.push_back({{compose_impl::to_string(f), p.name, p.step, CUDA, TUNING, p.adds, true}, p.supports,
                        p.workspace_bytes, p.run});
    ladder_of_f.add(rows);
  }
  compose_impl::variants_ladder(Family::rle).add(rle_rows);
#endif
}

}  // namespace tessera::lab
