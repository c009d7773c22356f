// tessera::mri_q on the GPU: every CUDA rung of the ladder against the
// double definition (error <= 1e-4 of max|Q|) on random inputs whose sizes
// cut the block (256), the coarsened block (1024), the group of 4 samples
// and the 2048-sample chunk; num_k = 0 and 1; the input scan's errors on
// device memory; the workspace; the default variant.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <limits>
#include <string>
#include <vector>

#include "families/mriq/contract.hpp"
#include "mriq_test_support.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/error.hpp"
#include "tessera/mriq.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"

namespace {

using mriq_test::Inputs;
using tessera::DeviceBuffer;
using tessera_test::error_message;
using tessera_test::has_substr;

// The inputs on the device, in the order of the API's arguments.
struct DeviceInputs {
  std::vector<DeviceBuffer<float>> a;
  explicit DeviceInputs(const Inputs& in) {
    for (const auto* v : {&in.kx, &in.ky, &in.kz, &in.phi_r, &in.phi_i, &in.x, &in.y, &in.z}) {
      a.emplace_back(std::max<std::size_t>(v->size(), 1), "mriq test input");
      a.back().upload(v->data(), v->size());
    }
    tessera_test::device_sync();  // pageable uploads may still be in flight
  }
};

std::vector<std::string> cuda_variants() {
  std::vector<std::string> out;
  for (const auto& v : tessera::mriq_impl::variants_ladder().all())
    if (v.info.backend == tessera::Backend::cuda) out.emplace_back(v.info.name);
  return out;
}

class MriqGpu : public tessera_test::GpuFixture<::testing::TestWithParam<std::string>> {
 protected:
  std::vector<float> last_qr, last_qi;  // the outputs of the last run()

  // Runs the variant through the public API; returns max error / max|Q|.
  double run(const Inputs& in, tessera::MriqOptions o) {
    const std::size_t X = in.num_x();
    DeviceInputs d(in);
    DeviceBuffer<float> qr(std::max<std::size_t>(X, 1)), qi(std::max<std::size_t>(X, 1));
    qr.fill_bytes(0xFF, stream());  // NaN: an unwritten output fails
    qi.fill_bytes(0xFF, stream());
    o.stream = stream();
    tessera::mri_q(d.a[0].data(), d.a[1].data(), d.a[2].data(), d.a[3].data(), d.a[4].data(), in.num_k(),
                   d.a[5].data(), d.a[6].data(), d.a[7].data(), X, qr.data(), qi.data(), o);
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    std::vector<float> gr(X), gi(X);
    qr.download(gr.data(), X);
    qi.download(gi.data(), X);
    std::vector<double> rr, ri;
    mriq_test::reference(in, rr, ri);
    last_qr = gr;
    last_qi = gi;
    return mriq_test::relative_error(gr, gi, rr, ri);
  }
};

// Rows marked deterministic give the same bits run after run (the slices'
// partial sums are added in order, never with atomics).
TEST_P(MriqGpu, DeterministicRowsRepeatBitForBit) {
  const auto& v = tessera::mriq_impl::variants_ladder().at(GetParam(), "test");
  if (!v.info.deterministic) GTEST_SKIP() << GetParam() << " uses float atomics";
  const Inputs in = mriq_test::random_inputs(4100, 1500, 31, 16.0f);
  (void)run(in, {.variant = GetParam()});
  const auto qr = last_qr, qi = last_qi;
  (void)run(in, {.variant = GetParam()});
  EXPECT_EQ(qr, last_qr);
  EXPECT_EQ(qi, last_qi);
}

TEST_P(MriqGpu, MatchesDoubleDefinition) {
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1},     {1, 1000}, {2, 257},    {3, 1025},
                                                        {5, 1023},  {2047, 333}, {2048, 1024}, {2049, 1031},
                                                        {4097, 257}, {300, 4099}};
  for (auto [k, x] : shapes) {
    const Inputs in = mriq_test::random_inputs(k, x, 500 + k + 3 * x, 16.0f);
    const double err = run(in, {.variant = GetParam()});
    EXPECT_LE(err, 1e-4) << GetParam() << ": " << k << " samples, " << x << " voxels";
    // With many samples the phase errors of k.x in float (~1e-5 rad per
    // term at |k.x| ~ 20 turns) average out against max|Q| ~ num_k: the
    // polynomial path must then sit far below the bound (a wrong quadrant
    // or reduction shows as O(1) errors).
    if (GetParam() == "turns_poly" && k >= 2047) {
      EXPECT_LE(err, 1e-5) << k << " samples, " << x << " voxels";
    }
  }
}

TEST_P(MriqGpu, NoSamplesGiveZero) {
  const Inputs in = mriq_test::random_inputs(0, 1500, 9);
  EXPECT_EQ(run(in, {.variant = GetParam()}), 0.0) << "Q must be exactly 0";
}

TEST_P(MriqGpu, CallerWorkspace) {
  const Inputs in = mriq_test::random_inputs(2100, 700, 10);
  const std::size_t bytes = tessera::mri_q_workspace_bytes(2100, 700, {.variant = GetParam()});
  DeviceBuffer<unsigned char> ws(std::max<std::size_t>(bytes, 1));
  EXPECT_LE(run(in, {.variant = GetParam(), .workspace = {ws.data(), bytes}}), 1e-4);
}

