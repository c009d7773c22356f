// The GPU checks every CUDA transpose row goes through, element by element
// against the definition (test_transpose_support.hpp): every type and shape,
// offset pointers, long rows and columns, graph capture. A value-parameterised
// suite, instantiated by tests/test_transpose_gpu.cpp over the product's rows
// and by lab/tests/test_transpose_lab_gpu.cpp over the lab's; include it from
// one file per test binary. Every test skips when no device is present.
//
// Inputs are uploaded and outputs poisoned with synchronous copies and
// memsets followed by a device synchronisation before anything runs on the
// test's non-blocking stream.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "families/transpose/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"
#include "test_transpose_support.hpp"

namespace transpose_gpu_suite {

using namespace tessera;
using tessera_test::TShape;
using transpose_impl::Output;
using transpose_impl::TransposeCall;
using transpose_impl::TransposeSpec;
using transpose_impl::TransposeVariant;

inline constexpr Dtype kTypes[] = {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::i64, Dtype::u32};

// The CUDA rows of the ladder with role `role` (all of them: std::nullopt).
inline std::vector<const TransposeVariant*> gpu_variants(std::optional<Role> role = std::nullopt) {
  std::vector<const TransposeVariant*> v;
  for (const auto& var : transpose_impl::variants_ladder().all())
    if (var.info.backend == Backend::cuda && (!role || var.info.role == *role)) v.push_back(&var);
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

inline ::testing::AssertionResult run_and_check(const TransposeVariant& v, DeviceCase& c, cudaStream_t stream) {
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

// Offset pointers (not 16-byte aligned, so 16-byte paths must fall back):
// every rung stays right.
TEST_P(TransposeGpu, OffsetPointers) {
  const TransposeVariant& v = *GetParam();
  for (Dtype t : {Dtype::f32, Dtype::f64})
    for (const TShape& shape : {TShape{100, 200}, TShape{128, 256}, TShape{33, 65}, TShape{96, 160, 4, 28}})
      for (std::size_t off : {1, 3}) {
        const TransposeSpec spec = tessera_test::spec_of(t, shape);
        SCOPED_TRACE(std::string(to_string(t)) + " " + tessera_test::shape_name(shape) + " offset " +
                     std::to_string(off));
        DeviceCase in_off(spec, 71, off, 0), out_off(spec, 72, 0, off);
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

}  // namespace transpose_gpu_suite
