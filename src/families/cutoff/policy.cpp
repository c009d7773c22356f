// The public API's choice of variant (policy.hpp) and its workspace query,
// the same in CUDA and CPU-only builds.
#include "core/gpu_present.hpp"
#include "families/cutoff/api_common.hpp"
#include "families/cutoff/policy.hpp"

namespace tessera {

std::string cutoff_default_variant(std::size_t, const Lattice&, float) {
  return std::string(cutoff_impl::policy::pick(api::gpu_present()));
}

std::size_t cutoff_workspace_bytes(std::size_t n_atoms, const Lattice& lattice, float cutoff,
                                   const CutoffOptions& options) {
  const cutoff_impl::CutoffSpec spec{n_atoms, lattice, cutoff};
  cutoff_impl::check_spec(spec);
  const auto& v = cutoff_impl::resolve_variant(spec, options.variant);
  if (v.info.backend == Backend::cpu) return 0;
  // The variant's scratch (rounded to 256 bytes), then the slot in which the
  // call checks the atoms on the GPU (api.cpp).
  return (v.workspace_bytes(spec) + 255) / 256 * 256 + 256;
}

}  // namespace tessera
