// The convnet CUDA rungs, the cuDNN baseline and the public API on a GPU,
// each output checked against the independent answer of
// convnet_test_support.hpp within its FP32 bound. Compiled in CUDA builds
// only; every test skips when no device is present.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "convnet_test_support.hpp"
#include "families/convnet/cuda_rungs.hpp"
#include "tessera/convnet.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/error.hpp"
#include "test_gpu_support.hpp"

namespace {

using convnet_test::layer;
using tessera::ConvShape;
using tessera::DeviceBuffer;
using tessera_test::device_sync;

const std::vector<std::string> GPU_VARIANTS = {"direct",        "shared_tiled",  "im2col_gemm",
                                               "implicit_gemm", "winograd_f2x3", "winograd_fused", "cudnn"};

// The Winograd rungs take 3x3 filters at stride 1 only (and say so: tested below).
bool runs(const std::string& variant, const ConvShape& s) {
  return variant.rfind("winograd", 0) != 0 || (s.k == 3 && s.stride == 1);
}

// x, w on the device, y poisoned (NaN), and the answer.
struct Layer {
  ConvShape s;
  std::vector<float> x, w;
  DeviceBuffer<float> dx, dw, dy;
  Layer(const ConvShape& shape, std::uint32_t seed)
      : s(shape),
        x(convnet_test::random_floats(convnet_test::x_elems(shape), seed)),
        w(convnet_test::random_floats(convnet_test::w_elems(shape), seed + 1000)),
        dx(x.size()),
        dw(w.size()),
        dy(convnet_test::y_elems(shape)) {
    dx.upload(x.data(), x.size());
    dw.upload(w.data(), w.size());
    dy.fill_bytes(0xFF);
    device_sync();
  }
  std::vector<float> result() {
    device_sync();
    std::vector<float> y(convnet_test::y_elems(s));
    dy.download(y.data(), y.size());
    return y;
  }
};

class ConvGpu : public tessera_test::GpuFixture<::testing::TestWithParam<std::string>> {};

TEST_P(ConvGpu, EdgeLayersWithinTheFp32Bound) {
  std::uint32_t seed = 100;
  for (const ConvShape& s : convnet_test::edge_layers()) {
    if (!runs(GetParam(), s)) continue;
    SCOPED_TRACE(convnet_test::name_of(s));
    Layer l(s, seed++);
    tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, {.variant = GetParam(), .stream = stream()});
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    EXPECT_TRUE(convnet_test::within_bound(l.result(), convnet_test::expected(s, l.x, l.w)));
  }
}

// The layers at batch 3 or 1 (LeNet and the strided AlexNet conv1 on a
// cropped image), where the tiles and slices of the product take their
// real-size paths.
TEST_P(ConvGpu, NetworkLayersAtBatch3) {
  const ConvShape layers[] = {layer(3, 1, 32, 32, 6, 5), layer(3, 6, 14, 14, 16, 5), layer(3, 3, 67, 67, 96, 11, 0, 4),
                              layer(1, 256, 13, 13, 384, 3, 1), layer(1, 512, 7, 7, 512, 3, 1),
                              layer(3, 64, 20, 20, 64, 3, 1)};
  std::uint32_t seed = 300;
  for (const ConvShape& s : layers) {
    if (!runs(GetParam(), s)) continue;
    SCOPED_TRACE(convnet_test::name_of(s));
    Layer l(s, seed++);
    tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, {.variant = GetParam(), .stream = stream()});
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    EXPECT_TRUE(convnet_test::within_bound(l.result(), convnet_test::expected(s, l.x, l.w)));
  }
}

