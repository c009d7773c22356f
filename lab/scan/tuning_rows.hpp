// The lab's rows of the scan ladder (Role::tuning): tuning_lookback.cuh's
// table as ScanVariants, defined in tuning_rows.cu (CUDA builds only).
#pragma once

#include <span>

#include "families/scan/contract.hpp"

namespace tessera::lab {

std::span<const scan_impl::ScanVariant> scan_tuning_rows();

}  // namespace tessera::lab
