// The CUDA transpose rungs, the cuBLAS baseline and the public API on a GPU,
// checked element by element against the definition (test_transpose_support.hpp).
// Compiled in CUDA builds only; every test skips when no device is present.
//
// Inputs are uploaded and outputs poisoned with synchronous copies and
// memsets followed by a device synchronisation before anything runs on the
// test's non-blocking stream.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "families/transpose/cuda_rungs.hpp"
#include "families/transpose/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/transpose.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"
#include "test_transpose_support.hpp"

namespace {

using namespace tessera;
using tessera_test::TShape;
using transpose_impl::Output;
using transpose_impl::TransposeCall;
using transpose_impl::TransposeSpec;
using transpose_impl::TransposeVariant;

using TransposeGpuTest = tessera_test::GpuFixture<::testing::Test>;

constexpr Dtype kTypes[] = {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64, Dtype::u32};

std::vector<const TransposeVariant*> gpu_variants() {
  std::vector<const TransposeVariant*> v;
  for (const auto& var : transpose_impl::all_variants())
    if (var.info.backend == Backend::cuda) v.push_back(&var);
  return v;
}

using tessera_test::device_sync;

// Device copies of one case: the input at element offset in_off of its
// allocation, the output at out_off, both allocations 16 bytes longer and
// poisoned around the matrix.
struct DeviceCase {
  TransposeSpec spec;
  std::vector<unsigned char> host_in;
  unsigned char poison;
  std::size_t in_off, out_off;  // bytes
  DeviceBytes in, out;

  DeviceCase(const TransposeSpec& s, std::uint64_t seed, std::size_t in_off_elems = 0, std::size_t out_off_elems = 0)
      : spec(s),
        host_in(tessera_test::make_input(s, seed)),
        poison(tessera_test::poison_for(s, host_in.data())),
        in_off(in_off_elems * size_of(s.dtype)),
        out_off(out_off_elems * size_of(s.dtype)),
        in(in_off + tessera_test::in_bytes(s) + 16, "test input"),
        out(out_off + tessera_test::out_bytes(s) + 16, "test output") {
    TESSERA_CUDA(cudaMemset(in.data(), 0x77, in.bytes()));
    if (tessera_test::in_bytes(s) > 0)
      TESSERA_CUDA(cudaMemcpy(static_cast<unsigned char*>(in.data()) + in_off, host_in.data(), tessera_test::in_bytes(s), cudaMemcpyHostToDevice));
    reset_output();
  }
  void reset_output() {
    TESSERA_CUDA(cudaMemset(out.data(), poison, out.bytes()));
    device_sync();
  }
  const void* in_ptr() const { return static_cast<const unsigned char*>(in.data()) + in_off; }
  void* out_ptr() const { return static_cast<unsigned char*>(out.data()) + out_off; }
  TransposeCall call(cudaStream_t stream) const { return {spec, in_ptr(), out_ptr(), stream}; }