// With a workspace of conv_forward_workspace_bytes the call allocates
// nothing, and once run (tessera's rungs) it can be captured into a graph;
// the graph's result is right too.
TEST_P(ConvGpu, CallerWorkspaceAndGraphCapture) {
  const ConvShape s = layer(1, 300, 5, 5, 100, 3, 1);  // implicit_gemm splits k here
  Layer l(s, 7);
  const tessera::ConvOptions probe{.variant = GetParam()};
  const std::size_t bytes = tessera::conv_forward_workspace_bytes(s, probe);
  DeviceBuffer<unsigned char> ws(bytes > 0 ? bytes : 1);
  const tessera::ConvOptions o{.variant = GetParam(), .stream = stream(), .workspace = {ws.data(), bytes}};
  const auto used = tessera_test::pool_bytes_used_by(
      [&] { tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, o); });
  EXPECT_EQ(used, 0u);
  // cuDNN's graph-capture support depends on the algorithm it found: not
  // asserted for the vendor row (the harness times it without a graph then).
  if (GetParam() == "cudnn") return;
  l.dy.fill_bytes(0xFF);
  device_sync();
  tessera_test::CapturedGraph graph(stream(), [&] { tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, o); });
  ASSERT_TRUE(graph.ok());
  ASSERT_EQ(graph.launch(stream()), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  EXPECT_TRUE(convnet_test::within_bound(l.result(), convnet_test::expected(s, l.x, l.w)));
}

INSTANTIATE_TEST_SUITE_P(Rungs, ConvGpu, ::testing::ValuesIn(GPU_VARIANTS));

class ConvGpuApi : public tessera_test::GpuFixture<::testing::Test> {};

TEST_F(ConvGpuApi, DefaultVariantOnAResNetBlock) {
  // 3x3 stride 1 over 4 * 14 * 14 = 784 2x2 tiles, 16 input channels: the
  // policy's F(2x2) rule (winograd_f4x3's takes c >= 32: ConvGpuF4x3).
  const ConvShape s = layer(4, 16, 28, 28, 64, 3, 1);
  EXPECT_EQ(tessera::conv_forward_default_variant(s), "winograd_fused");
  Layer l(s, 21);
  tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s);  // default stream, default variant
  EXPECT_TRUE(convnet_test::within_bound(l.result(), convnet_test::expected(s, l.x, l.w)));
}

// cuDNN's handle outlives the callers' streams: run a layer on a stream,
// destroy the stream, then a layer never seen before (so cuDNN searches its
// algorithms again) and the first one again, each on a fresh stream. Before
// the handle was rebound to a stream of its own after every run, the search
// ran on the destroyed stream and crashed the process.
TEST_F(ConvGpuApi, CudnnOutlivesItsCallersStreams) {
  const ConvShape first = layer(2, 8, 12, 12, 16, 3, 1);
  const ConvShape unseen = layer(2, 16, 10, 10, 8, 5, 2);
  std::uint32_t seed = 900;
  for (const ConvShape& s : {first, unseen, first}) {
    SCOPED_TRACE(convnet_test::name_of(s));
    Layer l(s, seed++);
    {
      tessera_test::GpuStream own;
      tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, {.variant = "cudnn", .stream = own.get()});
      ASSERT_EQ(cudaStreamSynchronize(own.get()), cudaSuccess);
    }  // the stream is destroyed here, before the next layer's search
    EXPECT_TRUE(convnet_test::within_bound(l.result(), convnet_test::expected(s, l.x, l.w)));
  }
}

