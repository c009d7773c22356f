// The lab's rows of the conv2d ladder (Role::tuning), added to the product's
// ladder by tessera-lab and tessera_lab_tests. None is picked by the public
// API (src/families/convolution/policy.hpp says what is and why).
//
//   tessera-lab bench conv2d            every row, the lab's included
//   tessera-lab verify conv2d --quick   the lab rows at the edge shapes too
#include "register_lab.hpp"

#if TESSERA_HAVE_CUDA
#include "convolution/lab_rungs.hpp"
#include "families/convolution/contract.hpp"
#endif

namespace tessera::lab {

void register_convolution_lab() {
#if TESSERA_HAVE_CUDA
  using namespace convolution_impl;
  using ladder::roles::CUDA;
  using ladder::roles::TUNING;
  static const ConvVariant rows[] = {
      {{"conv2d", "single_buffer_tiles", 7, CUDA, TUNING, "pipelined_tiles' kernel with one shared buffer: copy, wait, compute, store per tile; only other resident blocks overlap copies with FMAs (the control of its double buffering)", true}, supports_single_buffer_tiles, [](const ConvSpec&) -> std::size_t { return 0; }, prepare_single_buffer_tiles, run_single_buffer_tiles},
      {{"conv2d", "rolled_rows_tiles", 7, CUDA, TUNING, "pipelined_tiles with the FMA loop rolled over the mask's rows: ~5 KB of code instead of ~41 KB (9x9), each window row reloaded per mask row (216 LDS.128 instead of 48): the control of instruction fetch", true}, supports_rolled_rows_tiles, [](const ConvSpec&) -> std::size_t { return 0; }, prepare_rolled_rows_tiles, run_rolled_rows_tiles},
      {{"conv2d", "static_walk_tiles", 7, CUDA, TUNING, "pipelined_tiles with the fixed stride tile walk (block b: tiles b, b + grid, ...) instead of the counter: the control of the dynamic walk", true}, supports_static_walk_tiles, [](const ConvSpec&) -> std::size_t { return 0; }, prepare_static_walk_tiles, run_static_walk_tiles},
  };
  conv2d_ladder().add(rows);
#endif
}

}  // namespace tessera::lab
