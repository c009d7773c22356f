// Public cutoff API in CPU-only builds: host pointers, the CPU rungs.
#if !TESSERA_HAVE_CUDA  // api.cpp serves CUDA builds
#include "families/cutoff/api_common.hpp"

namespace tessera {

void cutoff_potential(const Atom* atoms, std::size_t n_atoms, const Lattice& lattice, float cutoff, float* potential,
                      const CutoffOptions& o) {
  const cutoff_impl::CutoffSpec spec{n_atoms, lattice, cutoff};
  cutoff_impl::check_spec(spec);
  cutoff_impl::check_pointers(spec, atoms, potential);
  const cutoff_impl::CutoffVariant& v = cutoff_impl::resolve_variant(spec, o.variant);
  cutoff_impl::check_atoms(atoms, n_atoms);
  v.run({spec, atoms, potential, nullptr, nullptr});
}

}  // namespace tessera

#endif  // !TESSERA_HAVE_CUDA
