// The lab's coulomb rows (the split sweep) on a GPU: every point against the
// double reference on systems whose sides are not multiples of the kernel's
// block (256 x 8 points) or atom tile (128), nz = 1 and one atom. Every test
// skips when no device is present.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "coulomb_gpu_support.hpp"
#include "families/coulomb/contract.hpp"
#include "test_gpu_support.hpp"

namespace {

using namespace coulomb_test;
using tessera::coulomb_impl::CoulombVariant;

std::vector<const CoulombVariant*> tuning_rows() {
  std::vector<const CoulombVariant*> out;
  for (const auto& v : tessera::coulomb_impl::variants_ladder().all())
    if (v.info.role == tessera::Role::tuning) out.push_back(&v);
  return out;
}

class CoulombLabGpu : public tessera_test::GpuFixture<::testing::TestWithParam<const CoulombVariant*>> {};

TEST_P(CoulombLabGpu, MatchesTheDoubleReference) {
  const CoulombVariant& v = *GetParam();
  struct System {
    Lattice lattice;
    std::size_t atoms;
  };
  for (const System& s : {System{lattice(1, 1, 1), 1}, System{lattice(257, 9, 3, 0.5f, -3, -1, 2), 129},
                          System{lattice(40, 17, 1, 1.0f), 1000}}) {
    const std::vector<Atom> atoms = random_atoms(s.lattice, s.atoms, 21, true);
    const std::vector<float> got = run_on_device(v, atoms, s.lattice, stream());
    expect_matches_reference(got, atoms, s.lattice, 1e-5, std::string(v.info.name) + " " + name_of(s.lattice, s.atoms));
  }
}

INSTANTIATE_TEST_SUITE_P(Tuning, CoulombLabGpu, ::testing::ValuesIn(tuning_rows()),
                         [](const auto& info) { return std::string(info.param->info.name); });

}  // namespace
