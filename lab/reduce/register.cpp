// The lab's rows of the reduce ladder (Role::tuning), added to the product's
// ladder by tessera-lab and tessera_lab_tests.
#include "register_lab.hpp"

namespace tessera::lab {

void register_reduce_lab() {}

}  // namespace tessera::lab
