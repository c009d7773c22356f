// The lab's histogram rows on a GPU: the product's per-rung suite
// (tests/test_histogram_gpu_suite.hpp) over every tuning row (the 8-bit
// packed counters: several flushes on 2^27 equal bytes, the large cases with
// TESSERA_LARGE_TESTS=1). Every test skips when no device is present.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_histogram_gpu_suite.hpp"

namespace histogram_gpu_suite {

std::vector<std::string> suite_variant_names() { return gpu_variant_names(Role::tuning); }

}  // namespace histogram_gpu_suite