// A rung's run only enqueues work (no allocation, no synchronisation): it
// captures into a graph whose launch gives the right Q. The constant-memory
// rungs' chunk copies are captured as memcpy nodes.
TEST_P(MriqGpu, RunCapturesIntoAGraph) {
  const auto& v = tessera::mriq_impl::variants_ladder().at(GetParam(), "test");
  const Inputs in = mriq_test::random_inputs(2500, 1300, 41, 16.0f);
  const std::size_t X = in.num_x();
  DeviceInputs d(in);
  DeviceBuffer<float> qr(X), qi(X);
  const tessera::mriq_impl::MriqSpec spec{in.num_k(), X};
  DeviceBuffer<unsigned char> ws(std::max<std::size_t>(v.workspace_bytes(spec), 1));
  const tessera::mriq_impl::MriqCall call{spec,
                                          {d.a[0].data(), d.a[1].data(), d.a[2].data(), d.a[3].data(), d.a[4].data()},
                                          {d.a[5].data(), d.a[6].data(), d.a[7].data()},
                                          qr.data(),
                                          qi.data(),
                                          ws.data(),
                                          stream()};
  const tessera_test::CapturedGraph graph(stream(), [&] { v.run(call); });
  ASSERT_TRUE(graph.ok());
  qr.fill_bytes(0xFF, stream());
  qi.fill_bytes(0xFF, stream());
  ASSERT_EQ(graph.launch(stream()), cudaSuccess);
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  std::vector<float> gr(X), gi(X);
  qr.download(gr.data(), X);
  qi.download(gi.data(), X);
  std::vector<double> rr, ri;
  mriq_test::reference(in, rr, ri);
  EXPECT_LE(mriq_test::relative_error(gr, gi, rr, ri), 1e-4);
}

INSTANTIATE_TEST_SUITE_P(Rungs, MriqGpu, ::testing::ValuesIn(cuda_variants()),
                         [](const auto& info) { return info.param; });

class MriqGpuApi : public tessera_test::GpuFixture<::testing::Test> {};

TEST_F(MriqGpuApi, DefaultIsTheSplitWithinTolerance) {
  EXPECT_EQ(tessera::mri_q_default_variant(262144, 262144), "mufu_fma_split");
  const Inputs in = mriq_test::random_inputs(4096 + 3, 2000, 12, 32.0f);
  DeviceInputs d(in);
  DeviceBuffer<float> qr(2000), qi(2000);
  tessera::mri_q(d.a[0].data(), d.a[1].data(), d.a[2].data(), d.a[3].data(), d.a[4].data(), in.num_k(),
                 d.a[5].data(), d.a[6].data(), d.a[7].data(), 2000, qr.data(), qi.data(), {.stream = stream()});
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  std::vector<float> gr(2000), gi(2000);
  qr.download(gr.data(), 2000);
  qi.download(gi.data(), 2000);
  std::vector<double> rr, ri;
  mriq_test::reference(in, rr, ri);
  EXPECT_LE(mriq_test::relative_error(gr, gi, rr, ri), 1e-4);
}

TEST_F(MriqGpuApi, DeviceNanNamedAndNothingWritten) {
  Inputs in = mriq_test::random_inputs(3000, 600, 13);
  in.ky[2999] = std::numeric_limits<float>::quiet_NaN();
  in.y[17] = std::numeric_limits<float>::infinity();
  DeviceInputs d(in);
  DeviceBuffer<float> qr(600), qi(600);
  qr.fill_bytes(0x3F, stream());
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  const std::string msg = error_message([&] {
    tessera::mri_q(d.a[0].data(), d.a[1].data(), d.a[2].data(), d.a[3].data(), d.a[4].data(), 3000,
                   d.a[5].data(), d.a[6].data(), d.a[7].data(), 600, qr.data(), qi.data(), {.stream = stream()});
  });
  // The first array in argument order: ky before y.
  EXPECT_TRUE(has_substr(msg, "ky[2999] is NaN"));
  std::vector<unsigned char> bytes(600 * 4);
  TESSERA_CUDA(cudaMemcpy(bytes.data(), qr.data(), bytes.size(), cudaMemcpyDeviceToHost));
  for (unsigned char b : bytes) ASSERT_EQ(b, 0x3F);
}

TEST_F(MriqGpuApi, HostPointerForGpuVariantRefused) {
  const Inputs in = mriq_test::random_inputs(4, 6, 14);
  std::vector<float> qr(6), qi(6);
  const std::string msg = error_message([&] {
    tessera::mri_q(in.kx.data(), in.ky.data(), in.kz.data(), in.phi_r.data(), in.phi_i.data(), 4, in.x.data(),
                   in.y.data(), in.z.data(), 6, qr.data(), qi.data(), {.variant = "global_aos"});
  });
  EXPECT_TRUE(has_substr(msg, "kx must point to device memory"));
}

TEST_F(MriqGpuApi, WorkspaceTooSmallRefused) {
  const Inputs in = mriq_test::random_inputs(100, 60, 15);
  DeviceInputs d(in);
  DeviceBuffer<float> qr(60), qi(60);
  DeviceBuffer<unsigned char> ws(64);
  const std::string msg = error_message([&] {
    tessera::mri_q(d.a[0].data(), d.a[1].data(), d.a[2].data(), d.a[3].data(), d.a[4].data(), 100, d.a[5].data(),
                   d.a[6].data(), d.a[7].data(), 60, qr.data(), qi.data(),
                   {.variant = "mufu_fma_split", .stream = stream(), .workspace = {ws.data(), 64}});
  });
  EXPECT_TRUE(has_substr(msg, "workspace"));
}

}  // namespace
