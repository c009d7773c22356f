// The convnet CPU rungs and the public API's argument checks (every build).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "convnet_test_support.hpp"
#include "core/gpu_present.hpp"
#include "families/convnet/policy.hpp"
#include "tessera/convnet.hpp"
#include "tessera/core/error.hpp"

namespace {

using convnet_test::layer;
using tessera::ConvShape;

class ConvCpu : public ::testing::TestWithParam<std::string> {};

TEST_P(ConvCpu, EdgeLayersWithinTheFp32Bound) {
  std::uint32_t seed = 1;
  for (const ConvShape& s : convnet_test::edge_layers()) {
    SCOPED_TRACE(convnet_test::name_of(s));
    const auto x = convnet_test::random_floats(convnet_test::x_elems(s), seed++);
    const auto w = convnet_test::random_floats(convnet_test::w_elems(s), seed++);
    std::vector<float> y(convnet_test::y_elems(s), std::nanf(""));
    tessera::conv_forward(x.data(), w.data(), y.data(), s, {.variant = GetParam()});
    EXPECT_TRUE(convnet_test::within_bound(y, convnet_test::expected(s, x, w)));
  }
}

INSTANTIATE_TEST_SUITE_P(Rungs, ConvCpu, ::testing::Values("cpu_reference", "cpu_openmp"));

TEST(ConvCpu, ReferenceAndOpenmpAgreeOnALeNetBatch) {
  const ConvShape s = layer(4, 6, 14, 14, 16, 5);
  const auto x = convnet_test::random_floats(convnet_test::x_elems(s), 7);
  const auto w = convnet_test::random_floats(convnet_test::w_elems(s), 8);
  std::vector<float> a(convnet_test::y_elems(s)), b(a.size());
  tessera::conv_forward(x.data(), w.data(), a.data(), s, {.variant = "cpu_reference"});
  tessera::conv_forward(x.data(), w.data(), b.data(), s, {.variant = "cpu_openmp"});
  const auto ans = convnet_test::expected(s, x, w);
  EXPECT_TRUE(convnet_test::within_bound(a, ans));
  EXPECT_TRUE(convnet_test::within_bound(b, ans));
  double max_diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) max_diff = std::max(max_diff, double(std::fabs(a[i] - b[i])));
  EXPECT_LT(max_diff, 1e-3);
}

TEST(ConvCpu, OutputSizesAndDefaults) {
  EXPECT_EQ(layer(1, 3, 227, 227, 96, 11, 0, 4).out_h(), 55u);
  EXPECT_EQ(layer(1, 64, 56, 56, 64, 3, 1).out_w(), 56u);
  EXPECT_EQ(layer(1, 1, 32, 32, 6, 5).out_h(), 28u);
  EXPECT_EQ(layer(1, 1, 8, 6, 1, 3, 2, 3).out_w(), 3u);  // (6 + 4 - 3) / 3 + 1
  if (!tessera::api::gpu_present()) {
    EXPECT_EQ(tessera::conv_forward_default_variant(layer(1, 3, 8, 8, 4, 3)), "cpu_openmp");
  }
  EXPECT_EQ(tessera::conv_forward_workspace_bytes(layer(1, 3, 8, 8, 4, 3), {.variant = "cpu_openmp"}), 0u);
  EXPECT_EQ(tessera::conv_forward_workspace_bytes(layer(1, 3, 8, 8, 4, 3), {.variant = "cpu_reference"}), 0u);
}

