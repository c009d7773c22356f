// Public coulomb API in CPU-only builds: host pointers, the CPU rungs.
#if !TESSERA_HAVE_CUDA  // CPU-only builds; api.cpp serves CUDA builds
#include "families/coulomb/api_common.hpp"
#include "families/coulomb/policy.hpp"

namespace tessera {

std::string coulomb_default_variant(std::size_t, const Lattice&) {
  return std::string(coulomb_impl::policy::pick(false));
}

void coulomb_potential(const Atom* atoms, std::size_t n_atoms, const Lattice& lattice, float* potential,
                       const CoulombOptions& options) {
  using namespace coulomb_impl;
  check_lattice(lattice, atoms, n_atoms, potential);
  check_atoms(atoms, n_atoms);
  const CoulombSpec spec{n_atoms, lattice};
  resolve(spec, options.variant).run({spec, atoms, potential, options.stream});
}

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
