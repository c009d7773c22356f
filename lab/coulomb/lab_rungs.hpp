// The lab's coulomb rows (CUDA builds): the step-7 split sweep.
#pragma once

#include <vector>

#include "families/coulomb/contract.hpp"
#include "families/coulomb/cuda_rungs.hpp"

namespace tessera::lab::coulomb_lab {

std::vector<coulomb_impl::CoulombVariant> split_sweep_rows();

}  // namespace tessera::lab::coulomb_lab
