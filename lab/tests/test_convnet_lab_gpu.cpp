// The lab's convnet rows (winograd_f4x3 in groups of 2 to 64 images per
// pass, and with each of its GEMM tiles forced) on a GPU: every row against
// the long-double answer at the scale of winograd_f4x3's 4x4 output tiles,
// on batches that leave a partial last group (n = 5, 9, 17), ho not a
// multiple of 4, c and m off every GEMM tile,
// through a caller's workspace that is not 256-byte aligned. Every test
// skips when no device is present.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "convnet_test_support.hpp"
#include "families/convnet/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "test_gpu_support.hpp"

namespace {

using tessera::conv_impl::ConvVariant;

std::vector<const ConvVariant*> tuning_rows() {
  std::vector<const ConvVariant*> out;
  for (const auto& v : tessera::conv_impl::variants_ladder().all())
    if (v.info.role == tessera::Role::tuning && v.info.name.starts_with("winograd_f4x3_")) out.push_back(&v);
  return out;
}

class ConvnetLabGpu : public tessera_test::GpuFixture<::testing::TestWithParam<const ConvVariant*>> {};

TEST_P(ConvnetLabGpu, GroupsMatchTheAnswerAtTileScale) {
  const ConvVariant& v = *GetParam();
  const tessera::ConvShape layers[] = {convnet_test::layer(5, 3, 9, 9, 7, 3, 1), convnet_test::layer(9, 33, 13, 13, 40, 3, 1),
                                       convnet_test::layer(17, 8, 6, 10, 5, 3, 2)};
  std::uint32_t seed = 70;
  for (const tessera::ConvShape& shape : layers) {
    SCOPED_TRACE(std::string(v.info.name) + " " + convnet_test::name_of(shape));
    const auto spec = tessera::conv_impl::make_spec(shape);
    ASSERT_TRUE(v.supports(spec));
    const auto x = convnet_test::random_floats(convnet_test::x_elems(shape), seed++);
    const auto w = convnet_test::random_floats(convnet_test::w_elems(shape), seed++);
    tessera::DeviceBuffer<float> dx(x.size()), dw(w.size()), dy(convnet_test::y_elems(shape));
    dx.upload(x.data(), x.size());
    dw.upload(w.data(), w.size());
    dy.fill_bytes(0xFF);
    const std::size_t bytes = v.workspace_bytes(spec);
    tessera::DeviceBuffer<unsigned char> ws(bytes + 4);
    v.run({spec, dx.data(), dw.data(), dy.data(), ws.data() + 4, stream()});  // 4 bytes past an aligned start
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
    std::vector<float> y(convnet_test::y_elems(shape));
    dy.download(y.data(), y.size());
    EXPECT_TRUE(convnet_test::within_bound(y, convnet_test::at_tile_scale(shape, convnet_test::expected(shape, x, w))));
  }
}

INSTANTIATE_TEST_SUITE_P(Tuning, ConvnetLabGpu, ::testing::ValuesIn(tuning_rows()),
                         [](const auto& info) { return std::string(info.param->info.name); });

}  // namespace
