// GPU helpers shared by the composition tests of the product
// (tests/test_compose_gpu.cpp) and of the lab's tuning rows
// (lab/tests/test_compose_gpu.cpp): run one variant on device buffers with
// poisoned outputs and workspace, compare with the independent reference of
// compose_test_support.hpp, and the checks every single-pass rung must pass
// (edge sizes and shapes, misaligned pointers, repeatability, many tiles, a
// run across every tile, graph capture). CUDA builds only.
//
// Inputs are uploaded with synchronous copies and the device is synchronised
// before anything runs on the test's non-blocking stream.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "compose_test_support.hpp"
#include "families/compose/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "test_gpu_support.hpp"

namespace compose_test {

using tessera::DeviceBuffer;
using tessera::DeviceBytes;
using tessera::compose_impl::Call;
using tessera::compose_impl::Variant;

template <class Base>
using WithGpu = tessera_test::GpuFixture<Base>;

// Around warps, blocks, the 4096-element 4-byte tile (2048 for 8-byte keys);
// 1000003 spans more than one look-back round (128 tiles of 4096) with a
// ragged tail.
inline constexpr std::size_t kGpuSizes[] = {0,    1,    2,    3,    31,   33,    255,   257,    1023,    2047,    2048,
                                            2049, 4095, 4096, 4097, 8191, 12289, 65537, 131073, 262147, 1000003};

// What one device run wrote.
template <class T>
struct DeviceRun {
  std::vector<T> out;
  std::vector<std::int64_t> lengths;
  std::int64_t count = 0;
};

// Runs variant v on `in` (uploaded at `offset` elements into its allocation,
// flags at `flag_offset`), outputs poisoned with `poison`, workspace with 0xA5.
template <class T>
DeviceRun<T> run_on_device(const Variant& v, const Input<T>& in, cudaStream_t stream, std::size_t offset = 0,
                           std::size_t flag_offset = 0, unsigned char poison = 0x5A) {
  const Spec& s = in.spec;
  const std::size_t n = in.x.size(), cap = tessera::compose_impl::output_capacity(s);
  const bool with_lengths = tessera::compose_impl::has_lengths(s.family);
  DeviceBuffer<T> d_in(offset + n + 1, "test input");
  if (n > 0) TESSERA_CUDA(cudaMemcpy(d_in.data() + offset, in.x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  DeviceBuffer<std::uint8_t> d_flags(flag_offset + n + 1, "test flags");
  if (!in.flags.empty())
    TESSERA_CUDA(cudaMemcpy(d_flags.data() + flag_offset, in.flags.data(), n, cudaMemcpyHostToDevice));
  DeviceBuffer<T> d_out(cap, "test output");
  DeviceBuffer<std::int64_t> d_lengths(with_lengths ? cap : 0, "test lengths");
  DeviceBuffer<std::int64_t> d_count(1, "test count");
  DeviceBytes ws(v.workspace_bytes(s), "test workspace");
  TESSERA_CUDA(cudaDeviceSynchronize());
  ws.fill_bytes(0xA5, stream);
  d_out.fill_bytes(poison, stream);
  d_lengths.fill_bytes(poison, stream);
  d_count.fill_bytes(poison, stream);
  v.run(Call{s, n > 0 ? d_in.data() + offset : nullptr, s.flagged ? d_flags.data() + flag_offset : nullptr,
             d_out.data(), d_lengths.data(), d_count.data(), ws.data(), stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  DeviceRun<T> r;
  r.out.resize(cap);
  r.lengths.resize(with_lengths ? cap : 0);
  d_out.download(r.out.data(), cap);
  d_lengths.download(r.lengths.data(), r.lengths.size());
  d_count.download(&r.count, 1);
  return r;
}

template <class T>
void check_device(const Variant& v, const Input<T>& in, cudaStream_t stream, std::size_t offset = 0,
                  std::size_t flag_offset = 0) {
  try {
    const auto got = run_on_device(v, in, stream, offset, flag_offset);
    expect_matches(in.spec, reference(in.spec, in.x, in.flags), got.out, got.lengths, got.count, 0x5A);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw: " << e.what();
  }
}

// ---- one (variant, spec) case -------------------------------------------------

struct GpuCase {
  Spec spec;
  std::string variant;
};

inline void PrintTo(const GpuCase& c, std::ostream* os) { *os << c.variant << " " << spec_name(c.spec); }

// Every (spec, CUDA variant) pair whose variant's role passes `wanted`.
template <class RoleFilter>
std::vector<GpuCase> gpu_cases(RoleFilter wanted) {
  std::vector<GpuCase> cases;
  for (const Spec& s : all_specs())
    for (const auto& v : tessera::compose_impl::variants(s.family)) {
      Spec probe = s;
      probe.n = 1000;
      if (v.info.backend == tessera::Backend::cuda && wanted(v.info.role) && v.supports(probe))
        cases.push_back({s, std::string(v.info.name)});
    }
  return cases;
}

inline std::string gpu_case_name(const ::testing::TestParamInfo<GpuCase>& info) {
  std::string s = info.param.variant + "_" + spec_name(info.param.spec);
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

// One test per (variant, spec), so that ctest stays at a few hundred entries:
// edge sizes and shapes; misaligned input and flag pointers (1 and 3 elements
// past a 256-byte boundary: a partial first tile, flags off their word
// alignment); and a second run on the same data (workspace reused, as when
// the harness times) giving the same bits.
inline void check_rung_matches_reference(const GpuCase& c, cudaStream_t stream) {
  const Variant* found = tessera::compose_impl::find_variant(c.spec.family, c.variant);
  ASSERT_NE(found, nullptr) << c.variant;
  const Variant& variant = *found;
  const Spec base = c.spec;
  with_type(base.dtype, [&]<class T>() {
    for (Shape shape : shapes_for(base))
      for (std::size_t n : kGpuSizes) {
        const double fraction = n % 3 == 0 ? 0.05 : n % 3 == 1 ? 0.5 : 0.95;
        Spec s = base;
        s.n = n;
        if (!variant.supports(s)) continue;
        SCOPED_TRACE(::testing::Message() << c.variant << " " << spec_name(base) << " n=" << n << " shape "
                                          << static_cast<int>(shape) << " fraction " << fraction);
        check_device(variant,
                     make_input<T>(base, n, seed_for(spec_name(base), n, static_cast<int>(shape)), shape, fraction),
                     stream);
      }

    for (std::size_t offset : {std::size_t(1), std::size_t(3)})
      for (std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(4097), std::size_t(131073)}) {
        Spec s = base;
        s.n = n;
        if (!variant.supports(s)) continue;
        SCOPED_TRACE(::testing::Message() << c.variant << " " << spec_name(base) << " n=" << n << " misaligned by "
                                          << offset);
        check_device(variant, make_input<T>(base, n, seed_for("misaligned", n, offset), shapes_for(base).front(), 0.5),
                     stream, offset, offset + 1);
      }

    const std::size_t n = 300007;
    Spec s = base;
    s.n = n;
    if (!variant.supports(s)) return;
    SCOPED_TRACE("repeat");
    const auto in = make_input<T>(base, n, seed_for("repeat", n), shapes_for(base).front(), 0.5);
    const auto a = run_on_device(variant, in, stream);
    const auto b = run_on_device(variant, in, stream, 0, 0, 0x00);
    // Families without a count leave the count word as poisoned, and the two
    // runs poison it differently: compare it only where it is an output.
    if (tessera::compose_impl::has_count(s.family)) {
      ASSERT_EQ(a.count, b.count);
    }
    const std::size_t extent = tessera::compose_impl::has_count(s.family) && s.family != Family::partition
                                   ? static_cast<std::size_t>(a.count)
                                   : n;
    EXPECT_EQ(std::memcmp(a.out.data(), b.out.data(), extent * sizeof(T)), 0) << "a second run differs";
  });
}

// ---- the look-back rungs ----------------------------------------------------------

// The look-back with many tiles in flight: a long input through every
// one-pass rung (single_pass*) of compact, partition, unique and rle whose
// role passes `wanted` (2^24 + 7 elements: 4096 tiles of 256 x 4 vectors,
// 2048 of the 512-thread tiles, many look-back windows: 64 of
// single_pass_early's 32-slot sparse window).
template <class RoleFilter>
void check_single_pass_on_many_tiles(RoleFilter wanted, cudaStream_t stream) {
  constexpr std::size_t n = (std::size_t(1) << 24) + 7;
  for (Family f : {Family::compact, Family::partition, Family::unique, Family::rle}) {
    Spec s = spec_of(f, Dtype::i32);
    s.pred = Pred::greater;
    const Shape shape = f == Family::unique || f == Family::rle ? Shape::runs : Shape::uniform;
    const auto in = make_input<std::int32_t>(s, n, seed_for("many tiles", n, static_cast<int>(f)), shape, 0.3);
    for (const Variant& v : tessera::compose_impl::variants(f)) {
      if (!v.info.name.starts_with("single_pass") || !wanted(v.info.role)) continue;
      SCOPED_TRACE(::testing::Message() << tessera::compose_impl::to_string(f) << "/" << v.info.name);
      check_device(v, in, stream);
    }
  }
}

// A single run across thousands of tiles: the rle look-back must carry the
// run's start from tile 0 to the last tile.
inline void check_one_run_across_every_tile(const char* rle_variant, cudaStream_t stream) {
  constexpr std::size_t n = 3000017;
  std::vector<std::int64_t> x(n, 42);
  x[n - 1] = 43;
  Input<std::int64_t> in{spec_of(Family::rle, Dtype::i64), x, {}};
  in.spec.n = n;
  const Variant* v = tessera::compose_impl::find_variant(Family::rle, rle_variant);
  ASSERT_NE(v, nullptr) << rle_variant;
  SCOPED_TRACE(rle_variant);
  check_device(*v, in, stream);
}

// A compaction rung captured in a CUDA graph (no allocation, no host
// synchronisation) and replayed twice (the workspace is re-zeroed inside)
// gives the reference answer.
inline void check_graph_replay(const char* compact_variant, cudaStream_t stream) {
  constexpr std::size_t n = 1000003;
  Spec s = spec_of(Family::compact, Dtype::f32);
  s.pred = Pred::greater;
  const auto in = make_input<float>(s, n, 99, Shape::uniform, 0.5);
  const Variant* found = tessera::compose_impl::find_variant(Family::compact, compact_variant);
  ASSERT_NE(found, nullptr) << compact_variant;
  const Variant& v = *found;
  DeviceBuffer<float> d_in(n), d_out(n);
  DeviceBuffer<std::int64_t> d_count(1);
  DeviceBytes ws(v.workspace_bytes(in.spec));
  d_in.upload(in.x.data(), n);
  TESSERA_CUDA(cudaDeviceSynchronize());
  // One ordinary run first: loads the kernels and fills per-device caches.
  v.run(Call{in.spec, d_in.data(), nullptr, d_out.data(), nullptr, d_count.data(), ws.data(), stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  cudaGraph_t graph = nullptr;
  TESSERA_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  v.run(Call{in.spec, d_in.data(), nullptr, d_out.data(), nullptr, d_count.data(), ws.data(), stream});
  TESSERA_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  d_count.fill_bytes(0xFF, stream);
  d_out.fill_bytes(0xFF, stream);
  TESSERA_CUDA(cudaGraphLaunch(exec, stream));
  TESSERA_CUDA(cudaGraphLaunch(exec, stream));
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
  std::int64_t count = 0;
  d_count.download(&count, 1);
  std::vector<float> out(n);
  d_out.download(out.data(), n);
  const auto want = reference(in.spec, in.x, in.flags);
  ASSERT_EQ(count, want.count) << compact_variant;
  EXPECT_EQ(std::memcmp(out.data(), want.out.data(), want.out.size() * sizeof(float)), 0) << compact_variant;
}

}  // namespace compose_test
