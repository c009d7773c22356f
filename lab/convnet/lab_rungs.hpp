// The lab's convnet rows (CUDA builds): the resident_image plan sweep.
#pragma once

#include <vector>

#include "families/convnet/contract.hpp"

namespace tessera::lab::convnet_lab {

std::vector<conv_impl::ConvVariant> resident_sweep_rows();

}  // namespace tessera::lab::convnet_lab
