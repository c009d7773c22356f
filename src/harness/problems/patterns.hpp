// Factories of the harness's Pattern objects, one per pattern family; called
// from core/registry.cpp's register_all().
#pragma once

#include <memory>

#include "harness/problem.hpp"

namespace tessera::harness {

std::unique_ptr<Pattern> make_reduce_pattern();
std::unique_ptr<Pattern> make_histogram_pattern();

}  // namespace tessera::harness
