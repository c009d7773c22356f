// The cutoff ladder on a GPU: every CUDA rung against the double reference on
// small systems (atoms outside the lattice, hundreds of atoms in one bin past
// its capacity, empty bins, lattices that are not region multiples, nz = 1, a
// single point, no atoms, a cutoff past the constant-memory offsets), the
// direct sum with smoothing as the check of the binned rungs, the public
// API (default pick, workspace, NaN atoms on the device, host pointers),
// graph capture of the dynamic rungs, and the harness's quick verify.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "families/cutoff/contract.hpp"
#include "families/cutoff/cpu_rungs.hpp"
#include "harness/registry.hpp"
#include "harness/runner.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/error.hpp"
#include "tessera/cutoff.hpp"
#include "test_cutoff_support.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using tessera_test::CutoffCase;

class CutoffGpu : public tessera_test::GpuFixture<::testing::Test> {
 protected:
  // The atoms and an output on the device.
  struct Device {
    DeviceBuffer<Atom> atoms;
    DeviceBuffer<float> potential;
  };
  Device upload(const CutoffCase& c) {
    Device d{DeviceBuffer<Atom>(std::max<std::size_t>(1, c.atoms.size()), "atoms"),
             DeviceBuffer<float>(c.lattice.points(), "potential")};
    if (!c.atoms.empty()) d.atoms.upload(c.atoms.data(), c.atoms.size());
    tessera_test::device_sync();
    return d;
  }
  std::vector<float> download(const Device& d) {
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    std::vector<float> out(d.potential.size());
    d.potential.download(out.data(), out.size());
    return out;
  }
  // One rung through the table, NaN-poisoned output, its own workspace.
  std::vector<float> run_rung(const cutoff_impl::CutoffVariant& v, const CutoffCase& c, Device& d) {
    const cutoff_impl::CutoffSpec spec{c.atoms.size(), c.lattice, c.cutoff};
    DeviceBytes ws(std::max<std::size_t>(256, v.workspace_bytes(spec)), "workspace");
    d.potential.fill_bytes(0xFF, stream());
    v.run({spec, d.atoms.data(), d.potential.data(), stream(), ws.data()});
    return download(d);
  }
};

TEST_F(CutoffGpu, EveryRungMatchesTheReferenceOnSmallSystems) {
  for (const auto& c : tessera_test::small_cases()) {
    const cutoff_impl::CutoffSpec spec{c.atoms.size(), c.lattice, c.cutoff};
    const auto ref = cutoff_impl::cpu::reference_potential(spec, c.atoms.data());
    auto d = upload(c);
    int ran = 0;
    for (const auto& v : cutoff_impl::variants_ladder().all()) {
      if (v.info.backend != Backend::cuda) continue;
      if (!v.supports(spec)) {
        // Only the constant-memory rungs may refuse, and only the c = 40 case.
        EXPECT_EQ(c.name, "cutoff_40_no_offsets") << v.info.name;
        continue;
      }
      ++ran;
      const auto got = run_rung(v, c, d);
      EXPECT_TRUE(tessera_test::within_float_sum(got, ref)) << c.name << " / " << v.info.name;
    }
    EXPECT_GE(ran, 4) << c.name;  // direct, const_bins, dynamic_bins, sorted_cells at least
  }
}

// The binned rungs against the direct sum with the same smoothing, in float
// on the GPU (the check): the same values to float rounding.
TEST_F(CutoffGpu, BinnedRungsAgreeWithTheDirectSumWithSmoothing) {
  const auto& ladder = cutoff_impl::variants_ladder();
  for (const auto& c : tessera_test::small_cases()) {
    if (c.atoms.empty()) continue;
    const cutoff_impl::CutoffSpec spec{c.atoms.size(), c.lattice, c.cutoff};
    const auto ref = cutoff_impl::cpu::reference_potential(spec, c.atoms.data());
    auto d = upload(c);
    const auto direct = run_rung(ladder.at("direct_smoothed", "test"), c, d);
    for (const char* name : {"cylinder", "sorted_cells", "sorted_cells_lean8", "sorted_cells_lean"}) {
      const auto& v = ladder.at(name, "test");
      if (!v.supports(spec)) continue;
      const auto got = run_rung(v, c, d);
      for (std::size_t p = 0; p < got.size(); ++p) {
        const double tol = 2 * ref.tolerance(p);  // both sides' rounding
        ASSERT_LE(std::fabs(double(got[p]) - double(direct[p])), tol) << c.name << " / " << name << " point " << p;
      }
    }
  }
}

// Host binning is deterministic; so are the rungs that use it.
TEST_F(CutoffGpu, HostBinnedRungsAreBitwiseRepeatable) {
  const auto c = tessera_test::small_cases()[1];  // the overflow cluster
  auto d = upload(c);
  for (const char* name : {"const_bins", "cylinder"}) {
    const auto& v = cutoff_impl::variants_ladder().at(name, "test");
    const auto a = run_rung(v, c, d), b = run_rung(v, c, d);
    EXPECT_EQ(a, b) << name;
  }
}

