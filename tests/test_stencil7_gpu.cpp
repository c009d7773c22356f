// The stencil7 ladder on the GPU: every CUDA rung, by name through the public
// API, against the definition (long double triple loop) on random grids of
// odd sizes, float and double, with sweep counts that are and are not
// multiples of temporal blocking's fused sweeps (4 float, 2 double), grids
// across its z chunks (32-128 planes) and its 56 x 24 tiles; the API's default; a
// caller's workspace (nothing allocated) and a graph capture of a rung's run;
// and the memory-kind refusal.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <limits>
#include <string>
#include <vector>

#include "families/stencil7/contract.hpp"
#include "stencil7_test_support.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"
#include "tessera/stencil.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using stencil7_test::C0;
using stencil7_test::C1;
using stencil7_test::Grid;

std::vector<std::string> gpu_variants() {
  std::vector<std::string> out;
  for (const auto& v : stencil7_impl::variants_ladder().all())
    if (v.info.backend == Backend::cuda) out.emplace_back(v.info.name);
  return out;
}

struct Case {
  Grid g;
  std::vector<int> sweeps;
};

const Case CASES[] = {
    {{3, 3, 3}, {0, 1, 4, 5}},
    {{37, 19, 23}, {1, 2, 3, 5, 8, 9}},
    {{130, 7, 9}, {1, 3, 4, 6}},
    {{4, 5, 200}, {1, 5}},        // two z chunks of temporal blocking
    {{67, 35, 131}, {2, 7}},      // several tiles in x and y, two z chunks
    {{200, 150, 10}, {1, 4}},     // many tiles, few planes
    {{3, 70, 3}, {3}},
    // nx a multiple of 4: temporal_blocking's one-sweep passes take 16-byte
    // vectors (4 floats / 2 doubles a thread): one vector a row, two, whole
    // warps, a warp and a part
    {{8, 6, 5}, {1, 5}},
    {{256, 9, 6}, {1, 3}},
    {{264, 5, 4}, {1}},
    // x-y tiles wholly inside the grid with a steady z range: temporal
    // blocking's test-free steps (and its tiles on the faces, and the
    // guarded steps at the ends of the z walk)
    {{180, 80, 23}, {2, 4, 8, 9}},
    {{181, 83, 140}, {3, 5}},
};

