// The lab's rows of the reduce ladder (Role::tuning): none. Every reduce row
// is a seed rung, the product or the vendor; the experiments behind
// single_pass's constants (block, unroll, cache hints, grid) are recorded in
// its header and in docs/reduce.md ("What was tried").
#include "register_lab.hpp"

namespace tessera::lab {

void register_reduce_lab() {}

}  // namespace tessera::lab
