// The lab's rows of the coulomb ladder (Role::tuning), added to the product's
// ladder by tessera-lab and tessera_lab_tests: the sweep of step 7's split
// ratio. None is picked by the public API (src/families/coulomb/policy.hpp).
#include "register_lab.hpp"

#if TESSERA_HAVE_CUDA
#include "coulomb/lab_rungs.hpp"
#endif

namespace tessera::lab {

void register_coulomb_lab() {
#if TESSERA_HAVE_CUDA
  const auto rows = coulomb_lab::split_sweep_rows();
  coulomb_impl::variants_ladder().add(rows);
#endif
}

}  // namespace tessera::lab