TEST_F(CutoffGpu, DynamicRungsCaptureIntoAGraph) {
  const auto c = tessera_test::small_cases()[0];
  const cutoff_impl::CutoffSpec spec{c.atoms.size(), c.lattice, c.cutoff};
  const auto ref = cutoff_impl::cpu::reference_potential(spec, c.atoms.data());
  auto d = upload(c);
  for (const char* name : {"dynamic_bins", "sorted_cells", "sorted_cells_lean8", "sorted_cells_lean"}) {
    const auto& v = cutoff_impl::variants_ladder().at(name, "test");
    DeviceBytes ws(v.workspace_bytes(spec), "workspace");
    d.potential.fill_bytes(0xFF, stream());
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    tessera_test::CapturedGraph graph(stream(), [&] {
      v.run({spec, d.atoms.data(), d.potential.data(), stream(), ws.data()});
    });
    ASSERT_TRUE(graph.ok()) << name;
    ASSERT_EQ(graph.launch(stream()), cudaSuccess);
    EXPECT_TRUE(tessera_test::within_float_sum(download(d), ref)) << name;
  }
}

TEST_F(CutoffGpu, PublicApiDefaultPickAndWorkspace) {
  const auto c = tessera_test::small_cases()[7];  // water
  const auto ref = cutoff_impl::cpu::reference_potential({c.atoms.size(), c.lattice, c.cutoff}, c.atoms.data());
  auto d = upload(c);
  EXPECT_EQ(cutoff_default_variant(c.atoms.size(), c.lattice, c.cutoff), "sorted_cells_lean8");
  d.potential.fill_bytes(0xFF, stream());
  cutoff_potential(d.atoms.data(), c.atoms.size(), c.lattice, c.cutoff, d.potential.data(), {.stream = stream()});
  EXPECT_TRUE(tessera_test::within_float_sum(download(d), ref));
  // With a workspace of cutoff_workspace_bytes, nothing is allocated.
  const std::size_t bytes = cutoff_workspace_bytes(c.atoms.size(), c.lattice, c.cutoff);
  DeviceBytes ws(bytes, "workspace");
  d.potential.fill_bytes(0xFF, stream());
  EXPECT_EQ(tessera_test::pool_bytes_used_by([&] {
              cutoff_potential(d.atoms.data(), c.atoms.size(), c.lattice, c.cutoff, d.potential.data(),
                               {.stream = stream(), .workspace = {ws.data(), bytes}});
            }),
            0u);
  EXPECT_TRUE(tessera_test::within_float_sum(download(d), ref));
  // Too small a workspace is refused.
  EXPECT_TRUE(tessera_test::has_substr(tessera_test::error_message([&] {
    cutoff_potential(d.atoms.data(), c.atoms.size(), c.lattice, c.cutoff, d.potential.data(),
                     {.stream = stream(), .workspace = {ws.data(), bytes / 2}});
  }), "workspace"));
}

TEST_F(CutoffGpu, PublicApiRefusesNonFiniteDeviceAtomsAndHostPointers) {
  auto c = tessera_test::small_cases()[0];
  c.atoms[123].z = std::numeric_limits<float>::infinity();
  c.atoms[456].x = std::numeric_limits<float>::quiet_NaN();
  auto d = upload(c);
  d.potential.fill_bytes(0, stream());
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  EXPECT_TRUE(tessera_test::has_substr(tessera_test::error_message([&] {
    cutoff_potential(d.atoms.data(), c.atoms.size(), c.lattice, c.cutoff, d.potential.data(), {.stream = stream()});
  }), "atom 123 is not finite"));
  for (float v : download(d)) ASSERT_EQ(v, 0.f);  // nothing written
  std::vector<float> host(c.lattice.points());
  EXPECT_TRUE(tessera_test::has_substr(tessera_test::error_message([&] {
    cutoff_potential(d.atoms.data(), c.atoms.size(), c.lattice, c.cutoff, host.data(), {.stream = stream()});
  }), "device memory"));
  // The constant-memory rungs refuse a cutoff their offsets cannot hold.
  const auto far = tessera_test::small_cases()[8];
  auto dfar = upload(far);
  EXPECT_TRUE(tessera_test::has_substr(tessera_test::error_message([&] {
    cutoff_potential(dfar.atoms.data(), far.atoms.size(), far.lattice, far.cutoff, dfar.potential.data(),
                     {.variant = "cylinder", .stream = stream()});
  }), "does not support"));
}

TEST_F(CutoffGpu, HarnessQuickVerify) {
  harness::RunOptions o;
  o.gpu = true;
  o.quick = true;
  o.seed = 9;
  std::ostringstream out;
  harness::DeviceInfo dev;
  const auto report = harness::run_verify(harness::parse_selector("cutoff"), o, dev, out);
  EXPECT_EQ(report.failures, 0) << out.str();
  for (const auto& r : report.results) EXPECT_TRUE(r.verified) << r.problem.label << " / " << r.variant.name;
}

}  // namespace
