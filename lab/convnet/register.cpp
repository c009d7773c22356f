// The lab's rows of the convnet ladder (Role::tuning), added to the product's
// ladder by tessera-lab and tessera_lab_tests: the sweep of step 10's plan
// model (resident_image). None is picked by the public API
// (src/families/convnet/policy.hpp).
#include "register_lab.hpp"

#if TESSERA_HAVE_CUDA
#include "convnet/lab_rungs.hpp"
#endif

namespace tessera::lab {

void register_convnet_lab() {
#if TESSERA_HAVE_CUDA
  const auto rows = convnet_lab::resident_sweep_rows();
  conv_impl::variants_ladder().add(rows);
#endif
}

}  // namespace tessera::lab
