// The public API's choice of variant (policy.hpp's rules) and its workspace
// query, the same in CUDA and CPU-only builds.
#include "core/gpu_present.hpp"
#include "families/stencil7/api_common.hpp"
#include "families/stencil7/policy.hpp"

namespace tessera {

std::string stencil7_default_variant(Dtype type, std::size_t, std::size_t, std::size_t, int sweeps) {
  return std::string(stencil7_impl::policy::pick(api::gpu_present(), type, sweeps));
}

std::size_t stencil7_workspace_bytes(Dtype type, std::size_t nx, std::size_t ny, std::size_t nz, int sweeps,
                                     const Stencil7Options& options) {
  using namespace stencil7_impl;
  const Stencil7Spec spec = checked_spec(type, nx, ny, nz, sweeps, 0.0, 0.0, WORKSPACE_QUERY);
  return resolve_variant(spec, options.variant, WORKSPACE_QUERY).workspace_bytes(spec);
}

}  // namespace tessera