// The GPU policy picks, on the bench's layers, the rung the H100 measured
// fastest among tessera's (policy.hpp cites the rows).
TEST(ConvCpu, GpuPolicyFollowsTheMeasuredWinners) {
  auto gpu_pick = [](const ConvShape& s) {
    return std::string(tessera::conv_impl::policy::pick(tessera::conv_impl::make_spec(s), true));
  };
  // 3x3 stride 1, c and m >= 32, at least 128 4x4 tiles and 2^27 flops (measured, policy.hpp).
  EXPECT_EQ(gpu_pick(layer(64, 64, 56, 56, 64, 3, 1)), "winograd_f4x3");   // 12,544 tiles
  EXPECT_EQ(gpu_pick(layer(64, 512, 7, 7, 512, 3, 1)), "winograd_f4x3");   // 256 tiles
  EXPECT_EQ(gpu_pick(layer(64, 256, 13, 13, 384, 3, 1)), "winograd_f4x3");
  EXPECT_EQ(gpu_pick(layer(1, 64, 56, 56, 64, 3, 1)), "winograd_f4x3");    // 196 tiles
  EXPECT_EQ(gpu_pick(layer(1, 256, 13, 13, 384, 3, 1)), "implicit_gemm");  // 16 tiles
  EXPECT_EQ(gpu_pick(layer(1, 512, 7, 7, 512, 3, 1)), "implicit_gemm");    // 4 tiles
  EXPECT_EQ(gpu_pick(layer(8, 16, 56, 56, 64, 3, 1)), "winograd_fused");   // c 16: below the F(4x4) rule
  EXPECT_EQ(gpu_pick(layer(1, 32, 56, 56, 32, 3, 1)), "winograd_fused");   // 196 tiles, 5.8e7 flops < 2^27
  EXPECT_EQ(gpu_pick(layer(1, 64, 44, 44, 64, 3, 1)), "implicit_gemm");    // 121 4x4 tiles, 484 2x2 tiles
  // LeNet-5's layers (at most 2^25 flops): resident_image (measured 1.38-3.38x cuDNN).
  EXPECT_EQ(gpu_pick(layer(64, 6, 14, 14, 16, 5)), "resident_image");  // conv2 n64: 30.7 MFLOP
  EXPECT_EQ(gpu_pick(layer(1, 6, 14, 14, 16, 5)), "resident_image");   // 0.48 MFLOP, 6 channels
  EXPECT_EQ(gpu_pick(layer(64, 1, 32, 32, 6, 5)), "resident_image");   // 15.1 MFLOP
  // One single-channel image: shared_tiled (conv1 n1: 0.0030 ms against resident_image's 0.0037).
  EXPECT_EQ(gpu_pick(layer(1, 1, 32, 32, 6, 5)), "shared_tiled");
  EXPECT_EQ(gpu_pick(layer(2, 1, 32, 32, 6, 5)), "resident_image");
  EXPECT_EQ(gpu_pick(layer(1, 1, 64, 64, 4, 13, 6)), "resident_image");  // k 13: past shared_tiled's patch
  EXPECT_EQ(gpu_pick(layer(1, 2, 8, 8, 2, 13, 6)), "resident_image");  // k 13, pad 6
  // Past 2^25 flops, or an input too deep for one row of every channel in
  // 48 KiB: the earlier rules.
  EXPECT_EQ(gpu_pick(layer(2, 6, 14, 14, 16, 5)), "resident_image");
  EXPECT_EQ(gpu_pick(layer(2, 512, 7, 7, 8, 3, 1)), "shared_tiled");   // 512 x 3 x 9 floats: 54 KiB
  EXPECT_EQ(gpu_pick(layer(64, 64, 56, 56, 64, 3, 1, 2)), "implicit_gemm");  // stride 2
  EXPECT_EQ(gpu_pick(layer(64, 3, 227, 227, 96, 11, 0, 4)), "implicit_gemm");  // AlexNet conv1
  EXPECT_EQ(gpu_pick(layer(1, 3, 227, 227, 96, 11, 0, 4)), "implicit_gemm");
}

// The call throws a tessera::Error whose message contains `what`, and y is untouched.
void expect_refused(const ConvShape& s, const float* x, const float* w, float* y, const std::string& what,
                    const std::string& variant = "cpu_openmp") {
  const float before = y != nullptr ? y[0] : 0.0f;
  try {
    tessera::conv_forward(x, w, y, s, {.variant = variant});
    ADD_FAILURE() << "no error for " << what;
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
  if (y != nullptr) {
    EXPECT_EQ(y[0], before);
  }
}

TEST(ConvCpu, BadInputNamesTheArgument) {
  std::vector<float> x(4096, 1.0f), w(4096, 1.0f), y(4096, 7.0f);
  expect_refused(layer(1, 1, 4, 4, 1, 5), x.data(), w.data(), y.data(), "shape.k = 5 is larger than the padded height");
  expect_refused(layer(1, 1, 8, 4, 1, 5), x.data(), w.data(), y.data(), "shape.k = 5 is larger than the padded width");
  expect_refused(layer(0, 1, 4, 4, 1, 3), x.data(), w.data(), y.data(), "shape.n = 0");
  expect_refused(layer(1, 0, 4, 4, 1, 3), x.data(), w.data(), y.data(), "shape.c = 0");
  expect_refused(layer(1, 1, 0, 4, 1, 3), x.data(), w.data(), y.data(), "shape.h = 0");
  expect_refused(layer(1, 1, 4, 0, 1, 3), x.data(), w.data(), y.data(), "shape.w = 0");
  expect_refused(layer(1, 1, 4, 4, 0, 3), x.data(), w.data(), y.data(), "shape.m = 0");
  expect_refused(layer(1, 1, 4, 4, 1, 0), x.data(), w.data(), y.data(), "shape.k = 0");
  expect_refused(layer(1, 1, 4, 4, 1, 3, -1), x.data(), w.data(), y.data(), "shape.pad = -1");
  expect_refused(layer(1, 1, 4, 4, 1, 3, 0, 0), x.data(), w.data(), y.data(), "shape.stride = 0");
  expect_refused(layer(std::size_t(1) << 40, std::size_t(1) << 40, 4, 4, 1, 3), x.data(), w.data(), y.data(),
                 "overflow size_t");
  const ConvShape ok = layer(1, 2, 6, 6, 3, 3);
  expect_refused(ok, nullptr, w.data(), y.data(), "x is a null pointer");
  expect_refused(ok, x.data(), nullptr, y.data(), "w is a null pointer");
  expect_refused(ok, x.data(), w.data(), nullptr, "y is a null pointer");
  expect_refused(ok, x.data(), w.data(), x.data() + 10, "overlaps x");
  expect_refused(ok, x.data(), w.data(), w.data() + 17, "overlaps w");
  expect_refused(ok, x.data(), w.data(), y.data(), "no variant named 'bogus'", "bogus");
  // A padded filter larger than the image is fine: k = h + 2 pad.
  tessera::conv_forward(x.data(), w.data(), y.data(), layer(1, 1, 3, 3, 1, 5, 1), {.variant = "cpu_openmp"});
  EXPECT_EQ(y[0], 9.0f);  // the 3 x 3 ones under the centre of a 5 x 5 filter of ones
}

}  // namespace