TEST_F(ConvGpuApi, HostPointersAreRefusedForGpuVariants) {
  const ConvShape s = layer(1, 2, 6, 6, 3, 3);
  std::vector<float> x(72, 1.0f), w(54, 1.0f), y(48, 5.0f);
  for (const std::string& v : GPU_VARIANTS) {
    try {
      tessera::conv_forward(x.data(), w.data(), y.data(), s, {.variant = v});
      ADD_FAILURE() << v << " accepted host pointers";
    } catch (const tessera::Error& e) {
      EXPECT_NE(std::string(e.what()).find("must point to device memory"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(y[0], 5.0f);
}

TEST_F(ConvGpuApi, WinogradRefusesOtherFilters) {
  const ConvShape five = layer(1, 2, 9, 9, 3, 5), strided = layer(1, 2, 9, 9, 3, 3, 1, 2);
  for (const char* v : {"winograd_f2x3", "winograd_fused"})
    for (const ConvShape& s : {five, strided}) {
      Layer l(s, 5);
      try {
        tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, {.variant = v});
        ADD_FAILURE() << v << " accepted " << convnet_test::name_of(s);
      } catch (const tessera::Error& e) {
        EXPECT_NE(std::string(e.what()).find("does not support"), std::string::npos) << e.what();
      }
    }
}

TEST_F(ConvGpuApi, TooSmallWorkspaceIsRefused) {
  const ConvShape s = layer(1, 300, 5, 5, 100, 3, 1);
  const std::size_t bytes = tessera::conv_forward_workspace_bytes(s, {.variant = "im2col_gemm"});
  ASSERT_GT(bytes, 0u);
  Layer l(s, 3);
  DeviceBuffer<unsigned char> ws(bytes);
  EXPECT_THROW(tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s,
                                     {.variant = "im2col_gemm", .workspace = {ws.data(), bytes - 1}}),
               tessera::Error);
}

}  // namespace

// ---- winograd_f4x3 (step 9) ------------------------------------------------
namespace {

// Checked at the scale of its 4x4 output tiles (winograd_f4x3.hpp: each
// tile's 36 sums mix the whole 6x6 patch): the direct bound summed over the
// tile's valid outputs, times F4X3_ERROR_FACTOR.
namespace f4x3_gpu {

::testing::AssertionResult within_tile_bound(const ConvShape& s, const std::vector<float>& got,
                                             const convnet_test::Answer& a) {
  return convnet_test::within_bound(got, convnet_test::at_tile_scale(s, a));
}

void run_and_check(const ConvShape& s, std::uint32_t seed, cudaStream_t stream) {
  SCOPED_TRACE(convnet_test::name_of(s));
  Layer l(s, seed);
  tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, {.variant = "winograd_f4x3", .stream = stream});
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_TRUE(within_tile_bound(s, l.result(), convnet_test::expected(s, l.x, l.w)));
}

}  // namespace f4x3_gpu

class ConvGpuF4x3 : public tessera_test::GpuFixture<::testing::Test> {};

// The shared edge layers (3x3, stride 1), tiny images under pad 1 (one 4x4
// tile mostly outside), ho not a multiple of 4, c = 1, m = 1, n = 1, m and c
// off every GEMM tile (67, 129, 300), pad 0 and 2, non-square images.
TEST_F(ConvGpuF4x3, EdgeLayersWithinTheTileBound) {
  std::uint32_t seed = 500;
  for (const ConvShape& s : convnet_test::edge_layers())
    if (s.k == 3 && s.stride == 1) f4x3_gpu::run_and_check(s, seed++, stream());
  const ConvShape tiny[] = {layer(2, 3, 1, 1, 5, 3, 1), layer(1, 4, 2, 2, 1, 3, 1), layer(3, 1, 3, 3, 6, 3, 1),
                            layer(1, 5, 4, 4, 7, 3, 1), layer(2, 2, 5, 5, 3, 3, 1), layer(1, 33, 9, 9, 67, 3, 1),
                            layer(1, 3, 6, 17, 4, 3, 1), layer(3, 1, 15, 15, 4, 3, 2)};
  for (const ConvShape& s : tiny) f4x3_gpu::run_and_check(s, seed++, stream());
}

// The 3x3 layers at small batch (every GEMM tile configuration the
// wave model picks: 128x64 for m 512, 128x128 for m 384, 64x64 for m 64).
TEST_F(ConvGpuF4x3, NetworkLayersAtSmallBatch) {
  const ConvShape layers[] = {layer(2, 256, 13, 13, 384, 3, 1), layer(4, 512, 7, 7, 512, 3, 1),
                              layer(2, 64, 56, 56, 64, 3, 1), layer(1, 128, 28, 28, 128, 3, 1)};
  std::uint32_t seed = 600;
  for (const ConvShape& s : layers) f4x3_gpu::run_and_check(s, seed++, stream());
}

// With a caller's workspace it allocates nothing and can be captured into a graph.
TEST_F(ConvGpuF4x3, CallerWorkspaceAndGraphCapture) {
  const ConvShape s = layer(3, 40, 11, 11, 70, 3, 1);
  Layer l(s, 7);
  const std::size_t bytes = tessera::conv_forward_workspace_bytes(s, {.variant = "winograd_f4x3"});
  ASSERT_GT(bytes, 0u);
  DeviceBuffer<unsigned char> ws(bytes);
  const tessera::ConvOptions o{.variant = "winograd_f4x3", .stream = stream(), .workspace = {ws.data(), bytes}};
  const auto used = tessera_test::pool_bytes_used_by(
      [&] { tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, o); });
  EXPECT_EQ(used, 0u);
  l.dy.fill_bytes(0xFF);
  device_sync();
  tessera_test::CapturedGraph graph(stream(), [&] { tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, o); });
  ASSERT_TRUE(graph.ok());
  ASSERT_EQ(graph.launch(stream()), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  EXPECT_TRUE(f4x3_gpu::within_tile_bound(s, l.result(), convnet_test::expected(s, l.x, l.w)));
}

