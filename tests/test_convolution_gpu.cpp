// The convolution ladders on a GPU: every CUDA rung of conv1d and conv2d
// through the public API at edge shapes (one pixel, images smaller than a
// tile, mask width 1, masks as wide and as tall as the image, odd and prime
// sizes, pitched rows, runtime-sized and separable masks), checked against
// the independent long-double definition (conv_test_support.hpp); the FFT
// rungs against the direct one at several lengths; the policy's picks; a
// caller's workspace; graph capture of every rung's run; memory-kind errors.
// Compiled in CUDA builds only; every test skips without a device.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "conv_test_support.hpp"
#include "families/convolution/contract.hpp"
#include "families/convolution/fft_geometry.hpp"
#include "families/convolution/separable.hpp"
#include "tessera/convolution.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"
#include "test_gpu_support.hpp"

namespace {

using namespace tessera;
using namespace conv_test;
namespace ci = tessera::convolution_impl;
using tessera_test::device_sync;

struct Shape {
  std::size_t w, h, mw, mh, pad = 0;
  bool separable = false;
};

std::vector<float> mask_for(const Shape& s, std::uint32_t seed) {
  if (s.separable) return outer(random_floats(s.mh, seed), random_floats(s.mw, seed + 1));
  return random_floats(s.mw * s.mh, seed);
}

bool is_fft(const std::string& v) { return v == "fft_overlap_save" || v == "cufft_whole_signal" || v == "fft_fused"; }

// Extra tolerance of the FFT rungs (problem.cpp's factor 4 log2 nfft).
double extra_for(const std::string& v, const Shape& s) {
  if (!is_fft(v)) return 1.0;
  if (v == "fft_fused") return 4.0 * std::log2(double(ci::FUSED_NFFT));
  ci::ConvSpec spec;
  spec.width = spec.pitch = s.w;
  spec.mask_w = s.mw;
  const auto os = v == "fft_overlap_save" ? ci::overlap_save_of(spec) : ci::whole_signal_of(spec);
  return 4.0 * std::log2(double(os.nfft));
}

// The fused rung's absolute rounding term (fft_geometry.hpp), 0 for the others.
double floor_for(const std::string& v, const std::vector<float>& in, const std::vector<float>& mask) {
  if (v != "fft_fused") return 0.0;
  double l2 = 0, max_in = 0;
  for (float m : mask) l2 += double(m) * double(m);
  for (float x : in) max_in = std::max(max_in, std::fabs(double(x)));
  return ci::fused_error_floor(std::sqrt(l2), max_in);
}

// Runs `variant` (empty: the default) through the public API on the device
// and checks every output and the untouched pitch padding.
void api_case(bool one_d, const Shape& s, const std::string& variant, cudaStream_t stream, std::uint32_t seed) {
  const std::size_t pitch = s.w + s.pad, elems = (s.h - 1) * pitch + s.w;
  const auto in = random_floats(elems, seed);
  const auto mask = mask_for(s, seed + 7);
  DeviceBuffer<float> d_in(elems, "test input"), d_out(elems, "test output");
  d_in.upload(in.data(), elems);
  d_out.fill_bytes(0xFF);
  device_sync();
  const ConvOptions o{.pitch = pitch, .variant = variant, .stream = stream};
  if (one_d) conv1d(d_in.data(), s.w, mask.data(), s.mw, d_out.data(), o);
  else conv2d(d_in.data(), s.w, s.h, mask.data(), s.mw, s.mh, d_out.data(), o);
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  std::vector<float> out(elems);
  d_out.download(out.data(), elems);
  const std::string what = (variant.empty() ? std::string("default") : variant) + " " + std::to_string(s.w) + "x" +
                           std::to_string(s.h) + " mask " + std::to_string(s.mw) + "x" + std::to_string(s.mh);
  const std::string used = variant.empty() && one_d ? conv1d_default_variant(s.w, s.mw) : variant;
  expect_close(out, s.w, s.h, pitch, expected(in, s.w, s.h, pitch, mask, s.mw, s.mh), s.mw * s.mh, what,
               extra_for(used, s), floor_for(used, in, mask));
  for (std::size_t y = 0; y + 1 < s.h; ++y)
    for (std::size_t x = s.w; x < pitch; ++x) {
      std::uint32_t bits;
      std::memcpy(&bits, &out[y * pitch + x], 4);
      ASSERT_EQ(bits, 0xFFFFFFFFu) << what << ": wrote the padding";
    }
}

ci::ConvSpec spec_of(const Shape& s, bool one_d) {
  ci::ConvSpec c;
  c.width = s.w;
  c.height = s.h;
  c.pitch = s.w + s.pad;
  c.mask_w = s.mw;
  c.mask_h = s.mh;
  c.separable = !one_d && s.separable;
  return c;
}

const Shape SHAPES_2D[] = {
    {1, 1, 1, 1},          {5, 3, 5, 3},          {7, 7, 7, 7},         {9, 9, 9, 9},        {31, 7, 9, 7},
    {33, 17, 3, 3},        {100, 1, 5, 1},        {1, 100, 1, 5},       {65, 130, 5, 5, 3},  {257, 259, 9, 9},
    {513, 517, 11, 7},     {300, 200, 31, 31},    {1024, 1024, 5, 5},   {45, 33, 45, 33},    {129, 67, 3, 3, 1},
    {40, 40, 9, 9, 0, true}, {123, 77, 5, 5, 5, true}, {300, 200, 31, 31, 0, true}, {64, 64, 1, 1, 0, true},
    {17, 300, 7, 1, 0, true}, {131, 129, 9, 1, 0, true}};

const Shape SHAPES_1D[] = {{1, 1, 1, 1},       {7, 1, 7, 1},         {100, 1, 3, 1},      {255, 1, 1, 1},
                           {1025, 1, 1025, 1}, {2049, 1, 1025, 1},   {2047, 1, 9, 1},     {4097, 1, 101, 1},
                           {70001, 1, 1025, 1}, {100000, 1, 7, 1},   {(1 << 20) + 3, 1, 513, 1},
                           {30000, 1, 4001, 1}, {6149, 1, 257, 1}};

struct Rung {
  bool one_d;
  std::string name;
};

void PrintTo(const Rung& r, std::ostream* os) { *os << (r.one_d ? "conv1d/" : "conv2d/") << r.name; }

std::vector<Rung> gpu_rungs() {
  std::vector<Rung> out;
  for (bool one_d : {true, false})
    for (const auto& v : ci::ladder_for(one_d).all())
      if (v.info.backend == Backend::cuda) out.push_back({one_d, std::string(v.info.name)});
  return out;
}

class ConvGpuRung : public tessera_test::GpuFixture<::testing::TestWithParam<Rung>> {};

TEST_P(ConvGpuRung, MatchesTheDefinitionAtEdgeShapes) {
  const Rung& r = GetParam();
  const ci::ConvVariant& v = ci::ladder_for(r.one_d).at(r.name, "test");
  int ran = 0;
  std::uint32_t seed = 1;
  for (const Shape& s : r.one_d ? std::span<const Shape>(SHAPES_1D) : std::span<const Shape>(SHAPES_2D)) {
    if (!v.supports(spec_of(s, r.one_d))) continue;
    api_case(r.one_d, s, r.name, stream(), seed += 10);
    ++ran;
  }
  EXPECT_GE(ran, r.name == "separable" ? 5 : 6) << r.name << " supports too few of the test shapes";
}

// The run itself (no API: device mask, prepared plans) captures into a graph,
// as the harness's timing of short runs needs, and the replay is right.
TEST_P(ConvGpuRung, RunIsGraphCapturable) {
  const Rung& r = GetParam();
  const ci::ConvVariant& v = ci::ladder_for(r.one_d).at(r.name, "test");
  const Shape s = r.one_d ? Shape{5000, 1, 33, 1} : Shape{200, 150, 9, 9, 0, r.name == "separable"};
  const ci::ConvSpec spec = spec_of(s, r.one_d);
  ASSERT_TRUE(v.supports(spec));
  const auto in = random_floats(s.w * s.h, 5);
  const auto mask = mask_for(s, 6);
  std::vector<float> taps = mask;
  if (spec.separable) {  // the factors the API finds
    const auto f = ci::find_separable(mask.data(), s.mw, s.mh, 1e-6);
    ASSERT_TRUE(f.has_value());
    taps.insert(taps.end(), f->row.begin(), f->row.end());
    taps.insert(taps.end(), f->col.begin(), f->col.end());
  }
  DeviceBuffer<float> d_in(in.size()), d_out(in.size()), d_taps(taps.size());
  d_in.upload(in.data(), in.size());
  d_taps.upload(taps.data(), taps.size());
  const std::size_t ws = v.workspace_bytes(spec);
  DeviceBuffer<unsigned char> d_ws(ws > 0 ? ws : 1);
  if (v.prepare != nullptr) v.prepare(spec);
  device_sync();
  const ci::ConvCall call{spec,
                          d_in.data(),
                          d_out.data(),
                          d_taps.data(),
                          mask.data(),
                          spec.separable ? d_taps.data() + spec.taps() : nullptr,
                          spec.separable ? d_taps.data() + spec.taps() + s.mw : nullptr,
                          d_ws.data(),
                          stream()};
  tessera_test::CapturedGraph g(stream(), [&] { v.run(call); });
  ASSERT_TRUE(g.ok()) << r.name;
  d_out.fill_bytes(0xFF);
  device_sync();
  ASSERT_EQ(g.launch(stream()), cudaSuccess);
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  std::vector<float> out(in.size());
  d_out.download(out.data(), out.size());
  expect_close(out, s.w, s.h, s.w, expected(in, s.w, s.h, s.w, mask, s.mw, s.mh), s.mw * s.mh,
               r.name + " graph replay", extra_for(r.name, s), floor_for(r.name, in, mask));
}

INSTANTIATE_TEST_SUITE_P(Rungs, ConvGpuRung, ::testing::ValuesIn(gpu_rungs()), [](const auto& info) {
  return std::string(info.param.one_d ? "conv1d_" : "conv2d_") + info.param.name;
});

using ConvGpu = tessera_test::GpuFixture<::testing::Test>;

TEST_F(ConvGpu, FftAgreesWithDirectAtSeveralLengths) {
  std::uint32_t seed = 300;
  for (std::size_t n : {1025u, 1026u, 7167u, 7168u, 7169u, 8191u, 8192u, 8193u, 100003u, 1u << 20})
    for (std::size_t taps : {1025u, 129u}) {
      if (taps > n) continue;
      const Shape s{n, 1, taps, 1};
      for (const char* v : {"fft_overlap_save", "cufft_whole_signal", "register_blocked"})
        api_case(true, s, v, stream(), seed += 3);
    }
}

TEST_F(ConvGpu, DefaultVariantsFollowThePolicy) {
  EXPECT_EQ(conv1d_default_variant(std::size_t(1) << 26, 1025), "fft_fused");
  EXPECT_EQ(conv1d_default_variant(std::size_t(1) << 26, 2049), "fft_fused");
  EXPECT_EQ(conv1d_default_variant(std::size_t(1) << 26, 2051), "fft_overlap_save");
  EXPECT_EQ(conv1d_default_variant(std::size_t(1) << 26, 7), "register_blocked");
  // The measured crossover: fft_fused from 33 taps, register_blocked below.
  EXPECT_EQ(conv1d_default_variant(std::size_t(1) << 26, 31), "register_blocked");
  EXPECT_EQ(conv1d_default_variant(std::size_t(1) << 26, 33), "fft_fused");
  EXPECT_EQ(conv1d_default_variant(std::size_t(1) << 26, 129), "fft_fused");
  EXPECT_EQ(conv1d_default_variant(100000, 33), "fft_fused");
  const auto sep = outer(random_floats(9, 1), random_floats(9, 2));
  const auto rnd = random_floats(81, 3);
  EXPECT_EQ(conv2d_default_variant(8192, 8192, sep.data(), 9, 9), "pipelined_tiles");
  const auto sep15 = outer(random_floats(15, 5), random_floats(15, 6));
  EXPECT_EQ(conv2d_default_variant(8192, 8192, sep15.data(), 15, 15), "separable");
  EXPECT_EQ(conv2d_default_variant(8192, 8192, rnd.data(), 9, 9), "pipelined_tiles");
  EXPECT_EQ(conv2d_default_variant(8192, 8192, sep.data(), 9, 9, {.separable_tolerance = -1}), "pipelined_tiles");
  EXPECT_EQ(conv2d_default_variant(8192, 8192, random_floats(25, 7).data(), 5, 5), "pipelined_tiles");
  EXPECT_EQ(conv2d_default_variant(8192, 8192, random_floats(77, 4).data(), 11, 7), "register_blocked");
  // The default calls are right.
  api_case(false, {300, 200, 9, 9, 0, true}, "", stream(), 11);
  api_case(false, {300, 200, 9, 9}, "", stream(), 12);
  api_case(true, {100000, 1, 1025, 1}, "", stream(), 13);
  api_case(true, {100000, 1, 7, 1}, "", stream(), 14);
  api_case(true, {100000, 1, 33, 1}, "", stream(), 15);
}

TEST_F(ConvGpu, CallersWorkspaceMeansNoAllocation) {
  const std::size_t n = 50000, taps = 1025;
  const auto in = random_floats(n, 21), mask = random_floats(taps, 22);
  DeviceBuffer<float> d_in(n), d_out(n);
  d_in.upload(in.data(), n);
  const ConvOptions probe{.variant = "fft_overlap_save"};
  const std::size_t bytes = conv1d_workspace_bytes(n, taps, probe);
  ASSERT_GT(bytes, n * sizeof(float));
  DeviceBuffer<unsigned char> ws(bytes);
  device_sync();
  const auto used = tessera_test::pool_bytes_used_by([&] {
    conv1d(d_in.data(), n, mask.data(), taps, d_out.data(),
           {.variant = "fft_overlap_save", .stream = stream(), .workspace = {ws.data(), bytes}});
  });
  EXPECT_EQ(used, 0u);
  std::vector<float> out(n);
  d_out.download(out.data(), n);
  expect_close(out, n, 1, n, expected(in, n, 1, n, mask, taps, 1), taps, "workspace call",
               extra_for("fft_overlap_save", {n, 1, taps, 1}));
  // Too small a workspace is refused by name.
  try {
    conv1d(d_in.data(), n, mask.data(), taps, d_out.data(),
           {.variant = "fft_overlap_save", .stream = stream(), .workspace = {ws.data(), bytes / 2}});
    ADD_FAILURE() << "no error for a short workspace";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("workspace"), std::string::npos) << e.what();
  }
}