// resident_image's plan (resident_plan.hpp, host-side): on every layer it
// supports, for 132 SMs and for 1, the chosen cut stays within its limits
// (48 KiB, 256 threads, whole filter groups a thread) and covers the layer:
// cells = n x filter groups x row bands, channel slices that are not empty.
TEST(ConvCpu, ResidentImagePlansStayWithinTheirLimits) {
  namespace ri = tessera::conv_impl::resident;
  std::vector<ConvShape> layers = convnet_test::edge_layers();
  for (const ConvShape& s : {layer(64, 6, 14, 14, 16, 5), layer(1, 6, 14, 14, 16, 5), layer(64, 1, 32, 32, 6, 5),
                             layer(1, 1, 32, 32, 6, 5), layer(1, 2, 64, 64, 10, 3, 1), layer(65, 2, 6, 6, 5, 3, 1)})
    layers.push_back(s);
  int supported = 0;
  for (const ConvShape& shape : layers) {
    SCOPED_TRACE(convnet_test::name_of(shape));
    const auto s = tessera::conv_impl::make_spec(shape);
    if (!ri::supports_resident_image(s)) continue;
    ++supported;
    for (int sms : {132, 1}) {
      const ri::Plan p = ri::choose_plan(s, sms);
      EXPECT_LE(p.smem_bytes(), ri::SMEM_LIMIT);
      EXPECT_GE(p.threads(), 1);
      EXPECT_LE(p.threads(), ri::MAX_THREADS);
      EXPECT_EQ(p.mb % p.g, 0);
      EXPECT_TRUE(p.r == 2 || p.r == 4);
      EXPECT_TRUE(p.g == 1 || p.g == 2 || p.g == 4);
      EXPECT_LT(std::size_t((p.slices - 1) * p.cps), s.c);  // the last slice has a channel
      EXPECT_EQ(std::size_t(p.cells), s.n * ((s.m + p.mb - 1) / p.mb) * ((s.ho + p.band - 1) / p.band));
      EXPECT_GE(p.in_cols, int((s.wo - 1) * s.stride + s.k));
    }
  }
  EXPECT_GE(supported, int(layers.size()) - 1);  // all but the 300-channel layer
  // Past the limit: 512 channels of 7x7 need 54 KiB for one output row.
  EXPECT_FALSE(ri::supports_resident_image(tessera::conv_impl::make_spec(layer(1, 512, 7, 7, 8, 3, 1))));
}

// The model's constants (resident_plan.hpp) choose, on 132 SMs, the plans the
// H100 measured fastest on LeNet-5: conv2 n64 in 256 cells of 4 filters, 10
// rows and 6 one-channel slices (0.0065 ms; 128 cells of 8 filters and 3
// slices took 0.0078-0.0080), conv1 n64 in 256 cells of 6 filters and 7 rows.
TEST(ConvCpu, ResidentImagePlansAreTheMeasuredOnes) {
  namespace ri = tessera::conv_impl::resident;
  const ri::Plan conv2 = ri::choose_plan(tessera::conv_impl::make_spec(layer(64, 6, 14, 14, 16, 5)), 132);
  EXPECT_EQ(conv2.mb, 4);
  EXPECT_EQ(conv2.band, 10);
  EXPECT_EQ(conv2.slices, 6);
  EXPECT_EQ(conv2.cells, 256);
  const ri::Plan conv1 = ri::choose_plan(tessera::conv_impl::make_spec(layer(64, 1, 32, 32, 6, 5)), 132);
  EXPECT_EQ(conv1.mb, 6);
  EXPECT_EQ(conv1.band, 7);
  EXPECT_EQ(conv1.slices, 1);
  EXPECT_EQ(conv1.r, 4);
  // The first guess (CPI 2) chose the slower conv2 plan: the constant matters.
  ri::Model first_guess;
  first_guess.cpi_warp = 2.0;
  EXPECT_EQ(ri::choose_plan(tessera::conv_impl::make_spec(layer(64, 6, 14, 14, 16, 5)), 132, first_guess).cells, 128);
}
