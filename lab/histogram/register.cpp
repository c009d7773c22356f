// The lab's rows of the histogram ladder (Role::tuning), added to the
// product's ladder by tessera-lab and tessera_lab_tests: the 8-bit
// packed-counter configurations. None is picked by the public API
// (src/families/histogram/policy.hpp says what is and why).
#include "register_lab.hpp"

#if TESSERA_HAVE_CUDA
#include "families/histogram/contract.hpp"
#include "histogram/lab_rungs.hpp"
#endif

namespace tessera::lab {

void register_histogram_lab() {
#if TESSERA_HAVE_CUDA
  histogram_impl::variants_ladder().add(histogram_impl::packed8_rows());
#endif
}

}  // namespace tessera::lab
