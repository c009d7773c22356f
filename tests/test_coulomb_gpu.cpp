// The coulomb family's CUDA rungs and the public API on a GPU, every point
// against the double reference on small random systems: sides that are not
// multiples of the blocks or coarsenings, nz = 1, one atom, atom counts
// across the constant-memory chunk and the shared-memory tile, atoms on
// lattice points. CUDA builds only; every test skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "coulomb_test_support.hpp"
#include "families/coulomb/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/coulomb.hpp"
#include "coulomb_gpu_support.hpp"
#include "test_gpu_support.hpp"

namespace {

using namespace coulomb_test;
using tessera::coulomb_impl::CoulombVariant;
using tessera::coulomb_impl::variants_ladder;
using coulomb_test::run_on_device;

std::vector<const CoulombVariant*> gpu_variants() {
  std::vector<const CoulombVariant*> out;
  for (const auto& v : variants_ladder().all())
    if (v.info.backend == tessera::Backend::cuda) out.push_back(&v);
  return out;
}

struct System {
  Lattice lattice;
  std::size_t atoms;
  bool on_points = false;
};

const System SYSTEMS[] = {
    {lattice(1, 1, 1), 1},
    {lattice(33, 7, 5, 0.5f, -2.5f, 1.25f, 0.75f), 1},
    {lattice(17, 19, 1), 40, true},
    {lattice(257, 3, 2), 100},
    {lattice(300, 17, 3, 0.375f, -4, -4, -4), 129},
    {lattice(255, 9, 2, 0.25f, 1, 2, 3), 257, true},
    {lattice(65, 9, 3), 4001},
    {lattice(40, 11, 1, 1.0f, -8, -8, 0), 8100},
    {lattice(513, 21, 2), 1000},
};

class CoulombGpu : public tessera_test::GpuFixture<::testing::TestWithParam<const CoulombVariant*>> {};

// float rsqrt and float sums: 1e-5 of sum |q|/r (2 Newton steps: 4.7e-6 per
// term at most).
constexpr double TOL = 1e-5;

TEST_P(CoulombGpu, MatchesTheDoubleReference) {
  const CoulombVariant& v = *GetParam();
  for (const System& s : SYSTEMS) {
    const tessera::coulomb_impl::CoulombSpec spec{s.atoms, s.lattice};
    if (!v.supports(spec)) continue;
    const std::vector<Atom> atoms = random_atoms(s.lattice, s.atoms, 5, s.on_points);
    const std::vector<float> got = run_on_device(v, atoms, s.lattice, stream());
    expect_matches_reference(got, atoms, s.lattice, TOL, std::string(v.info.name) + " " + name_of(s.lattice, s.atoms));
  }
}

TEST_P(CoulombGpu, NoAtomsWritesZeros) {
  const Lattice L = lattice(70, 5, 2);
  const std::vector<float> got = run_on_device(*GetParam(), {}, L, stream());
  for (float x : got) ASSERT_EQ(x, 0.0f);
}

INSTANTIATE_TEST_SUITE_P(Rungs, CoulombGpu, ::testing::ValuesIn(gpu_variants()),
                         [](const auto& info) { return std::string(info.param->info.name); });

using CoulombSharedRowsGpu = tessera_test::GpuFixture<::testing::Test>;

// The shared-rows kernel does the per-atom kernel's float operations in the
// same order, only elsewhere: where the lattice alone fills the launch (fewer
// than 2048 atoms: one atom range, plain stores) the two sums agree bit for
// bit, including tiles that take the guarded form (atoms on lattice points)
// and tiles that do not.
TEST_F(CoulombSharedRowsGpu, SameBitsAsThePerAtomKernel) {
  const auto* per_atom = variants_ladder().find("mufu_fma_split");
  const auto* shared_rows = variants_ladder().find("mufu_fma_split_shared_rows");
  ASSERT_NE(per_atom, nullptr);
  ASSERT_NE(shared_rows, nullptr);
  for (const System& s : {System{lattice(300, 17, 3, 0.375f, -4, -4, -4), 1000, true},
                          System{lattice(257, 9, 2), 700, false}, System{lattice(31, 33, 1), 1500, true}}) {
    const std::vector<Atom> atoms = random_atoms(s.lattice, s.atoms, 21, s.on_points);
    const std::vector<float> a = run_on_device(*per_atom, atoms, s.lattice, stream());
    const std::vector<float> b = run_on_device(*shared_rows, atoms, s.lattice, stream());
    ASSERT_EQ(a.size(), b.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differ += a[i] != b[i];
    EXPECT_EQ(differ, 0u) << name_of(s.lattice, s.atoms);
  }
}

// The target's error, < 1e-6 of sum |q|/r against the double reference, in
// the split's worst case: charges of one sign, so the FMA-pipe rsqrt's
// one-signed error cannot cancel between atoms. 40 atoms keep the float
// accumulation's own rounding near 4e-7 (host emulation), so the rsqrt's
// error shows: the pick's series step (4.4e-7 per term, mean 7e-8) passes,
// 2 Newton steps (mean 1.9e-6) would fail here (3.2e-6 emulated).
TEST_F(CoulombSharedRowsGpu, ThePickMeetsTheTargetWithChargesOfOneSign) {
  constexpr std::size_t ATOMS = 40;
  const auto* pick = variants_ladder().find(tessera::coulomb_default_variant(ATOMS, lattice(256, 24, 2)));
  ASSERT_NE(pick, nullptr);
  for (const Lattice& L : {lattice(256, 24, 2, 0.5f, -3, -2, -1), lattice(64, 64, 1, 0.25f)}) {
    std::vector<Atom> atoms = random_atoms(L, ATOMS, 33);
    for (Atom& a : atoms) a.q = std::fabs(a.q);
    const std::vector<float> got = run_on_device(*pick, atoms, L, stream());
    expect_matches_reference(got, atoms, L, 1e-6, std::string(pick->info.name) + " one sign " + name_of(L, ATOMS));
  }
}

using CoulombApiGpu = tessera_test::GpuFixture<::testing::Test>;

TEST_F(CoulombApiGpu, DefaultIsAProductRowAndMatchesTheReference) {
  const Lattice L = lattice(100, 13, 3, 0.5f, -5, -3, -1);
  const auto* pick = variants_ladder().find(tessera::coulomb_default_variant(500, L));
  ASSERT_NE(pick, nullptr);
  EXPECT_EQ(pick->info.role, tessera::Role::product);
  const std::vector<Atom> atoms = random_atoms(L, 500, 9);
  tessera::DeviceBuffer<Atom> d_atoms(atoms.size(), "atoms");
  d_atoms.upload(atoms.data(), atoms.size());
  tessera::DeviceBuffer<float> d_out(L.points(), "potential");
  tessera::coulomb_potential(d_atoms.data(), atoms.size(), L, d_out.data(), {.stream = stream()});
  std::vector<float> got(L.points());
  d_out.download(got.data(), got.size());
  expect_matches_reference(got, atoms, L, TOL, "default");
}

TEST_F(CoulombApiGpu, ANanAtomOnTheDeviceIsNamedAndNothingRuns) {
  const Lattice L = lattice(8, 8, 2);
  std::vector<Atom> atoms = random_atoms(L, 20, 4);
  atoms[13].z = std::numeric_limits<float>::quiet_NaN();
  tessera::DeviceBuffer<Atom> d_atoms(atoms.size(), "atoms");
  d_atoms.upload(atoms.data(), atoms.size());
  tessera::DeviceBuffer<float> d_out(L.points(), "potential");
  d_out.fill_bytes(0, stream());
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  try {
    tessera::coulomb_potential(d_atoms.data(), atoms.size(), L, d_out.data(), {.stream = stream()});
    ADD_FAILURE() << "NaN accepted";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find("atom 13"), std::string::npos) << e.what();
  }
  std::vector<float> got(L.points());
  d_out.download(got.data(), got.size());
  for (float x : got) ASSERT_EQ(x, 0.0f);
}

TEST_F(CoulombApiGpu, HostPointersAreRefusedForGpuVariants) {
  const Lattice L = lattice(4, 4, 1);
  std::vector<Atom> atoms = random_atoms(L, 3, 1);
  std::vector<float> out(L.points());
  EXPECT_THROW(tessera::coulomb_potential(atoms.data(), atoms.size(), L, out.data(), {.variant = "gather"}),
               tessera::Error);
}

}  // namespace
