// Public coulomb API (CUDA builds): checks, memory kinds, dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/coulomb/api_common.hpp"
#include "families/coulomb/policy.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

std::string coulomb_default_variant(std::size_t, const Lattice&) {
  return std::string(coulomb_impl::policy::pick(api::gpu_present()));
}

void coulomb_potential(const Atom* atoms, std::size_t n_atoms, const Lattice& lattice, float* potential,
                       const CoulombOptions& options) {
  using namespace coulomb_impl;
  check_lattice(lattice, atoms, n_atoms, potential);
  const CoulombSpec spec{n_atoms, lattice};
  const CoulombVariant& v = resolve(spec, options.variant);
  if (n_atoms > 0) api::require_memory(v.info.backend, atoms, "atoms", WHO, v.info.name);
  api::require_memory(v.info.backend, potential, "potential", WHO, v.info.name);
  if (v.info.backend == Backend::cpu) {
    check_atoms(atoms, n_atoms);
    api::wait_for_stream(options.stream);  // CPU variants run in stream order
    v.run({spec, atoms, potential, options.stream});
    return;
  }
  // The atoms' values are checked on the host before any kernel runs.
  std::vector<Atom> host(n_atoms);
  if (n_atoms > 0) {
    TESSERA_CUDA(cudaMemcpyAsync(host.data(), atoms, n_atoms * sizeof(Atom), cudaMemcpyDeviceToHost, options.stream));
    TESSERA_CUDA(cudaStreamSynchronize(options.stream));
  }
  check_atoms(host.data(), n_atoms);
  v.run({spec, atoms, potential, options.stream});
  TESSERA_CUDA(cudaStreamSynchronize(options.stream));
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