  // The output after the stream's work: right inside, poison all around.
  ::testing::AssertionResult check(bool copy) const {
    std::vector<unsigned char> got(out.bytes());
    out.download(got.data(), got.size());
    for (std::size_t b = 0; b < out_off; ++b)
      if (got[b] != poison) return ::testing::AssertionFailure() << "wrote before the output, byte " << b;
    for (std::size_t b = out_off + tessera_test::out_bytes(spec); b < got.size(); ++b)
      if (got[b] != poison) return ::testing::AssertionFailure() << "wrote past the output, byte " << b;
    auto r = tessera_test::check_output(spec, host_in.data(), got.data() + out_off, poison, copy);
    if (!r) return r;
    std::vector<unsigned char> after(tessera_test::in_bytes(spec));
    if (!after.empty()) {
      TESSERA_CUDA(cudaMemcpy(after.data(), in_ptr(), after.size(), cudaMemcpyDeviceToHost));
      if (std::memcmp(after.data(), host_in.data(), after.size()) != 0)
        return ::testing::AssertionFailure() << "the input was modified";
    }
    return ::testing::AssertionSuccess();
  }
};

::testing::AssertionResult run_and_check(const TransposeVariant& v, DeviceCase& c, cudaStream_t stream) {
  try {
    if (v.prepare != nullptr) v.prepare();
    v.run(c.call(stream));
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    TESSERA_CUDA(cudaGetLastError());
    return c.check(v.output == Output::copy);
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw: " << e.what();
  }
}

// ---- every GPU variant x every type x every shape --------------------------------

class TransposeGpu : public tessera_test::GpuFixture<::testing::TestWithParam<const TransposeVariant*>> {};

TEST_P(TransposeGpu, EveryShapeAndType) {
  const TransposeVariant& v = *GetParam();
  int checked = 0;
  for (Dtype t : kTypes)
    for (const TShape& shape : tessera_test::transpose_shapes()) {
      const TransposeSpec spec = tessera_test::spec_of(t, shape);
      if (!v.supports(spec)) continue;
      SCOPED_TRACE(std::string(to_string(t)) + " " + tessera_test::shape_name(shape));
      DeviceCase c(spec, tessera_test::seed_for(v.info.name, shape.rows, shape.cols));
      EXPECT_TRUE(run_and_check(v, c, stream()));
      ++checked;
    }
  EXPECT_GT(checked, 0);
}

// Offset pointers: not 16-byte aligned, so the vec16 rungs must take their
// fallback; every rung must stay right.
TEST_P(TransposeGpu, OffsetPointers) {
  const TransposeVariant& v = *GetParam();
  for (Dtype t : {Dtype::f32, Dtype::f64})
    for (const TShape& shape : {TShape{100, 200}, TShape{128, 256}, TShape{33, 65}, TShape{96, 160, 4, 28}})
      for (std::size_t off : {1, 3}) {
        const TransposeSpec spec = tessera_test::spec_of(t, shape);
        SCOPED_TRACE(std::string(to_string(t)) + " " + tessera_test::shape_name(shape) + " offset " +
                     std::to_string(off));
        DeviceCase in_off(spec, 71, off, 0), out_off(spec, 72, 0, off);
        EXPECT_FALSE(transpose_impl::vec16_path(in_off.call(stream())));
        EXPECT_FALSE(transpose_impl::vec16_path(out_off.call(stream())));
        EXPECT_TRUE(run_and_check(v, in_off, stream()));
        EXPECT_TRUE(run_and_check(v, out_off, stream()));
      }
}

// More tiles down one side than grid.y could hold (65535): the 1-D grid of
// tiles.
TEST_P(TransposeGpu, LongRowsAndColumns) {
  const TransposeVariant& v = *GetParam();
  for (const TShape& shape : {TShape{std::size_t(1) << 20, 1}, TShape{1, std::size_t(1) << 20},
                              TShape{(std::size_t(1) << 19) + 3, 5}, TShape{4, (std::size_t(1) << 19) + 4}}) {
    const TransposeSpec spec = tessera_test::spec_of(Dtype::f32, shape);
    SCOPED_TRACE(tessera_test::shape_name(shape));
    DeviceCase c(spec, 5);
    EXPECT_TRUE(run_and_check(v, c, stream()));
  }
}

// More tiles than a persistent grid has blocks (vec16_persistent*: 4 or 2
// blocks per SM, ~528 or ~264 on an H100; tiles of 64 x 64 floats or 32 x 64
// doubles): every block moves several tiles, interior ones through the
// register prefetch, edge ones element by element, the two kinds mixed in one
// block's sequence; all on the 16-byte path, pitched and not.
TEST_P(TransposeGpu, ManyTilesPerBlock) {
  const TransposeVariant& v = *GetParam();
  const std::pair<Dtype, TShape> cases[] = {
      {Dtype::f32, {2304, 2112}},         // 36 x 33 tiles, all interior
      {Dtype::f32, {2050, 2100, 4, 14}},  // 33 x 33 tiles, edges on both sides; pitches 2104 and 2064
      {Dtype::f64, {2050, 1030}},         // 65 x 17 tiles, edges on both sides
      {Dtype::f64, {1600, 2560, 2, 6}},   // 50 x 40 tiles, pitches 2562 and 1606
  };
  for (const auto& [t, shape] : cases) {
    const TransposeSpec spec = tessera_test::spec_of(t, shape);
    SCOPED_TRACE(std::string(to_string(t)) + " " + tessera_test::shape_name(shape));
    DeviceCase c(spec, tessera_test::seed_for(v.info.name, shape.rows, shape.cols));
    EXPECT_TRUE(transpose_impl::vec16_path(c.call(stream())));
    EXPECT_TRUE(run_and_check(v, c, stream()));
  }
}

// A run only enqueues work (no allocation, no synchronisation): capture it in
// global mode (which rejects unsafe calls) and replay it on a fresh poison.
TEST_P(TransposeGpu, RunCanBeCapturedInAGraph) {
  const TransposeVariant& v = *GetParam();
  for (Dtype t : {Dtype::f32, Dtype::f64}) {
    const TransposeSpec spec = tessera_test::spec_of(t, {1000, 1003});
    SCOPED_TRACE(to_string(t));
    DeviceCase c(spec, 9);
    // One ordinary run first: loads the kernels and creates any handle.
    ASSERT_TRUE(run_and_check(v, c, stream()));
    c.reset_output();
    const tessera_test::CapturedGraph graph(stream(), [&] { v.run(c.call(stream())); });
    ASSERT_TRUE(graph.ok());
    for (int replay = 0; replay < 2; ++replay) {
      c.reset_output();
      ASSERT_EQ(graph.launch(stream()), cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
      EXPECT_TRUE(c.check(v.output == Output::copy)) << "replay " << replay;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Rungs, TransposeGpu, ::testing::ValuesIn(gpu_variants()),
                         [](const auto& info) { return std::string(info.param->info.name); });

TEST_F(TransposeGpuTest, Vec16PathTakenWhenAligned) {
  for (Dtype t : {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64}) {
    DeviceCase aligned(tessera_test::spec_of(t, {128, 256}), 3);
    EXPECT_TRUE(transpose_impl::vec16_path(aligned.call(stream()))) << to_string(t);
    DeviceCase pitched(tessera_test::spec_of(t, {96, 160, 4, 28}), 3);
    EXPECT_TRUE(transpose_impl::vec16_path(pitched.call(stream()))) << to_string(t);
    DeviceCase odd(tessera_test::spec_of(t, {97, 101}), 3);
    EXPECT_FALSE(transpose_impl::vec16_path(odd.call(stream()))) << to_string(t) << ": rows of 101 elements";
  }
}

// ---- the public API ------------------------------------------------------------

template <class T>
void api_case(const TShape& shape, const std::string& variant, cudaStream_t stream) {
  const TransposeSpec spec = tessera_test::spec_of(dtype_of<T>(), shape);
  DeviceCase c(spec, 44);
  transpose(static_cast<const T*>(c.in_ptr()), shape.rows, shape.cols, static_cast<T*>(c.out_ptr()),
            {.ld_in = spec.ld_in, .ld_out = spec.ld_out, .variant = variant, .stream = stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  EXPECT_TRUE(c.check(false)) << (variant.empty() ? "default" : variant);
}

TEST_F(TransposeGpuTest, ApiDefaultAndEveryVariantByName) {
  EXPECT_NE(transpose_impl::find_variant(transpose_default_variant(Dtype::f32, 8192, 8192)), nullptr);
  for (const TShape& shape : {TShape{1, 1}, TShape{33, 65}, TShape{128, 256}, TShape{97, 101, 3, 5}}) {
    SCOPED_TRACE(tessera_test::shape_name(shape));
    api_case<float>(shape, "", stream());
    api_case<double>(shape, "", stream());
    api_case<std::int32_t>(shape, "", stream());
    api_case<std::int64_t>(shape, "", stream());
    api_case<std::uint32_t>(shape, "", stream());
    for (const auto& v : transpose_impl::all_variants())
      if (v.info.backend == Backend::cuda && v.output == Output::transpose) api_case<float>(shape, std::string(v.info.name), stream());
  }
}

TEST_F(TransposeGpuTest, ApiCpuVariantsTakeHostPointers) {
  const TransposeSpec spec = tessera_test::spec_of(Dtype::f32, {33, 65, 3, 5});
  const auto in = tessera_test::make_input(spec, 8);
  std::vector<unsigned char> out(tessera_test::out_bytes(spec) + 16, 0xFF);
  transpose(reinterpret_cast<const float*>(in.data()), spec.rows, spec.cols, reinterpret_cast<float*>(out.data()),
            {.ld_in = spec.ld_in, .ld_out = spec.ld_out, .variant = "cpu_openmp_blocked", .stream = stream()});
  EXPECT_TRUE(tessera_test::check_output(spec, in.data(), out.data(), 0xFF, false));
}

TEST_F(TransposeGpuTest, ApiErrorsNameTheProblemAndWriteNothing) {
  using tessera_test::error_message;
  using tessera_test::has_substr;
  DeviceCase c(tessera_test::spec_of(Dtype::f32, {6, 8}), 1);
  const auto* d_in = static_cast<const float*>(c.in_ptr());
  auto* d_out = static_cast<float*>(c.out_ptr());
  std::vector<float> host(48, 1.0f);

  std::string msg = error_message([&] { transpose(host.data(), 6, 8, d_out); });
  EXPECT_TRUE(has_substr(msg, "d_in must point to device memory"));
  msg = error_message([&] { transpose(d_in, 6, 8, host.data()); });
  EXPECT_TRUE(has_substr(msg, "d_out must point to device memory"));
  msg = error_message([&] { transpose(d_in, 6, 8, d_out, {.variant = "cpu_reference"}); });
  EXPECT_TRUE(has_substr(msg, "host memory"));
  msg = error_message([&] { transpose(d_in, 6, 8, d_out, {.variant = "copy_bound"}); });
  EXPECT_TRUE(has_substr(msg, "instead of transposing"));
  msg = error_message([&] {
    transpose(reinterpret_cast<const std::int32_t*>(d_in), 6, 8, reinterpret_cast<std::int32_t*>(d_out),
              {.variant = "cublas_geam"});
  });
  EXPECT_TRUE(has_substr(msg, "does not support int32"));
  msg = error_message([&] { transpose(d_in, 6, 8, const_cast<float*>(d_in) + 3); });
  EXPECT_TRUE(has_substr(msg, "overlap"));
  device_sync();
  // Nothing ran: the output is still poison.
  std::vector<unsigned char> got(c.out.bytes());
  c.out.download(got.data(), got.size());
  for (unsigned char b : got) ASSERT_EQ(b, c.poison);
}

}  // namespace
