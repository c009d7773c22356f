// The product's CUDA transpose rungs, the cuBLAS baseline and the public API
// on a GPU, checked element by element against the definition
// (test_transpose_support.hpp; the per-rung suite is
// test_transpose_gpu_suite.hpp, which the lab's rows go through too).
// Compiled in CUDA builds only; every test skips when no device is present.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "families/transpose/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/transpose.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"
#include "test_transpose_gpu_suite.hpp"
#include "test_transpose_support.hpp"

namespace transpose_gpu_suite {

INSTANTIATE_TEST_SUITE_P(Rungs, TransposeGpu, ::testing::ValuesIn(gpu_variants()),
                         [](const auto& info) { return std::string(info.param->info.name); });

using TransposeGpuTest = tessera_test::GpuFixture<::testing::Test>;
using tessera_test::device_sync;

// ---- the public API ------------------------------------------------------------

template <class T>
void api_case(const TShape& shape, const std::string& variant, cudaStream_t stream, Workspace workspace = {}) {
  const TransposeSpec spec = tessera_test::spec_of(dtype_of<T>(), shape);
  DeviceCase c(spec, 44);
  transpose(static_cast<const T*>(c.in_ptr()), shape.rows, shape.cols, static_cast<T*>(c.out_ptr()),
            {.ld_in = spec.ld_in, .ld_out = spec.ld_out, .variant = variant, .stream = stream, .workspace = workspace});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  EXPECT_TRUE(c.check(false)) << (variant.empty() ? "default" : variant);
}

TEST_F(TransposeGpuTest, ApiDefaultAndEveryVariantByName) {
  const auto* pick = transpose_impl::variants_ladder().find(transpose_default_variant(Dtype::f32, 8192, 8192));
  ASSERT_NE(pick, nullptr);
  EXPECT_EQ(pick->info.role, Role::product) << "the API picks a product row";
  for (const TShape& shape : {TShape{1, 1}, TShape{33, 65}, TShape{128, 256}, TShape{97, 101, 3, 5}}) {
    SCOPED_TRACE(tessera_test::shape_name(shape));
    api_case<float>(shape, "", stream());
    api_case<double>(shape, "", stream());
    api_case<std::int32_t>(shape, "", stream());
    api_case<std::int64_t>(shape, "", stream());
    api_case<std::uint32_t>(shape, "", stream());
    DeviceBytes unused(64, "test workspace");  // no variant needs one: a given workspace changes nothing
    api_case<float>(shape, "", stream(), {unused.data(), unused.bytes()});
    for (const auto& v : transpose_impl::variants_ladder().all())
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

}  // namespace transpose_gpu_suite
