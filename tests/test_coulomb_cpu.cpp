// The coulomb family on the CPU: every CPU rung and the public API against
// the double reference on random systems of edge sizes, the coincident-pair
// rule, and the argument errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "coulomb_test_support.hpp"
#include "families/coulomb/contract.hpp"
#include "tessera/core/error.hpp"
#include "tessera/coulomb.hpp"

namespace {

using namespace coulomb_test;
using tessera::coulomb_impl::variants_ladder;

struct System {
  Lattice lattice;
  std::size_t atoms;
  bool on_points = false;
};

const System SYSTEMS[] = {
    {lattice(1, 1, 1), 1},
    {lattice(33, 7, 5, 0.5f, -2.5f, 1.25f, 0.75f), 1},
    {lattice(17, 19, 1), 40, true},
    {lattice(1, 1, 9), 3},
    {lattice(65, 9, 3, 0.375f, -4, -4, -4), 129},
    {lattice(31, 33, 1, 1.0f), 300, true},
};

TEST(CoulombCpu, EveryCpuRungMatchesTheDoubleReference) {
  for (const auto& v : variants_ladder().all()) {
    if (v.info.backend != tessera::Backend::cpu) continue;
    for (const System& s : SYSTEMS) {
      const std::vector<Atom> atoms = random_atoms(s.lattice, s.atoms, 7, s.on_points);
      std::vector<float> out(s.lattice.points(), std::numeric_limits<float>::quiet_NaN());
      v.run({{atoms.size(), s.lattice}, atoms.data(), out.data(), nullptr});
      expect_matches_reference(out, atoms, s.lattice, 1e-5, std::string(v.info.name) + " " + name_of(s.lattice, s.atoms));
    }
  }
}

TEST(CoulombCpu, OneAtomGivesChargeOverDistance) {
  const Lattice L = lattice(5, 4, 3, 0.5f, -1, -1, -1);
  const std::vector<Atom> atoms = {{0.3f, 0.2f, -0.1f, -0.75f}};
  std::vector<float> out(L.points());
  tessera::coulomb_potential(atoms.data(), 1, L, out.data(), {.variant = "cpu_gather"});
  for (std::size_t k = 0; k < L.nz; ++k)
    for (std::size_t j = 0; j < L.ny; ++j)
      for (std::size_t i = 0; i < L.nx; ++i) {
        const double dx = -1 + 0.5 * i - 0.3, dy = -1 + 0.5 * j - 0.2, dz = -1 + 0.5 * k + 0.1;
        const double want = -0.75 / std::sqrt(dx * dx + dy * dy + dz * dz);
        EXPECT_NEAR(out[i + L.nx * (j + L.ny * k)], want, 1e-6 * std::fabs(want)) << i << "," << j << "," << k;
      }
}

TEST(CoulombCpu, AnAtomOnAPointIsLeftOutThereOnly) {
  const Lattice L = lattice(4, 4, 4);
  // Atom 0 sits on point (2, 1, 3); atom 1 is elsewhere.
  const std::vector<Atom> atoms = {{1.0f, 0.5f, 1.5f, 2.0f}, {0.2f, 0.7f, 0.1f, -1.0f}};
  for (const auto& v : variants_ladder().all()) {
    if (v.info.backend != tessera::Backend::cpu) continue;
    std::vector<float> out(L.points());
    v.run({{2, L}, atoms.data(), out.data(), nullptr});
    const std::size_t on = 2 + 4 * (1 + 4 * 3);
    const double d1 = std::sqrt(0.8 * 0.8 + 0.2 * 0.2 + 1.4 * 1.4);
    EXPECT_NEAR(out[on], -1.0 / d1, 1e-6) << v.info.name;
    for (float x : out) EXPECT_TRUE(std::isfinite(x)) << v.info.name;
    EXPECT_NEAR(out[0], 2.0 / std::sqrt(1.0 + 0.25 + 2.25) - 1.0 / std::sqrt(0.04 + 0.49 + 0.01), 1e-6) << v.info.name;
  }
}

TEST(CoulombCpu, NoAtomsWritesZeros) {
  const Lattice L = lattice(3, 2, 2);
  std::vector<float> out(L.points(), 5.0f);
  tessera::coulomb_potential(nullptr, 0, L, out.data(), {.variant = "cpu_openmp"});
  for (float x : out) EXPECT_EQ(x, 0.0f);
}

TEST(CoulombCpu, ApiDefaultMatchesTheReference) {
  const Lattice L = lattice(37, 11, 3, 0.5f, -3, -2, -1);
  const std::vector<Atom> atoms = random_atoms(L, 250, 11);
  std::vector<float> out(L.points(), std::numeric_limits<float>::quiet_NaN());
  tessera::Lattice copy = L;
  if (tessera::coulomb_default_variant(atoms.size(), L).rfind("cpu_", 0) != 0) GTEST_SKIP() << "a GPU is present";
  tessera::coulomb_potential(atoms.data(), atoms.size(), copy, out.data());
  expect_matches_reference(out, atoms, L, 1e-5, "default");
}

void expect_error(const std::vector<Atom>& atoms, const Lattice& L, float* out, const std::string& needle,
                  const std::string& variant = "cpu_openmp") {
  try {
    tessera::coulomb_potential(atoms.empty() ? nullptr : atoms.data(), atoms.size(), L, out, {.variant = variant});
    ADD_FAILURE() << "no error; expected one mentioning '" << needle << "'";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(CoulombCpu, BadArgumentsAreRefusedBeforeAnythingIsWritten) {
  const Lattice L = lattice(4, 3, 2);
  std::vector<float> out(L.points(), 7.0f);
  std::vector<Atom> atoms = random_atoms(L, 10, 3);
  expect_error(atoms, L, nullptr, "potential is a null pointer");
  try {
    tessera::coulomb_potential(nullptr, 3, L, out.data(), {.variant = "cpu_openmp"});
    ADD_FAILURE() << "null atoms accepted";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find("atoms is a null pointer"), std::string::npos) << e.what();
  }
  auto nan_atoms = atoms;
  nan_atoms[6].y = std::numeric_limits<float>::quiet_NaN();
  expect_error(nan_atoms, L, out.data(), "atom 6 has a non-finite coordinate");
  auto inf_charge = atoms;
  inf_charge[9].q = std::numeric_limits<float>::infinity();
  expect_error(inf_charge, L, out.data(), "atom 9 has a non-finite charge");
  expect_error(atoms, lattice(0, 3, 2), out.data(), "the lattice is empty");
  expect_error(atoms, lattice(4, 3, 2, 0.0f), out.data(), "spacing 0 is not a positive");
  expect_error(atoms, lattice(4, 3, 2, -0.5f), out.data(), "spacing -0.5 is not a positive");
  expect_error(atoms, lattice(4, 3, 2, 0.5f, std::numeric_limits<float>::infinity()), out.data(), "origin[0]");
  expect_error(atoms, L, out.data(), "no variant named 'nope'", "nope");
  for (float x : out) EXPECT_EQ(x, 7.0f) << "an error wrote the output";
}

}  // namespace
