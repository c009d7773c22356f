// The public API's choice of variant (policy.hpp) and its workspace query,
// the same in CUDA and CPU-only builds.
#include "core/gpu_present.hpp"
#include "families/mriq/contract.hpp"
#include "families/mriq/policy.hpp"
#include "tessera/mriq.hpp"

namespace tessera {

std::string mri_q_default_variant(std::size_t, std::size_t) {
  return std::string(mriq_impl::policy::pick(api::gpu_present()));
}

std::size_t mri_q_workspace_bytes(std::size_t num_k, std::size_t num_x, const MriqOptions& options) {
  const std::string name = options.variant.empty() ? mri_q_default_variant(num_k, num_x) : options.variant;
  return mriq_impl::variants_ladder().at(name, "tessera::mri_q").workspace_bytes({num_k, num_x});
}

}  // namespace tessera
