// The composition rungs on a GPU (every CUDA and vendor variant of map,
// adjacent_difference, compact, partition, unique, find_unique, rle) checked
// against the independent reference of compose_test_support.hpp: edge sizes
// around warps, blocks and the 4096-element tiles, many tiles (the look-back
// walks past its 128-tile window), misaligned input and flag pointers, runs
// longer than a tile, poisoned workspaces and outputs, repeatability, graph
// capture, and the public API with device pointers. Compiled in CUDA builds
// only; every test skips when no device is present.
//
// Inputs are uploaded with synchronous copies and the device is synchronised
// before anything runs on the test's non-blocking stream.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "compose_test_support.hpp"
#include "families/compose/contract.hpp"
#include "tessera/compact.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"
#include "tessera/map.hpp"
#include "test_gpu_support.hpp"

namespace {

using namespace compose_test;
using tessera::DeviceBuffer;
using tessera::DeviceBytes;
using tessera::compose_impl::Call;
using tessera::compose_impl::Variant;

// Around warps, blocks, the 4096-element 4-byte tile (2048 for 8-byte keys);
// 1000003 spans more than one look-back round (128 tiles of 4096) with a
// ragged tail.
constexpr std::size_t kSizes[] = {0,    1,    2,    3,    31,   33,    255,   257,    1023,    2047,    2048,
                                  2049, 4095, 4096, 4097, 8191, 12289, 65537, 131073, 262147, 1000003};

template <class Base>
using WithGpu = tessera_test::GpuFixture<Base>;

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

struct GpuCase {
  Spec spec;
  std::string variant;
};

void PrintTo(const GpuCase& c, std::ostream* os) { *os << c.variant << " " << spec_name(c.spec); }

std::vector<GpuCase> gpu_cases() {
  std::vector<GpuCase> cases;
  for (const Spec& s : all_specs())
    for (const auto& v : tessera::compose_impl::variants(s.family)) {
      Spec probe = s;
      probe.n = 1000;
      if (v.info.backend == tessera::Backend::cuda && v.supports(probe)) cases.push_back({s, std::string(v.info.name)});
    }
  return cases;
}

class GpuRung : public WithGpu<::testing::TestWithParam<GpuCase>> {
 protected:
  const Variant& variant() const {
    const Variant* v = tessera::compose_impl::find_variant(GetParam().spec.family, GetParam().variant);
    EXPECT_NE(v, nullptr);
    return *v;
  }
};

// One test per (variant, spec), so that ctest stays at a few hundred entries:
// edge sizes and shapes; misaligned input and flag pointers (1 and 3 elements
// past a 256-byte boundary: a partial first tile, flags off their word
// alignment); and a second run on the same data (workspace reused, as when
// the harness times) giving the same bits.
TEST_P(GpuRung, MatchesReference) {
  const Spec base = GetParam().spec;
  with_type(base.dtype, [&]<class T>() {
    for (Shape shape : shapes_for(base))
      for (std::size_t n : kSizes) {
        const double fraction = n % 3 == 0 ? 0.05 : n % 3 == 1 ? 0.5 : 0.95;
        Spec s = base;
        s.n = n;
        if (!variant().supports(s)) continue;
        SCOPED_TRACE(::testing::Message() << GetParam().variant << " " << spec_name(base) << " n=" << n << " shape "
                                          << static_cast<int>(shape) << " fraction " << fraction);
        check_device(variant(), make_input<T>(base, n, seed_for(spec_name(base), n, static_cast<int>(shape)), shape,
                                              fraction),
                     stream());
      }

    for (std::size_t offset : {std::size_t(1), std::size_t(3)})
      for (std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(4097), std::size_t(131073)}) {
        Spec s = base;
        s.n = n;
        if (!variant().supports(s)) continue;
        SCOPED_TRACE(::testing::Message() << GetParam().variant << " " << spec_name(base) << " n=" << n
                                          << " misaligned by " << offset);
        check_device(variant(), make_input<T>(base, n, seed_for("misaligned", n, offset), shapes_for(base).front(), 0.5),
                     stream(), offset, offset + 1);
      }

    const std::size_t n = 300007;
    Spec s = base;
    s.n = n;
    if (!variant().supports(s)) return;
    SCOPED_TRACE("repeat");
    const auto in = make_input<T>(base, n, seed_for("repeat", n), shapes_for(base).front(), 0.5);
    const auto a = run_on_device(variant(), in, stream());
    const auto b = run_on_device(variant(), in, stream(), 0, 0, 0x00);
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

std::string gpu_case_name(const ::testing::TestParamInfo<GpuCase>& info) {
  std::string s = info.param.variant + "_" + spec_name(info.param.spec);
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuRung);
INSTANTIATE_TEST_SUITE_P(Compose, GpuRung, ::testing::ValuesIn(gpu_cases()), gpu_case_name);

using ComposeGpu = WithGpu<::testing::Test>;

// The look-back with many tiles in flight: a long input, every mode and every
// single-pass policy, checked against the reference (2^24 + 7 elements: 4096
// tiles of the primary, 2048 of single_pass_wide and single_pass_early, many
// look-back windows: 64 of single_pass_early's 32-slot sparse window).
TEST_F(ComposeGpu, SinglePassOnManyTiles) {
  constexpr std::size_t n = (std::size_t(1) << 24) + 7;
  for (Family f : {Family::compact, Family::partition, Family::unique, Family::rle}) {
    Spec s = spec_of(f, Dtype::i32);
    s.pred = Pred::greater;
    const Shape shape = f == Family::unique || f == Family::rle ? Shape::runs : Shape::uniform;
    const auto in = make_input<std::int32_t>(s, n, seed_for("many tiles", n, static_cast<int>(f)), shape, 0.3);
    for (const char* name : {"single_pass", "single_pass_lean", "single_pass_wide", "single_pass_early", "single_pass_bulk"}) {
      const Variant* v = tessera::compose_impl::find_variant(f, name);
      if (v == nullptr) continue;  // rle has no single_pass_wide, _early or _bulk; partition no _bulk
      SCOPED_TRACE(name);
      check_device(*v, in, stream());
    }
  }
}

// A single run across thousands of tiles: the rle look-back must carry the
// run's start from tile 0 to the last tile.
TEST_F(ComposeGpu, RunLengthOfOneRunAcrossEveryTile) {
  constexpr std::size_t n = 3000017;
  std::vector<std::int64_t> x(n, 42);
  x[n - 1] = 43;
  Input<std::int64_t> in{spec_of(Family::rle, Dtype::i64), x, {}};
  in.spec.n = n;
  for (const char* name : {"single_pass", "single_pass_lean", "flags_scan_scatter"})
    check_device(*tessera::compose_impl::find_variant(Family::rle, name), in, stream());
}

// A single-pass run can be captured in a CUDA graph (no allocation, no host
// synchronisation) and replayed: the replay gives the same answer.
TEST_F(ComposeGpu, SinglePassIsGraphCapturable) {
  constexpr std::size_t n = 1000003;
  Spec s = spec_of(Family::compact, Dtype::f32);
  s.pred = Pred::greater;
  const auto in = make_input<float>(s, n, 99, Shape::uniform, 0.5);
  const Variant& v = *tessera::compose_impl::find_variant(Family::compact, "single_pass");
  DeviceBuffer<float> d_in(n), d_out(n);
  DeviceBuffer<std::int64_t> d_count(1);
  DeviceBytes ws(v.workspace_bytes(in.spec));
  d_in.upload(in.x.data(), n);
  TESSERA_CUDA(cudaDeviceSynchronize());
  cudaGraph_t graph = nullptr;
  TESSERA_CUDA(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
  v.run(Call{in.spec, d_in.data(), nullptr, d_out.data(), nullptr, d_count.data(), ws.data(), stream()});
  TESSERA_CUDA(cudaStreamEndCapture(stream(), &graph));
  cudaGraphExec_t exec = nullptr;
  TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  d_count.fill_bytes(0xFF, stream());
  TESSERA_CUDA(cudaGraphLaunch(exec, stream()));
  TESSERA_CUDA(cudaGraphLaunch(exec, stream()));  // twice: the workspace is re-zeroed inside
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
  std::int64_t count = 0;
  d_count.download(&count, 1);
  std::vector<float> out(n);
  d_out.download(out.data(), n);
  const auto want = reference(in.spec, in.x, in.flags);
  ASSERT_EQ(count, want.count);
  EXPECT_EQ(std::memcmp(out.data(), want.out.data(), want.out.size() * sizeof(float)), 0);
}

// ---- the public API on device pointers -------------------------------------------

TEST_F(ComposeGpu, PublicApiDefaultsAndCountOnDevice) {
  constexpr std::size_t n = 123457;
  std::vector<std::int32_t> x(n);
  tessera::harness::fill_runs(x.data(), Dtype::i32, n, 5, 0.2);
  DeviceBuffer<std::int32_t> d_x(n), d_y(n);
  DeviceBuffer<std::int64_t> d_len(n), d_count(1);
  d_x.upload(x.data(), n);
  TESSERA_CUDA(cudaDeviceSynchronize());
  const tessera::CompactOptions on{.stream = stream()};

  EXPECT_EQ(tessera::compose_default_variant("compact", Dtype::i32, n), "single_pass_bulk");
  EXPECT_EQ(tessera::compose_default_variant("compact", Dtype::i64, n), "single_pass_bulk");
  EXPECT_EQ(tessera::compose_default_variant("unique", Dtype::i32, n), "single_pass_bulk");
  const auto k = tessera::compact_if(d_x.data(), n, d_y.data(), tessera::even<std::int32_t>(), on);
  EXPECT_EQ(k, std::count_if(x.begin(), x.end(), [](std::int32_t v) { return v % 2 == 0; }));
  std::vector<std::int32_t> y(static_cast<std::size_t>(k));
  d_y.download(y.data(), y.size());
  std::vector<std::int32_t> want;
  std::copy_if(x.begin(), x.end(), std::back_inserter(want), [](std::int32_t v) { return v % 2 == 0; });
  EXPECT_EQ(y, want);
  // Flagged compaction through the default: single_pass_bulk does not take
  // flags, the API must route it to single_pass_early.
  std::vector<std::uint8_t> fl(n);
  for (std::size_t i = 0; i < n; ++i) fl[i] = static_cast<std::uint8_t>((x[i] >> 3) & 1);
  DeviceBuffer<std::uint8_t> d_fl(n);
  d_fl.upload(fl.data(), n);
  TESSERA_CUDA(cudaDeviceSynchronize());
  const auto kf = tessera::compact_flagged(d_x.data(), d_fl.data(), n, d_y.data(), on);
  EXPECT_EQ(kf, std::count(fl.begin(), fl.end(), std::uint8_t{1}));

  tessera::unique_into(d_x.data(), n, d_y.data(), d_count.data(), on);
  std::int64_t count = 0;
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  d_count.download(&count, 1);
  std::vector<std::int32_t> u;
  std::unique_copy(x.begin(), x.end(), std::back_inserter(u));
  EXPECT_EQ(count, static_cast<std::int64_t>(u.size()));

  const auto runs = tessera::run_length_encode(d_x.data(), n, d_y.data(), d_len.data(), on);
  EXPECT_EQ(runs, static_cast<std::int64_t>(u.size()));
  std::vector<std::int64_t> len(static_cast<std::size_t>(runs));
  d_len.download(len.data(), len.size());
  EXPECT_EQ(std::accumulate(len.begin(), len.end(), std::int64_t(0)), static_cast<std::int64_t>(n));

  // Bytes of text: the known-domain default.
  std::vector<std::uint8_t> text(1 << 20);
  tessera::harness::fill_random(text.data(), text.size(), 3, tessera::harness::Distribution::text);
  DeviceBuffer<std::uint8_t> d_text(text.size()), d_distinct(256);
  d_text.upload(text.data(), text.size());
  TESSERA_CUDA(cudaDeviceSynchronize());
  const auto distinct = tessera::find_unique(d_text.data(), text.size(), d_distinct.data(), on);
  std::vector<std::uint8_t> sorted = text;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(distinct, std::unique(sorted.begin(), sorted.end()) - sorted.begin());
}

TEST_F(ComposeGpu, PublicApiRejectsHostPointersAndOverlap) {
  constexpr std::size_t n = 1000;
  DeviceBuffer<float> d_x(n), d_y(2 * n);
  std::vector<float> host(n);
  EXPECT_THROW(tessera::compact_if(host.data(), n, d_y.data(), tessera::greater_than(0.f)), tessera::Error);
  EXPECT_THROW(tessera::compact_if(d_y.data(), n, d_y.data() + n / 2, tessera::greater_than(0.f)), tessera::Error);
  EXPECT_THROW(tessera::partition_if(d_y.data(), n, d_y.data() + n - 1, tessera::greater_than(0.f)), tessera::Error);
  // The exactly adjacent ranges do not overlap.
  EXPECT_NO_THROW(tessera::compact_if(d_y.data(), n, d_y.data() + n, tessera::greater_than(0.f)));
  // In-place map is allowed.
  EXPECT_NO_THROW(tessera::transform(d_x.data(), n, d_x.data(), MapFn::twice));
  TESSERA_CUDA(cudaDeviceSynchronize());
}

}  // namespace
