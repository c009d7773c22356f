// Factories of the harness's Pattern objects, one per pattern family; called
// from core/registry.cpp's register_all().
#pragma once

#include <memory>
#include <vector>

#include "harness/problem.hpp"

namespace tessera::harness {

std::unique_ptr<Pattern> make_reduce_pattern();
std::unique_ptr<Pattern> make_scan_pattern();
// map, adjacent_difference, compact, partition, unique, find_unique, rle
std::vector<std::unique_ptr<Pattern>> make_compose_patterns();
std::unique_ptr<Pattern> make_transpose_pattern();
std::unique_ptr<Pattern> make_gemm_pattern();
std::unique_ptr<Pattern> make_batched_scan_pattern();
std::unique_ptr<Pattern> make_histogram_pattern();
std::unique_ptr<Pattern> make_spmv_pattern();
std::unique_ptr<Pattern> make_spmv_batched_pattern();
std::unique_ptr<Pattern> make_stencil7_pattern();
std::unique_ptr<Pattern> make_convnet_pattern();
std::unique_ptr<Pattern> make_cutoff_pattern();
std::unique_ptr<Pattern> make_moving_average_pattern();
std::unique_ptr<Pattern> make_mriq_pattern();
std::unique_ptr<Pattern> make_conv1d_pattern();
std::unique_ptr<Pattern> make_conv2d_pattern();
std::unique_ptr<Pattern> make_coulomb_pattern();

}  // namespace tessera::harness
