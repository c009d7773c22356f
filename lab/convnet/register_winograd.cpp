// The lab's rows of the convnet ladder (Role::tuning), added to the
// product's ladder by tessera-lab and tessera_lab_tests: winograd_f4x3 (step
// 9) with its batch run in groups of a fixed number of images per pass
// (input transform, batched GEMM, output transform per group; V and M sized
// for one group). The product runs the whole batch in one pass
// (09_winograd_f4x3.cu, images_per_pass), which these rows measured fastest
// on the H100 on every bench layer (ResNet 64->64 56^2 n64: images64 0.2531
// ms, images16 0.2982, images8 0.3056, images4 0.3748); they keep the group
// sizes measurable on other GPUs, on
// `tessera-lab bench convnet`. The tile rows force the batched GEMM's tile
// (the gemm family's three) where the product takes its wave model's.
// Verified like the product's row, at the scale of its 4x4 output tiles.
#include "register_lab.hpp"

#if TESSERA_HAVE_CUDA
#include <cstddef>
#include <vector>

#include "families/convnet/contract.hpp"
#include "families/convnet/cuda_rungs.hpp"
#endif

namespace tessera::lab {

#if TESSERA_HAVE_CUDA
namespace {

template <std::size_t IMAGES>
void run_images(const conv_impl::ConvCall& call) {
  conv_impl::run_winograd_f4x3_images(call, IMAGES);
}

template <int TILE>
void run_tile(const conv_impl::ConvCall& call) {
  conv_impl::run_winograd_f4x3_tile(call, TILE);
}

template <std::size_t IMAGES>
std::size_t ws_images(const conv_impl::ConvSpec& s) {
  return conv_impl::ws_winograd_f4x3_images(s, IMAGES);
}

}  // namespace
#endif

void register_convnet_winograd_lab() {
#if TESSERA_HAVE_CUDA
  using ladder::roles::CUDA;
  using ladder::roles::TUNING;
  const auto supports = conv_impl::supports_winograd_f4x3;
  const std::vector<conv_impl::ConvVariant> rows = {
      {{"convnet", "winograd_f4x3_images2", 9, CUDA, TUNING, "winograd_f4x3, 2 images per pass (V, M of a group in L2)", true}, supports, ws_images<2>, nullptr, run_images<2>},
      {{"convnet", "winograd_f4x3_images4", 9, CUDA, TUNING, "winograd_f4x3, 4 images per pass", true}, supports, ws_images<4>, nullptr, run_images<4>},
      {{"convnet", "winograd_f4x3_images8", 9, CUDA, TUNING, "winograd_f4x3, 8 images per pass (V, M of ResNet 64->64 56^2 in 29 MB of L2)", true}, supports, ws_images<8>, nullptr, run_images<8>},
      {{"convnet", "winograd_f4x3_images16", 9, CUDA, TUNING, "winograd_f4x3, 16 images per pass", true}, supports, ws_images<16>, nullptr, run_images<16>},
      {{"convnet", "winograd_f4x3_images64", 9, CUDA, TUNING, "winograd_f4x3, 64 images per pass (a batch of 64 in one pass: the product's)", true}, supports, ws_images<64>, nullptr, run_images<64>},
      // The GEMM's tile forced (the product's is choose_gemm_tile's wave model).
      {{"convnet", "winograd_f4x3_tile128x64", 9, CUDA, TUNING, "winograd_f4x3 with its batched GEMM on 128 x 64 tiles", true}, supports, conv_impl::ws_winograd_f4x3, nullptr, run_tile<0>},
      {{"convnet", "winograd_f4x3_tile64x64", 9, CUDA, TUNING, "winograd_f4x3 with its batched GEMM on 64 x 64 tiles", true}, supports, conv_impl::ws_winograd_f4x3, nullptr, run_tile<1>},
      {{"convnet", "winograd_f4x3_tile128x128", 9, CUDA, TUNING, "winograd_f4x3 with its batched GEMM on 128 x 128 tiles", true}, supports, conv_impl::ws_winograd_f4x3, nullptr, run_tile<2>},
  };
  conv_impl::variants_ladder().add(rows);
#endif
}

}  // namespace tessera::lab
