// The public API's choice of variant (policy.hpp's rules) and its workspace
// query, the same in CUDA and CPU-only builds.
#include "core/gpu_present.hpp"
#include "families/transpose/contract.hpp"
#include "families/transpose/policy.hpp"
#include "tessera/transpose.hpp"

namespace tessera {

std::string transpose_default_variant(Dtype, std::size_t, std::size_t) {
  return std::string(transpose_impl::policy::pick(api::gpu_present()));
}

std::size_t transpose_workspace_bytes(Dtype, std::size_t, std::size_t, const TransposeOptions& options) {
  if (!options.variant.empty()) (void)transpose_impl::variants_ladder().at(options.variant, "tessera::transpose");
  return 0;  // every variant moves each element once, input to output
}

}  // namespace tessera
