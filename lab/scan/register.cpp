// The lab's rows of the scan ladder (Role::tuning): the step-9 look-back
// policies of tuning_lookback.cuh, added to the product's ladder by
// tessera-lab and tessera_lab_tests.
#include "register_lab.hpp"

#if TESSERA_HAVE_CUDA
#include "families/scan/contract.hpp"
#include "scan/tuning_rows.hpp"
#endif

namespace tessera::lab {

void register_scan_lab() {
#if TESSERA_HAVE_CUDA
  scan_impl::variants_ladder().add(scan_tuning_rows());
#endif
}

}  // namespace tessera::lab