TEST_F(ConvGpu, HostPointersForAGpuVariantAreRefused) {
  const auto in = random_floats(64, 31), mask = random_floats(3, 32);
  std::vector<float> out(64, 2.0f);
  try {
    conv1d(in.data(), 64, mask.data(), 3, out.data(), {.variant = "basic"});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("must point to device memory"), std::string::npos) << e.what();
  }
  for (float v : out) EXPECT_EQ(v, 2.0f);
  // The separable rung with a mask that is not: refused, naming why.
  DeviceBuffer<float> d_in(64), d_out(64);
  const auto rnd = random_floats(9, 33);
  try {
    conv2d(d_in.data(), 8, 8, rnd.data(), 3, 3, d_out.data(), {.variant = "separable"});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not separable"), std::string::npos) << e.what();
  }
}

// pipelined_tiles: its two copy paths (16-byte chunks when the pitch is a
// multiple of 4 floats and the pointers 16-byte aligned, 4-byte copies
// otherwise), right-edge chunks 1-3 floats inside, interior tiles (no
// tests), more tiles than resident blocks (each persistent block walks
// several tiles through both shared buffers), one-row / one-column images,
// and input / output pointers off 16-byte alignment.
TEST_F(ConvGpu, PipelinedTilesCopyPathsAndTileWalk) {
  const ci::ConvVariant& v = ci::conv2d_ladder().at("pipelined_tiles", "test");
  std::uint32_t seed = 400;
  const Shape shapes[] = {
      {389, 201, 9, 9, 3},  // pitch 392: chunks; a right-edge chunk 1 float inside
      {390, 200, 7, 7, 2},  // 2 floats inside
      {391, 199, 5, 5, 1},  // 3 floats inside
      {392, 200, 3, 3},     // whole chunks to the edge
      {387, 130, 9, 9},     // pitch 387: 4-byte copies
      {262, 9000, 9, 9, 2}, // 3 x 141 tiles: more than the resident blocks of any current GPU at 9 x 9
      {1, 300, 1, 1},       {300, 1, 1, 1}, {1, 1, 1, 1}, {128, 64, 1, 1}, {129, 65, 3, 3, 3}};
  for (const Shape& s : shapes) {
    ASSERT_TRUE(v.supports(spec_of(s, false)));
    api_case(false, s, "pipelined_tiles", stream(), seed += 10);
  }
  // Misaligned pointers (one float past an allocation's start) with a pitch
  // that is a multiple of 4: the 4-byte copy path and scalar stores.
  const std::size_t w = 333, h = 150, pitch = 336, m = 5, elems = (h - 1) * pitch + w;
  const auto in = random_floats(elems, 450);
  const auto mask = random_floats(m * m, 451);
  DeviceBuffer<float> d_in(elems + 1), d_out(elems + 1);
  TESSERA_CUDA(cudaMemcpy(d_in.data() + 1, in.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
  d_out.fill_bytes(0xFF);
  device_sync();
  conv2d(d_in.data() + 1, w, h, mask.data(), m, m, d_out.data() + 1,
         {.pitch = pitch, .variant = "pipelined_tiles", .stream = stream()});
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  std::vector<float> out(elems);
  TESSERA_CUDA(cudaMemcpy(out.data(), d_out.data() + 1, elems * sizeof(float), cudaMemcpyDeviceToHost));
  expect_close(out, w, h, pitch, expected(in, w, h, pitch, mask, m, m), m * m, "pipelined_tiles misaligned");
  // Outside its masks: refused by supports(), so the API never routes them here.
  EXPECT_FALSE(v.supports(spec_of({100, 100, 11, 11}, false)));
  EXPECT_FALSE(v.supports(spec_of({100, 100, 5, 3}, false)));
}

// pipelined_tiles takes its tiles from a counter in the workspace: with the
// caller's workspace reused, each call must start its walk again (the
// counter zeroed on the stream), so the second call, on other data, still
// writes every tile (1,000 tiles of 128 x 64: more than the resident blocks
// at 5 x 5, so most tiles come from the counter).
TEST_F(ConvGpu, PipelinedTilesWalkRestartsEachCall) {
  const std::size_t w = 1000, h = 8000, m = 5, n = w * h;
  const auto mask = random_floats(m * m, 470);
  const ConvOptions probe{.variant = "pipelined_tiles"};
  const std::size_t bytes = conv2d_workspace_bytes(w, h, mask.data(), m, m, probe);
  ASSERT_GE(bytes, sizeof(unsigned));
  DeviceBuffer<unsigned char> ws(bytes);
  DeviceBuffer<float> d_in(n), d_out(n);
  for (std::uint32_t seed : {471u, 472u}) {
    const auto in = random_floats(n, seed);
    d_in.upload(in.data(), n);
    d_out.fill_bytes(0xFF);
    device_sync();
    conv2d(d_in.data(), w, h, mask.data(), m, m, d_out.data(),
           {.variant = "pipelined_tiles", .stream = stream(), .workspace = {ws.data(), bytes}});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    std::vector<float> out(n);
    d_out.download(out.data(), n);
    expect_close(out, w, h, w, expected(in, w, h, w, mask, m, m), m * m,
                 "pipelined_tiles call with seed " + std::to_string(seed));
  }
}

}  // namespace
// The fused FFT rung at the edges of its blocking (valid = 4,096 - (taps - 1)
// outputs per segment, two segments per block): one sample, one segment,
// an odd number of segments (a block's imaginary half past the end),
// lengths one off a segment and a block, and masks of 1, 3, 33 (the policy's
// crossover), 1,025 and its
// limit 2,049 taps; a mask of 4,097 taps is declined (fft_overlap_save
// takes it).
TEST_F(ConvGpu, FusedFftAtTheEdgesOfItsBlocking) {
  std::uint32_t seed = 700;
  for (std::size_t taps : {1u, 3u, 33u, 1025u, 2049u}) {
    const std::size_t valid = ci::FUSED_NFFT - (taps - 1);
    for (std::size_t n : {std::size_t(1), std::size_t(2), valid - 1, valid, valid + 1, 2 * valid - 1, 2 * valid,
                          2 * valid + 1, 3 * valid, 5 * valid + 17, std::size_t(100003)}) {
      if (n < taps) continue;  // the API refuses a mask wider than the input (below: the rung itself)
      api_case(true, {n, 1, taps, 1}, "fft_fused", stream(), seed += 3);
    }
  }
  ci::ConvSpec big;
  big.width = big.pitch = 100000;
  big.mask_w = 4097;
  EXPECT_FALSE(ci::ladder_for(true).at("fft_fused", "test").supports(big));
  big.mask_w = 2051;
  EXPECT_FALSE(ci::ladder_for(true).at("fft_fused", "test").supports(big));
}

// The rung itself (no API, which refuses it) with a mask wider than the
// signal: every output's window is mostly ghosts.
TEST_F(ConvGpu, FusedFftWithAMaskWiderThanTheSignal) {
  const ci::ConvVariant& v = ci::ladder_for(true).at("fft_fused", "test");
  for (std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(700)}) {
    const Shape s{n, 1, 1025, 1};
    const ci::ConvSpec spec = spec_of(s, true);
    ASSERT_TRUE(v.supports(spec));
    const auto in = random_floats(n, 40 + std::uint32_t(n));
    const auto mask = random_floats(s.mw, 41);
    DeviceBuffer<float> d_in(n), d_out(n), d_taps(mask.size());
    DeviceBuffer<unsigned char> d_ws(v.workspace_bytes(spec));
    d_in.upload(in.data(), n);
    d_taps.upload(mask.data(), mask.size());
    d_out.fill_bytes(0xFF);
    device_sync();
    v.run(ci::ConvCall{spec, d_in.data(), d_out.data(), d_taps.data(), mask.data(), nullptr, nullptr, d_ws.data(),
                       stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    std::vector<float> out(n);
    d_out.download(out.data(), n);
    expect_close(out, n, 1, n, expected(in, n, 1, n, mask, s.mw, 1), s.mw, "fft_fused n " + std::to_string(n),
                 extra_for("fft_fused", s), floor_for("fft_fused", in, mask));
  }
}

