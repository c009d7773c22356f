// The lab's transpose rows on a GPU: the product's per-rung suite
// (tests/test_transpose_gpu_suite.hpp) over every tuning row, plus what only
// the lab's kernels have: the 16-byte path and its fallback (vec16_*), and
// persistent blocks that move many tiles each (vec16_persistent*). Every
// test skips when no device is present.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "test_transpose_gpu_suite.hpp"
#include "transpose/lab_rungs.hpp"

namespace transpose_gpu_suite {

std::vector<const TransposeVariant*> lab_rows() { return gpu_variants(Role::tuning); }

INSTANTIATE_TEST_SUITE_P(Lab, TransposeGpu, ::testing::ValuesIn(lab_rows()),
                         [](const auto& info) { return std::string(info.param->info.name); });

class TransposeLabGpu : public TransposeGpu {};

// More tiles than a persistent grid has blocks (vec16_persistent*: 4 or 2
// blocks per SM, ~528 or ~264 on an H100; tiles of 64 x 64 floats or 32 x 64
// doubles): every block moves several tiles, interior ones through the
// register prefetch, edge ones element by element, the two kinds mixed in one
// block's sequence; all on the 16-byte path, pitched and not.
TEST_P(TransposeLabGpu, ManyTilesPerBlock) {
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

INSTANTIATE_TEST_SUITE_P(Lab, TransposeLabGpu, ::testing::ValuesIn(lab_rows()),
                         [](const auto& info) { return std::string(info.param->info.name); });

using TransposeLabGpuTest = tessera_test::GpuFixture<::testing::Test>;

TEST_F(TransposeLabGpuTest, Vec16PathTakenWhenAligned) {
  for (Dtype t : {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64}) {
    DeviceCase aligned(tessera_test::spec_of(t, {128, 256}), 3);
    EXPECT_TRUE(transpose_impl::vec16_path(aligned.call(stream()))) << to_string(t);
    DeviceCase pitched(tessera_test::spec_of(t, {96, 160, 4, 28}), 3);
    EXPECT_TRUE(transpose_impl::vec16_path(pitched.call(stream()))) << to_string(t);
    DeviceCase odd(tessera_test::spec_of(t, {97, 101}), 3);
    EXPECT_FALSE(transpose_impl::vec16_path(odd.call(stream()))) << to_string(t) << ": rows of 101 elements";
  }
}

// Offset pointers are not 16-byte aligned: the vec16 rows take their
// fallback (the suite's OffsetPointers checks they stay right).
TEST_F(TransposeLabGpuTest, Vec16PathNotTakenForOffsetPointers) {
  for (Dtype t : {Dtype::f32, Dtype::f64})
    for (std::size_t off : {1, 3}) {
      const TransposeSpec spec = tessera_test::spec_of(t, {128, 256});
      DeviceCase in_off(spec, 71, off, 0), out_off(spec, 72, 0, off);
      EXPECT_FALSE(transpose_impl::vec16_path(in_off.call(stream()))) << to_string(t) << " offset " << off;
      EXPECT_FALSE(transpose_impl::vec16_path(out_off.call(stream()))) << to_string(t) << " offset " << off;
    }
}

}  // namespace transpose_gpu_suite
