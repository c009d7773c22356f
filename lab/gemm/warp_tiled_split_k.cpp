// The split-k sweep: each product tile configuration of warp_tiled
// (policy.hpp's WARP_TILED_TILES) pinned to S k slices, one tuning row
// warp_tiled_<tile>_split<S> each. With the unsplit rows of the sweep
// (warp_tiled_<tile>) they are the grid policy.hpp's SHAPE_RULES are chosen
// from: `tessera-lab bench gemm --input lab/gemm/size_grid.txt --json F`
// times them all on every shape of the grid (docs/gemm.md, "Middling
// sizes"). They run the product's kernels (every op(A), op(B)), so nothing
// is instantiated here. CUDA builds only (the CPU-only build has no GPU rows).
#if TESSERA_HAVE_CUDA
#include <fmt/format.h>

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "families/gemm/cuda_rungs.hpp"
#include "families/gemm/policy.hpp"
#include "gemm/warp_tiled_sweep.hpp"
#include "ladder/ladder.hpp"

namespace tessera::gemm_lab {

namespace {

using gemm_impl::GemmCall;
using gemm_impl::GemmSpec;

template <std::size_t TILE, unsigned SPLITS>
void run_split(const GemmCall& call) {
  gemm_impl::warp_tiled_kernels()[TILE].run_ab_split(call, SPLITS);
}

template <unsigned SPLITS>
std::size_t split_workspace(const GemmSpec& spec) {
  return gemm_impl::warp_tiled_split_workspace_bytes(spec, SPLITS);
}

template <std::size_t TILE, unsigned SPLITS>
gemm_impl::GemmVariant split_row(std::deque<std::string>& names, std::deque<std::string>& adds) {
  using namespace ladder::roles;
  static_assert(TILE < gemm_impl::policy::WARP_TILED_TILE_COUNT, "a tile configuration of policy.hpp");
  const auto& tile = gemm_impl::policy::WARP_TILED_TILES[TILE];
  names.push_back(fmt::format("warp_tiled_{}_split{}", tile.name, SPLITS));
  adds.push_back(fmt::format("warp_tiled's {} tiles, k split into {} slices (one block per tile and slice, "
                             "partials in the workspace, ordered reduction with alpha/beta: deterministic)",
                             tile.name, SPLITS));
  return {{"gemm", names.back(), 10, CUDA, TUNING, adds.back(), true},
          gemm_impl::Fill::full, 0, gemm_impl::is_ab, split_workspace<SPLITS>, run_split<TILE, SPLITS>};
}

// The split factors swept: 2 to 8 (past 8 the partials outweigh the product
// at every grid shape: 8 slices of a 1024^2 C are 32 MiB).
template <std::size_t TILE>
void add_tile(std::vector<gemm_impl::GemmVariant>& rows, std::deque<std::string>& names,
              std::deque<std::string>& adds) {
  rows.push_back(split_row<TILE, 2>(names, adds));
  rows.push_back(split_row<TILE, 3>(names, adds));
  rows.push_back(split_row<TILE, 4>(names, adds));
  rows.push_back(split_row<TILE, 6>(names, adds));
  rows.push_back(split_row<TILE, 8>(names, adds));
}

template <std::size_t... TILES>
std::vector<gemm_impl::GemmVariant> make_rows(std::index_sequence<TILES...>) {
  static std::deque<std::string> names, adds;  // the rows' views point here
  std::vector<gemm_impl::GemmVariant> rows;
  (add_tile<TILES>(rows, names, adds), ...);
  return rows;
}

}  // namespace

std::span<const gemm_impl::GemmVariant> warp_tiled_split_k_rows() {
  static const std::vector<gemm_impl::GemmVariant> rows =
      make_rows(std::make_index_sequence<gemm_impl::policy::WARP_TILED_TILE_COUNT>());
  return rows;
}

}  // namespace tessera::gemm_lab

#endif  // TESSERA_HAVE_CUDA
