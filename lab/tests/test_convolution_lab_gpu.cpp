// The lab's conv2d rows on a GPU: every output against the long-double
// definition (tests/conv_test_support.hpp) at images that are not multiples
// of the 128 x 64 tile, with pitches that do and do not take the 16-byte
// copies, one-row / one-column images and more tiles than resident blocks.
// Every test skips when no device is present.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conv_test_support.hpp"
#include "families/convolution/contract.hpp"
#include "tessera/convolution.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "test_gpu_support.hpp"

namespace {

using namespace conv_test;
namespace ci = tessera::convolution_impl;

using ConvLabGpu = tessera_test::GpuFixture<::testing::Test>;

TEST_F(ConvLabGpu, TuningRowsMatchTheDefinition) {
  struct Shape {
    std::size_t w, h, m, pad;
  };
  const Shape shapes[] = {{389, 201, 9, 3}, {390, 200, 5, 2}, {387, 130, 7, 0}, {262, 9000, 9, 2},
                          {1, 300, 1, 0},   {300, 1, 1, 0},   {33, 17, 3, 0}};
  int rows = 0;
  std::uint32_t seed = 700;
  for (const auto& v : ci::conv2d_ladder().all()) {
    if (v.info.role != tessera::Role::tuning) continue;
    ++rows;
    for (const Shape& s : shapes) {
      const std::size_t pitch = s.w + s.pad, elems = (s.h - 1) * pitch + s.w;
      const auto in = random_floats(elems, seed += 3);
      const auto mask = random_floats(s.m * s.m, seed + 1);
      tessera::DeviceBuffer<float> d_in(elems), d_out(elems);
      d_in.upload(in.data(), elems);
      d_out.fill_bytes(0xFF);
      tessera_test::device_sync();
      tessera::conv2d(d_in.data(), s.w, s.h, mask.data(), s.m, s.m, d_out.data(),
                      {.pitch = pitch, .variant = std::string(v.info.name), .stream = stream()});
      TESSERA_CUDA(cudaStreamSynchronize(stream()));
      std::vector<float> out(elems);
      d_out.download(out.data(), elems);
      expect_close(out, s.w, s.h, pitch, expected(in, s.w, s.h, pitch, mask, s.m, s.m), s.m * s.m,
                   std::string(v.info.name) + " " + std::to_string(s.w) + "x" + std::to_string(s.h));
    }
  }
  EXPECT_GE(rows, 1) << "no conv2d tuning rows registered";
}

}  // namespace
