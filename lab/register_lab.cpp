#include "register_lab.hpp"

namespace tessera::lab {

// Adding a family's lab rows = one line here (and lab/<family>/).
void register_all() {
  static bool done = false;
  if (done) return;
  done = true;
  register_reduce_lab();
  register_scan_lab();
  register_compose_lab();
  register_transpose_lab();
  register_gemm_lab();
  register_batched_scan_lab();
  register_histogram_lab();
  register_coulomb_lab();
  register_convnet_winograd_lab();
  register_convnet_lab();
  register_convolution_lab();
}

}  // namespace tessera::lab
