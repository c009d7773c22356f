// The lab's rows of the compose ladder (Role::tuning), added to the product's
// ladder by tessera-lab and tessera_lab_tests.
#include "register_lab.hpp"

namespace tessera::lab {

void register_compose_lab() {}

}  // namespace tessera::lab
