#include "harness/registry.hpp"

#include "families/register_all.hpp"

namespace tessera {

namespace {
// Adding a pattern = one line here.
std::vector<std::unique_ptr<harness::Pattern>> register_all() {
  std::vector<std::unique_ptr<harness::Pattern>> all;
  all.push_back(harness::make_reduce_pattern());
  all.push_back(harness::make_scan_pattern());
  for (auto& p : harness::make_compose_patterns()) all.push_back(std::move(p));
  all.push_back(harness::make_transpose_pattern());
  all.push_back(harness::make_gemm_pattern());
  all.push_back(harness::make_batched_scan_pattern());
  all.push_back(harness::make_histogram_pattern());
  all.push_back(harness::make_spmv_pattern());
  all.push_back(harness::make_spmv_batched_pattern());
  all.push_back(harness::make_stencil7_pattern());
  all.push_back(harness::make_convnet_pattern());
  all.push_back(harness::make_cutoff_pattern());
  all.push_back(harness::make_moving_average_pattern());
  all.push_back(harness::make_mriq_pattern());
  all.push_back(harness::make_conv1d_pattern());
  all.push_back(harness::make_conv2d_pattern());
  all.push_back(harness::make_coulomb_pattern());
  return all;
}
}  // namespace

const std::vector<std::unique_ptr<harness::Pattern>>& patterns() {
  static const auto all = register_all();
  return all;
}

const harness::Pattern* find_pattern(std::string_view name) {
  for (const auto& p : patterns())
    if (p->name() == name) return p.get();
  return nullptr;
}

}  // namespace tessera