// The API's default on a ResNet 3x3 layer of 196 4x4 tiles (n 4, 28^2, 64
// channels: 231 MFLOP) is winograd_f4x3, checked at its tile scale.
TEST_F(ConvGpuF4x3, DefaultVariantOnAResNetLayer) {
  const ConvShape s = layer(4, 64, 28, 28, 64, 3, 1);
  ASSERT_EQ(tessera::conv_forward_default_variant(s), "winograd_f4x3");
  Layer l(s, 23);
  tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, {.stream = stream()});
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  EXPECT_TRUE(f4x3_gpu::within_tile_bound(s, l.result(), convnet_test::expected(s, l.x, l.w)));
}

TEST_F(ConvGpuF4x3, RefusesOtherFilters) {
  const ConvShape five = layer(1, 2, 9, 9, 3, 5), strided = layer(1, 2, 9, 9, 3, 3, 1, 2);
  for (const ConvShape& s : {five, strided}) {
    Layer l(s, 5);
    try {
      tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, {.variant = "winograd_f4x3"});
      ADD_FAILURE() << "winograd_f4x3 accepted " << convnet_test::name_of(s);
    } catch (const tessera::Error& e) {
      EXPECT_NE(std::string(e.what()).find("does not support"), std::string::npos) << e.what();
    }
  }
}

}  // namespace


// resident_image (step 10, small layers): through the API on the edge layers
// and LeNet-sized layers (pads 0-2, strides 1-4, c = 1, m = 1, 3, 5, 6, 33,
// 1x1 images); a layer whose smallest cell passes 48 KiB of shared memory is
// refused with the variant's name, y untouched.
TEST_F(ConvGpuApi, ResidentImageOnEdgeAndSmallLayers) {
  std::vector<ConvShape> layers = convnet_test::edge_layers();
  for (const ConvShape& s : {layer(3, 1, 32, 32, 6, 5), layer(3, 6, 14, 14, 16, 5), layer(1, 6, 14, 14, 16, 5),
                             layer(2, 3, 19, 19, 6, 5, 2, 2), layer(2, 2, 21, 17, 3, 7, 3, 3), layer(1, 2, 64, 64, 10, 3, 1),
                             layer(4, 5, 1, 1, 7, 1), layer(2, 1, 9, 9, 1, 9, 2, 4), layer(65, 2, 6, 6, 5, 3, 1)})
    layers.push_back(s);
  std::uint32_t seed = 900;
  int ran = 0;
  for (const ConvShape& s : layers) {
    SCOPED_TRACE(convnet_test::name_of(s));
    Layer l(s, seed++);
    if (!tessera::conv_impl::supports_resident_image(tessera::conv_impl::make_spec(s))) {
      EXPECT_THROW(tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s,
                                         {.variant = "resident_image", .stream = stream()}),
                   tessera::Error);
      continue;
    }
    tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, {.variant = "resident_image", .stream = stream()});
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    EXPECT_TRUE(convnet_test::within_bound(l.result(), convnet_test::expected(s, l.x, l.w)));
    ++ran;
  }
  EXPECT_GE(ran, int(layers.size()) - 1);  // only the 300-channel layer is past the rung's limit
}