class Stencil7GpuRung : public tessera_test::GpuFixture<::testing::TestWithParam<std::string>> {
 protected:
  template <class T>
  std::vector<T> run_device(const std::vector<T>& in, const Grid& g, int sweeps, const std::string& variant) {
    DeviceBuffer<T> d_in(g.cells()), d_out(g.cells());
    d_in.upload(in.data(), in.size());
    d_out.fill_bytes(0xFF, stream());  // NaN: a cell not written fails
    tessera_test::device_sync();
    stencil7(d_in.data(), d_out.data(), g.nx, g.ny, g.nz, sweeps, T(C0), T(C1),
             {.variant = variant, .stream = stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    std::vector<T> out(g.cells());
    d_out.download(out.data(), out.size());
    // The input is never written.
    std::vector<T> back(g.cells());
    d_in.download(back.data(), back.size());
    EXPECT_EQ(0, std::memcmp(back.data(), in.data(), in.size() * sizeof(T))) << variant << ": d_in was written";
    return out;
  }

  template <class T>
  void check_all_cases(const std::string& variant) {
    unsigned seed = 100;
    for (const Case& c : CASES)
      for (int sweeps : c.sweeps) {
        const std::vector<T> in = stencil7_test::random_grid<T>(c.g, ++seed);
        const auto want = stencil7_test::expected(in, c.g, sweeps, C0, C1);
        const std::vector<T> got = run_device(in, c.g, sweeps, variant);
        const std::string what = variant + " " + std::to_string(c.g.nx) + "x" + std::to_string(c.g.ny) + "x" +
                                 std::to_string(c.g.nz) + " sweeps=" + std::to_string(sweeps) +
                                 (sizeof(T) == 4 ? " float" : " double");
        stencil7_test::expect_matches(got, want, in, c.g, sweeps, what);
        if (sweeps == 0) {
          EXPECT_EQ(0, std::memcmp(got.data(), in.data(), in.size() * sizeof(T))) << what;
        }
      }
  }
};

TEST_P(Stencil7GpuRung, MatchesTheDefinitionFloat) { check_all_cases<float>(GetParam()); }
TEST_P(Stencil7GpuRung, MatchesTheDefinitionDouble) { check_all_cases<double>(GetParam()); }

// A caller's workspace: nothing allocated, and the run can be captured into
// a graph whose replay gives the same grid.
TEST_P(Stencil7GpuRung, WorkspaceGivenAndGraphCapture) {
  const Grid g{45, 29, 140};
  const int sweeps = 6;
  const std::vector<float> in = stencil7_test::random_grid<float>(g, 77);
  const std::vector<float> direct = run_device(in, g, sweeps, GetParam());
  DeviceBuffer<float> d_in(g.cells()), d_out(g.cells());
  d_in.upload(in.data(), in.size());
  tessera_test::device_sync();
  const std::size_t ws_bytes = stencil7_workspace_bytes(Dtype::f32, g.nx, g.ny, g.nz, sweeps, {.variant = GetParam()});
  EXPECT_EQ(ws_bytes, g.cells() * sizeof(float));
  DeviceBytes ws(ws_bytes);
  const Stencil7Options o{.variant = GetParam(), .stream = stream(), .workspace = {ws.data(), ws.bytes()}};
  const auto call = [&] { stencil7(d_in.data(), d_out.data(), g.nx, g.ny, g.nz, sweeps, float(C0), float(C1), o); };
  EXPECT_EQ(tessera_test::pool_bytes_used_by(call), 0u);
  const auto& v = stencil7_impl::variants_ladder().at(GetParam(), "test");
  const stencil7_impl::Stencil7Spec spec{Dtype::f32, g.nx, g.ny, g.nz, sweeps, C0, C1};
  d_out.fill_bytes(0xFF, stream());
  tessera_test::CapturedGraph graph(stream(), [&] { v.run({spec, d_in.data(), d_out.data(), ws.data(), stream()}); });
  ASSERT_TRUE(graph.ok());
  ASSERT_EQ(graph.launch(stream()), cudaSuccess);
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  std::vector<float> replayed(g.cells());
  d_out.download(replayed.data(), replayed.size());
  EXPECT_EQ(0, std::memcmp(replayed.data(), direct.data(), direct.size() * sizeof(float)));
}

INSTANTIATE_TEST_SUITE_P(Rungs, Stencil7GpuRung, ::testing::ValuesIn(gpu_variants()),
                         [](const auto& info) { return info.param; });

class Stencil7GpuApi : public tessera_test::GpuFixture<::testing::Test> {};

TEST_F(Stencil7GpuApi, DefaultPickAndMemoryKinds) {
  const Grid g{61, 33, 27};
  const std::vector<double> in = stencil7_test::random_grid<double>(g, 11);
  DeviceBuffer<double> d_in(g.cells()), d_out(g.cells());
  d_in.upload(in.data(), in.size());
  tessera_test::device_sync();
  EXPECT_EQ(stencil7_default_variant(Dtype::f64, g.nx, g.ny, g.nz, 3), "temporal_blocking");
  stencil7(d_in.data(), d_out.data(), g.nx, g.ny, g.nz, 3, C0, C1, {.stream = stream()});
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  std::vector<double> got(g.cells());
  d_out.download(got.data(), got.size());
  stencil7_test::expect_matches(got, stencil7_test::expected(in, g, 3, C0, C1), in, g, 3, "default");
  // Host memory for a GPU variant is refused, nothing written.
  std::vector<double> host_out(g.cells(), 42.0);
  try {
    stencil7(in.data(), host_out.data(), g.nx, g.ny, g.nz, 3, C0, C1, {.variant = "temporal_blocking"});
    ADD_FAILURE() << "host pointers accepted by a GPU variant";
  } catch (const Error& e) {
    EXPECT_TRUE(tessera_test::has_substr(e.what(), "device memory")) << e.what();
  }
  for (double v : host_out) ASSERT_EQ(v, 42.0);
}

// Pointers that are not 16-byte aligned: the one-sweep pass falls back to one
// cell per thread, and the result is the same.
TEST_F(Stencil7GpuApi, UnalignedPointersOneSweep) {
  const Grid g{64, 9, 7};
  const std::vector<float> in = stencil7_test::random_grid<float>(g, 5);
  DeviceBuffer<float> d_in(g.cells() + 1), d_out(g.cells() + 1);
  TESSERA_CUDA(cudaMemcpy(d_in.data() + 1, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  tessera_test::device_sync();
  stencil7(d_in.data() + 1, d_out.data() + 1, g.nx, g.ny, g.nz, 1, float(C0), float(C1),
           {.variant = "temporal_blocking", .stream = stream()});
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  std::vector<float> got(g.cells());
  TESSERA_CUDA(cudaMemcpy(got.data(), d_out.data() + 1, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  stencil7_test::expect_matches(got, stencil7_test::expected(in, g, 1, C0, C1), in, g, 1, "unaligned");
}

}  // namespace
