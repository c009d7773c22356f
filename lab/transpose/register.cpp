// The lab's rows of the transpose ladder (Role::tuning), added to the product's
// ladder by tessera-lab and tessera_lab_tests.
#include "register_lab.hpp"

namespace tessera::lab {

void register_transpose_lab() {}

}  // namespace tessera::lab