// Every kernel (1, 2, 4 filters x 2, 4 pixels a thread) and every kind of
// cut: one filter group or several (m not a multiple), one band or many
// (a last band shorter), one channel slice or several (a last slice
// shorter), threads fewer than the tiles (each loops) or more (idle ones).
TEST_F(ConvGpuApi, ResidentImageEveryKernelAndCut) {
  namespace ri = tessera::conv_impl::resident;
  const ConvShape shapes[] = {layer(2, 5, 11, 13, 7, 3, 1), layer(1, 3, 15, 15, 6, 5, 2, 2), layer(3, 7, 9, 9, 9, 4)};
  std::uint32_t seed = 1300;
  for (const ConvShape& shape : shapes) {
    const auto spec = tessera::conv_impl::make_spec(shape);
    Layer l(shape, seed++);
    const auto want = convnet_test::expected(shape, l.x, l.w);
    for (int g : {1, 2, 4})
      for (int r : {2, 4})
        for (int mb : {g, 2 * g})
          for (int band : {1, 3, int(spec.ho)})
            for (int slices : {1, 2, int(shape.c)}) {
              ri::Plan p = ri::make_plan(spec, g, r, mb, band, slices);
              const int tiles = mb / g * int((band * spec.wo + r - 1) / r);
              for (int tps : {std::max(1, tiles / 3), std::min(tiles + 5, ri::MAX_THREADS / slices)}) {
                p.tps = tps;
                SCOPED_TRACE(convnet_test::name_of(shape) + " g" + std::to_string(g) + " r" + std::to_string(r) +
                             " mb" + std::to_string(mb) + " band" + std::to_string(band) + " slices" +
                             std::to_string(slices) + " tps" + std::to_string(tps));
                l.dy.fill_bytes(0xFF);
                tessera::conv_impl::run_resident_image_with(
                    {spec, l.dx.data(), l.dw.data(), l.dy.data(), nullptr, stream()}, p);
                ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
                ASSERT_TRUE(convnet_test::within_bound(l.result(), want));
              }
            }
  }
}

// No workspace, no allocation, and capturable into a graph (one launch).
TEST_F(ConvGpuApi, ResidentImageAllocatesNothingAndCaptures) {
  const ConvShape s = layer(3, 6, 14, 14, 16, 5);
  Layer l(s, 77);
  const tessera::ConvOptions o{.variant = "resident_image", .stream = stream()};
  EXPECT_EQ(tessera::conv_forward_workspace_bytes(s, o), 0u);
  const auto used = tessera_test::pool_bytes_used_by(
      [&] { tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, o); });
  EXPECT_EQ(used, 0u);
  l.dy.fill_bytes(0xFF);
  device_sync();
  tessera_test::CapturedGraph graph(stream(), [&] { tessera::conv_forward(l.dx.data(), l.dw.data(), l.dy.data(), s, o); });
  ASSERT_TRUE(graph.ok());
  ASSERT_EQ(graph.launch(stream()), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
  EXPECT_TRUE(convnet_test::within_bound(l.result(), convnet_test::expected(s, l.x, l.w)));
}
