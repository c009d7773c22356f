// The CUDA reduce rungs, the vendor baseline and the public API on a GPU,
// checked against the independent host reference of test_support.hpp.
// Compiled in CUDA builds only; every test skips when no device is present.
//
// Inputs are uploaded with synchronous copies and the device is synchronised
// before anything runs on the test's non-blocking stream (a pageable upload
// may still be in flight when cudaMemcpy returns).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>
#include <omp.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "families/reduce/cuda_rungs.hpp"
#include "harness/generate.hpp"
#include "families/reduce/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/reduce.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using harness::Distribution;
using reduce_impl::ReduceCall;
using reduce_impl::ReduceSpec;
using reduce_impl::ReduceVariant;
using tessera_test::Combo;

constexpr std::size_t kSizes[] = {0,    1,    2,    31,   32,    33,      255,     256,
                                  257,  1023, 1024, 1025, 4097,  65537,   1000003, (std::size_t(1) << 22) + 7};

// Skips without a device; gives each test a non-blocking stream and checks
// that the test left no CUDA error behind (test_gpu_support.hpp).
template <class Base>
using WithGpu = tessera_test::GpuFixture<Base>;

using GpuTest = WithGpu<::testing::Test>;
using tessera_test::device_sync;

std::vector<const ReduceVariant*> gpu_variants() {
  std::vector<const ReduceVariant*> v;
  for (const auto& var : reduce_impl::variants_ladder().all())
    if (var.info.backend == Backend::cuda) v.push_back(&var);
  return v;
}

std::vector<Combo> supported_combos(const ReduceVariant& v) {
  std::vector<Combo> out;
  for (const Combo& c : tessera_test::all_combos())
    if (tessera_test::dispatch_supported(c) && v.supports(tessera_test::spec_of(c, 1000))) out.push_back(c);
  return out;
}

// A value that changes the result if a variant reads it: placed around the
// input in the misaligned tests.
template <class T>
T guard_value(Op op) {
  if (op == Op::min) {
    if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::min();
  }
  if (op == Op::max) {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::quiet_NaN();
  else return T(1) << (8 * sizeof(T) - 3);
}

// Runs a CUDA variant on device data, on `stream`, with a poisoned workspace
// and a poisoned two-element output; checks that only the first element is
// written. Returns the result.
template <class T>
reduce_result_t<T> run_gpu(const ReduceVariant& v, const Combo& c, const T* d_in, std::size_t n, cudaStream_t stream,
                           int ws_poison = 0xA5) {
  using R = reduce_result_t<T>;
  const ReduceSpec spec = tessera_test::spec_of(c, n);
  DeviceBytes ws(v.workspace_bytes(spec), "test workspace");
  ws.fill_bytes(ws_poison, stream);
  DeviceBuffer<R> out(2, "test output");
  out.fill_bytes(0xFF, stream);
  v.run(ReduceCall{spec, d_in, out.data(), ws.data(), stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  std::array<R, 2> host;
  out.download(host.data(), 2);
  unsigned char guard[sizeof(R)];
  std::memcpy(guard, &host[1], sizeof(R));
  for (unsigned char b : guard) EXPECT_EQ(b, 0xFF) << "wrote past the single output element";
  return host[0];
}

struct CaseOptions {
  std::size_t offset = 0;  // elements before the input in its allocation (misalignment)
  std::size_t tail = 0;    // guard elements after it
  Distribution dist = Distribution::uniform;
  const char* tag = "";
};

// One case: random input (a fresh seed), run, compare with the reference.
template <class T>
void check_gpu_case(const ReduceVariant& v, const Combo& c, std::size_t n, cudaStream_t stream,
                    const CaseOptions& o = {}) {
  const std::string what = std::string(v.info.name) + " " + tessera_test::combo_name(c);
  SCOPED_TRACE(::testing::Message() << what << " n=" << n << " offset=" << o.offset << " "
                                    << harness::to_string(o.dist));
  const std::uint64_t seed =
      tessera_test::seed_for(what + o.tag, n, o.offset * 16 + static_cast<std::uint64_t>(o.dist));
  try {
    std::vector<T> host(o.offset + n + o.tail, guard_value<T>(c.op));
    harness::fill_random(host.data() + o.offset, n, seed, o.dist);
    DeviceBuffer<T> d(host.size(), "test input");
    d.upload(host.data(), host.size());
    device_sync();
    const auto ref = tessera_test::reference(host.data() + o.offset, n, c.op);
    const T* d_in = host.empty() ? nullptr : d.data() + o.offset;
    const auto got = run_gpu<T>(v, c, d_in, n, stream);
    EXPECT_TRUE((tessera_test::check_result<T>(got, ref, c.op, c.accum, n))) << "seed " << seed;
    if (o.offset + o.tail > 0 && host.size() <= (std::size_t(1) << 20)) {
      std::vector<T> after(host.size());
      d.download(after.data(), after.size());
      EXPECT_EQ(std::memcmp(after.data(), host.data(), host.size() * sizeof(T)), 0) << "the input was modified";
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw: " << e.what();
  }
}

// ---- every CUDA variant x every supported combination ----------------------

struct GpuCase {
  std::string variant;
  Combo combo;
};

void PrintTo(const GpuCase& c, std::ostream* os) { *os << c.variant << " " << tessera_test::combo_name(c.combo); }

std::vector<GpuCase> gpu_cases() {
  std::vector<GpuCase> cases;
  for (const ReduceVariant* v : gpu_variants())
    for (const Combo& c : supported_combos(*v)) cases.push_back({std::string(v->info.name), c});
  return cases;
}

class GpuVariant : public WithGpu<::testing::TestWithParam<GpuCase>> {
 protected:
  const ReduceVariant& variant() const {
    const ReduceVariant* v = reduce_impl::variants_ladder().find(GetParam().variant);
    EXPECT_NE(v, nullptr);
    return *v;
  }
};

TEST_P(GpuVariant, MatchesReferenceAtEverySize) {
  const Combo c = GetParam().combo;
  tessera_test::with_type(c.dtype, [&]<class T>() {
    for (std::size_t n : kSizes) check_gpu_case<T>(variant(), c, n, stream());
  });
}

TEST_P(GpuVariant, OtherDistributions) {
  const Combo c = GetParam().combo;
  tessera_test::with_type(c.dtype, [&]<class T>() {
    for (Distribution d : {Distribution::small, Distribution::skewed, Distribution::constant})
      for (std::size_t n : {std::size_t(33), std::size_t(65537), std::size_t(1000003)})
        check_gpu_case<T>(variant(), c, n, stream(), {.dist = d});
  });
}

TEST_P(GpuVariant, MisalignedInput) {
  const Combo c = GetParam().combo;
  tessera_test::with_type(c.dtype, [&]<class T>() {
    for (std::size_t offset : {std::size_t(1), std::size_t(3)})
      for (std::size_t n : {0, 1, 2, 3, 31, 33, 257, 1025, 4097, 65537, 1000003})
        check_gpu_case<T>(variant(), c, n, stream(), {.offset = offset, .tail = 8, .tag = "misaligned"});
  });
}

TEST_P(GpuVariant, ExtremesAnywhere) {
  // A unique extreme value at the first, a middle or the last position: every
  // element reaches the result, whichever block or pass it lands in.
  const Combo c = GetParam().combo;
  tessera_test::with_type(c.dtype, [&]<class T>() {
    for (std::size_t n : {std::size_t(257), std::size_t(4097), std::size_t(1000003)})
      for (std::size_t pos : {std::size_t(0), n / 2 + 1, n - 1}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n << " extreme at " << pos);
        std::vector<T> x(n);
        harness::fill_random(x.data(), n, tessera_test::seed_for("extreme", n, pos), Distribution::small);
        if constexpr (std::is_floating_point_v<T>) x[pos] = c.op == Op::min ? T(-1e6) : T(1e6);
        else x[pos] = c.op == Op::min ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
        DeviceBuffer<T> d(n);
        d.upload(x.data(), n);
        device_sync();
        const auto ref = tessera_test::reference(x.data(), n, c.op);
        EXPECT_TRUE((tessera_test::check_result<T>(run_gpu<T>(variant(), c, d.data(), n, stream()), ref, c.op,
                                                  c.accum, n)));
      }
  });
}

std::string gpu_case_name(const ::testing::TestParamInfo<GpuCase>& info) {
  return tessera_test::identifier(info.param.variant + "_" + tessera_test::combo_name(info.param.combo));
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GpuVariant);
INSTANTIATE_TEST_SUITE_P(Reduce, GpuVariant, ::testing::ValuesIn(gpu_cases()), gpu_case_name);

// ---- properties across variants -----------------------------------------

TEST_F(GpuTest, MinMaxPropagateNaN) {
  for (const ReduceVariant* v : gpu_variants())
    for (Dtype t : {Dtype::f32, Dtype::f64})
      for (Op op : {Op::min, Op::max}) {
        const Combo c{t, op, Accum::native};
        if (!v->supports(tessera_test::spec_of(c, 1000))) continue;
        tessera_test::with_type(t, [&]<class T>() {
          if constexpr (std::is_floating_point_v<T>) {
            for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(65537), std::size_t(1000003)})
              for (std::size_t pos : {std::size_t(0), n / 2, n - 1}) {
                std::vector<T> x(n);
                harness::fill_random(x.data(), n, tessera_test::seed_for("nan", n, pos), Distribution::uniform);
                x[pos] = std::numeric_limits<T>::quiet_NaN();
                DeviceBuffer<T> d(n);
                d.upload(x.data(), n);
                device_sync();
                const auto got = run_gpu<T>(*v, c, d.data(), n, stream());
                EXPECT_TRUE(std::isnan(got)) << v->info.name << " " << tessera_test::combo_name(c) << " n=" << n
                                             << " NaN at " << pos << ": got " << got;
              }
          }
        });
      }
}

TEST_F(GpuTest, DeterministicVariantsAreBitwiseReproducible) {
  constexpr std::size_t n = 1000003;
  std::vector<float> x(n);
  harness::fill_random(x.data(), n, 1234, Distribution::uniform);
  DeviceBuffer<float> d(n);
  d.upload(x.data(), n);
  device_sync();
  int checked = 0;
  for (const ReduceVariant* v : gpu_variants()) {
    if (!v->info.deterministic) continue;
    for (Accum a : {Accum::native, Accum::dfloat}) {
      const Combo c{Dtype::f32, Op::sum, a};
      if (!v->supports(tessera_test::spec_of(c, n))) continue;
      // Different workspace garbage on each run: results may not depend on it.
      const float r1 = run_gpu<float>(*v, c, d.data(), n, stream(), 0x00);
      const float r2 = run_gpu<float>(*v, c, d.data(), n, stream(), 0xFF);
      const float r3 = run_gpu<float>(*v, c, d.data(), n, stream(), 0x5A);
      EXPECT_EQ(std::memcmp(&r1, &r2, sizeof r1), 0) << v->info.name << " " << tessera_test::combo_name(c) << ": "
                                                     << tessera_test::show(r1) << " vs " << tessera_test::show(r2);
      EXPECT_EQ(std::memcmp(&r1, &r3, sizeof r1), 0) << v->info.name << " " << tessera_test::combo_name(c);
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

TEST_F(GpuTest, RunsCanBeCapturedInAGraph) {
  // A run only enqueues work: no allocation, no synchronisation. Capture it
  // (global mode forbids unsafe calls), then replay the graph with fresh
  // garbage in the workspace and the output each time.
  constexpr std::size_t n = 65537;
  for (const ReduceVariant* v : gpu_variants())
    for (const Combo& c : {Combo{Dtype::f32, Op::sum, Accum::native}, Combo{Dtype::f32, Op::sum, Accum::dfloat},
                           Combo{Dtype::i64, Op::sum, Accum::native}, Combo{Dtype::f64, Op::min, Accum::native}}) {
      if (!v->supports(tessera_test::spec_of(c, n))) continue;
      SCOPED_TRACE(std::string(v->info.name) + " " + tessera_test::combo_name(c));
      tessera_test::with_type(c.dtype, [&]<class T>() {
        using R = reduce_result_t<T>;
        std::vector<T> x(n);
        harness::fill_random(x.data(), n, tessera_test::seed_for("graph", n), Distribution::uniform);
        DeviceBuffer<T> d(n);
        d.upload(x.data(), n);
        device_sync();
        const auto ref = tessera_test::reference(x.data(), n, c.op);
        // One ordinary run first: loads the kernels (lazy module loading)
        // and fills any per-device caches before the capture.
        EXPECT_TRUE((tessera_test::check_result<T>(run_gpu<T>(*v, c, d.data(), n, stream()), ref, c.op, c.accum, n)));
        const ReduceSpec spec = tessera_test::spec_of(c, n);
        DeviceBytes ws(v->workspace_bytes(spec));
        DeviceBuffer<R> out(1);
        device_sync();
        const tessera_test::CapturedGraph graph(
            stream(), [&] { v->run(ReduceCall{spec, d.data(), out.data(), ws.data(), stream()}); });
        ASSERT_TRUE(graph.ok());
        for (int replay = 0; replay < 3; ++replay) {
          ws.fill_bytes(0x11 * (replay + 1), stream());
          out.fill_bytes(0xFF, stream());
          ASSERT_EQ(graph.launch(stream()), cudaSuccess);
          ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
          R got;
          out.download(&got, 1);
          EXPECT_TRUE((tessera_test::check_result<T>(got, ref, c.op, c.accum, n))) << "replay " << replay;
        }
      });
    }
}

TEST_F(GpuTest, CompleteUnrollEveryBlockSize) {
  for (int block : reduce_impl::complete_unroll_block_sizes)
    for (const Combo& c : {Combo{Dtype::f32, Op::sum, Accum::native}, Combo{Dtype::f32, Op::sum, Accum::dfloat},
                           Combo{Dtype::i64, Op::sum, Accum::native}, Combo{Dtype::f64, Op::max, Accum::native}})
      tessera_test::with_type(c.dtype, [&]<class T>() {
        using R = reduce_result_t<T>;
        for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(block) * 8 - 1, std::size_t(block) * 8 + 1,
                              std::size_t(65537), std::size_t(1000003)}) {
          SCOPED_TRACE(::testing::Message() << "block " << block << " " << tessera_test::combo_name(c) << " n=" << n);
          std::vector<T> x(n);
          harness::fill_random(x.data(), n, tessera_test::seed_for("unroll", n, block), Distribution::uniform);
          DeviceBuffer<T> d(n);
          d.upload(x.data(), n);
          device_sync();
          const ReduceSpec spec = tessera_test::spec_of(c, n);
          DeviceBytes ws(reduce_impl::ws_complete_unroll_block(spec, block));
          ws.fill_bytes(0xA5, stream());
          DeviceBuffer<R> out(1);
          out.fill_bytes(0xFF, stream());
          reduce_impl::run_complete_unroll_block(ReduceCall{spec, d.data(), out.data(), ws.data(), stream()}, block);
          ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
          R got;
          out.download(&got, 1);
          EXPECT_TRUE((tessera_test::check_result<T>(got, tessera_test::reference(x.data(), n, c.op), c.op,
                                                    c.accum, n)));
        }
      });
  const ReduceSpec spec{Dtype::f32, Op::sum, Accum::native, 1000};
  EXPECT_THROW((void)reduce_impl::ws_complete_unroll_block(spec, 100), Error);
  DeviceBuffer<float> d(1000), out(1);
  EXPECT_THROW(reduce_impl::run_complete_unroll_block(ReduceCall{spec, d.data(), out.data(), nullptr, stream()}, 100),
               Error);
}

// ---- the public API ------------------------------------------------------

template <class T>
std::vector<T> random_host(std::size_t n, const char* tag) {
  std::vector<T> x(n);
  harness::fill_random(x.data(), n, tessera_test::seed_for(tag, n, sizeof(T)), Distribution::uniform);
  return x;
}

TEST_F(GpuTest, ApiMatchesReference) {
  for (const Combo& c : tessera_test::all_combos()) {
    if (!tessera_test::dispatch_supported(c)) continue;
    SCOPED_TRACE(tessera_test::combo_name(c));
    tessera_test::with_type(c.dtype, [&]<class T>() {
      using R = reduce_result_t<T>;
      for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(1000003)}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n);
        const auto x = random_host<T>(n, "api");
        const auto ref = tessera_test::reference(x.data(), n, c.op);
        DeviceBuffer<T> d(n);
        d.upload(x.data(), n);
        device_sync();
        EXPECT_TRUE((tessera_test::check_result<T>(reduce(d.data(), n, {.op = c.op, .accum = c.accum}), ref, c.op,
                                                  c.accum, n)));
        EXPECT_TRUE((tessera_test::check_result<T>(
            reduce(d.data(), n, {.op = c.op, .accum = c.accum, .stream = stream()}), ref, c.op, c.accum, n)));
        DeviceBuffer<R> out(1);
        out.fill_bytes(0xFF, stream());
        reduce_into(d.data(), n, out.data(), {.op = c.op, .accum = c.accum, .stream = stream()});
        ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
        R got;
        out.download(&got, 1);
        EXPECT_TRUE((tessera_test::check_result<T>(got, ref, c.op, c.accum, n))) << "reduce_into";
      }
    });
  }
}

TEST_F(GpuTest, ApiEveryVariantByName) {
  // CUDA variants take device pointers; CPU variants (the reference rungs)
  // take host pointers, as their ReduceCall does.
  for (const auto& v : reduce_impl::variants_ladder().all())
    for (const Combo& c : supported_combos(v)) {
      SCOPED_TRACE(std::string(v.info.name) + " " + tessera_test::combo_name(c));
      tessera_test::with_type(c.dtype, [&]<class T>() {
        for (std::size_t n : {std::size_t(0), std::size_t(4097)}) {
          const auto x = random_host<T>(n, "by-name");
          const auto ref = tessera_test::reference(x.data(), n, c.op);
          DeviceBuffer<T> d(n);
          d.upload(x.data(), n);
          device_sync();
          const T* in = v.info.backend == Backend::cuda ? d.data() : x.data();
          try {
            const auto got = reduce(in, n, {.op = c.op, .accum = c.accum, .variant = std::string(v.info.name)});
            EXPECT_TRUE((tessera_test::check_result<T>(got, ref, c.op, c.accum, n))) << "n=" << n;
          } catch (const std::exception& e) {
            ADD_FAILURE() << "n=" << n << " threw: " << e.what();
          }
        }
      });
    }
}

TEST_F(GpuTest, ApiEmptyInputGivesTheIdentity) {
  for (const Combo& c : tessera_test::all_combos()) {
    if (!tessera_test::dispatch_supported(c)) continue;
    SCOPED_TRACE(tessera_test::combo_name(c));
    tessera_test::with_type(c.dtype, [&]<class T>() {
      using R = reduce_result_t<T>;
      const R identity = tessera_test::identity_of<T>(c.op);
      EXPECT_EQ(reduce(static_cast<const T*>(nullptr), 0, {.op = c.op, .accum = c.accum}), identity);
      DeviceBuffer<T> d(16);
      EXPECT_EQ(reduce(d.data(), 0, {.op = c.op, .accum = c.accum}), identity);
      DeviceBuffer<R> out(1);
      out.fill_bytes(0xFF, stream());
      reduce_into(static_cast<const T*>(nullptr), 0, out.data(), {.op = c.op, .accum = c.accum, .stream = stream()});
      ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
      R got;
      out.download(&got, 1);
      EXPECT_EQ(got, identity);
    });
  }
}

// A device output holding a known value, to check that failing calls leave it.
template <class R>
struct Sentinel {
  DeviceBuffer<R> out{1};
  R value;
  explicit Sentinel(R v) : value(v) {
    out.upload(&value, 1);
    device_sync();
  }
  ::testing::AssertionResult unchanged(cudaStream_t stream) const {
    if (cudaStreamSynchronize(stream) != cudaSuccess) return ::testing::AssertionFailure() << "stream error";
    device_sync();
    R now;
    out.download(&now, 1);
    if (std::memcmp(&now, &value, sizeof(R)) == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "the output changed from " << value << " to " << now;
  }
};

TEST_F(GpuTest, ApiErrorsNameTheProblemAndWriteNothing) {
  using tessera_test::error_message;
  using tessera_test::has_substr;
  const std::size_t n = 1000;
  const auto xf = random_host<float>(n, "errors");
  const auto xi = random_host<std::int32_t>(n, "errors");
  DeviceBuffer<float> df(n);
  DeviceBuffer<std::int32_t> di(n);
  df.upload(xf.data(), n);
  di.upload(xi.data(), n);
  Sentinel<float> outf(-12345.5f);
  Sentinel<std::int64_t> outi(-12345);

  {  // null input with n > 0
    std::string msg = error_message([&] { reduce_into<float>(nullptr, n, outf.out.data(), {.stream = stream()}); });
    EXPECT_TRUE(has_substr(msg, "tessera::reduce_into: d_in"));
    EXPECT_TRUE(has_substr(msg, "null"));
    EXPECT_TRUE(outf.unchanged(stream()));
    msg = error_message([&] { (void)reduce<float>(nullptr, n, {.op = Op::max}); });
    EXPECT_TRUE(has_substr(msg, "d_in"));
  }
  {  // host pointer where device memory is expected
    std::string msg =
        error_message([&] { reduce_into(xf.data(), n, outf.out.data(), {.stream = stream()}); });
    EXPECT_TRUE(has_substr(msg, "d_in"));
    EXPECT_TRUE(has_substr(msg, "device"));
    EXPECT_TRUE(outf.unchanged(stream()));
    msg = error_message([&] { (void)reduce(xf.data(), n); });
    EXPECT_TRUE(has_substr(msg, "d_in"));
    EXPECT_TRUE(has_substr(msg, "device"));
    msg = error_message([&] { (void)reduce(xi.data(), n, {.op = Op::min}); });
    EXPECT_TRUE(has_substr(msg, "d_in"));
  }
  {  // unsupported combination
    std::string msg = error_message(
        [&] { reduce_into(di.data(), n, outi.out.data(), {.accum = Accum::kahan, .stream = stream()}); });
    EXPECT_TRUE(has_substr(msg, "int32"));
    EXPECT_TRUE(has_substr(msg, "kahan"));
    EXPECT_TRUE(outi.unchanged(stream()));
    msg = error_message([&] { (void)reduce(di.data(), n, {.accum = Accum::kahan}); });
    EXPECT_TRUE(has_substr(msg, "kahan"));
    msg = error_message([&] {
      reduce_into(df.data(), n, outf.out.data(), {.op = Op::max, .accum = Accum::dfloat, .stream = stream()});
    });
    EXPECT_TRUE(has_substr(msg, "dfloat"));
    EXPECT_TRUE(outf.unchanged(stream()));
  }
  {  // unknown variant
    std::string msg = error_message([&] {
      reduce_into(df.data(), n, outf.out.data(), {.variant = "no_such_variant", .stream = stream()});
    });
    EXPECT_TRUE(has_substr(msg, "no_such_variant"));
    EXPECT_TRUE(outf.unchanged(stream()));
    msg = error_message([&] { (void)reduce(df.data(), n, {.variant = "no_such_variant"}); });
    EXPECT_TRUE(has_substr(msg, "no_such_variant"));
  }
  {  // a variant asked for a combination it does not support (if any exists)
    for (const auto& v : reduce_impl::variants_ladder().all())
      for (const Combo& c : tessera_test::all_combos()) {
        if (!tessera_test::dispatch_supported(c) || v.supports(tessera_test::spec_of(c, n)) || c.dtype != Dtype::f32)
          continue;
        const std::string msg = error_message([&] {
          reduce_into(df.data(), n, outf.out.data(),
                      {.op = c.op, .accum = c.accum, .variant = std::string(v.info.name), .stream = stream()});
        });
        EXPECT_TRUE(has_substr(msg, v.info.name)) << tessera_test::combo_name(c);
        EXPECT_TRUE(outf.unchanged(stream()));
      }
  }
  {  // bad output pointers
    std::string msg = error_message([&] { reduce_into(df.data(), n, static_cast<float*>(nullptr)); });
    EXPECT_TRUE(has_substr(msg, "d_out"));
    float host_out = 7.0f;
    msg = error_message([&] { reduce_into(df.data(), n, &host_out); });
    EXPECT_TRUE(has_substr(msg, "d_out"));
    EXPECT_EQ(host_out, 7.0f);
  }
  // After all that, the API still works.
  const auto ref = tessera_test::reference(xf.data(), n, Op::sum);
  EXPECT_TRUE((tessera_test::check_result<float>(reduce(df.data(), n), ref, Op::sum, Accum::native, n)));
}

TEST_F(GpuTest, ApiWithACallersWorkspaceAllocatesNothing) {
  using tessera_test::pool_bytes_used_by;
  const std::size_t n = 1000003;
  const auto x = random_host<float>(n, "workspace");
  const auto ref = tessera_test::reference(x.data(), n, Op::sum);
  DeviceBuffer<float> d(n), out(1);
  d.upload(x.data(), n);
  device_sync();
  for (const std::string variant : {"", "unroll8", "cub_device_reduce"}) {
    SCOPED_TRACE("variant '" + variant + "'");
    const ReduceOptions sized{.accum = Accum::dfloat, .variant = variant};
    const std::size_t bytes = reduce_workspace_bytes<float>(n, sized);
    ASSERT_GT(bytes, 0u);
    DeviceBytes ws(bytes);
    const ReduceOptions o{
        .accum = Accum::dfloat, .variant = variant, .stream = stream(), .workspace = {ws.data(), bytes}};
    float got = 0;
    EXPECT_EQ(pool_bytes_used_by([&] { got = reduce(d.data(), n, o); }), 0u);
    EXPECT_TRUE((tessera_test::check_result<float>(got, ref, Op::sum, Accum::dfloat, n)));
    EXPECT_EQ(pool_bytes_used_by([&] { reduce_into(d.data(), n, out.data(), o); }), 0u);
    out.download(&got, 1);
    EXPECT_TRUE((tessera_test::check_result<float>(got, ref, Op::sum, Accum::dfloat, n))) << "reduce_into";
    // Without one the call allocates (and frees) its scratch stream-ordered.
    EXPECT_GT(pool_bytes_used_by([&] { got = reduce(d.data(), n, sized); }), 0u);
    // A workspace too small is an error that names both sizes.
    const std::string msg = tessera_test::error_message([&] {
      reduce_into(d.data(), n, out.data(), {.accum = Accum::dfloat, .variant = variant, .workspace = {ws.data(), 1}});
    });
    EXPECT_TRUE(tessera_test::has_substr(msg, "workspace holds 1 B")) << msg;
  }
  // The query rejects what the calls reject.
  EXPECT_TRUE(tessera_test::has_substr(
      tessera_test::error_message([&] { (void)reduce_workspace_bytes<float>(n, {.variant = "no_such_variant"}); }),
      "tessera::reduce_workspace_bytes: no variant named 'no_such_variant'"));
  EXPECT_THROW((void)reduce_workspace_bytes<std::int32_t>(n, {.accum = Accum::kahan}), Error);
}

// ---- past 2^31 elements (TESSERA_LARGE_TESTS=1) --------------------------------

TEST_F(GpuTest, LargePast2To31Elements) {
  const char* env = std::getenv("TESSERA_LARGE_TESTS");
  if (env == nullptr || std::string(env) != "1")
    GTEST_SKIP() << "set TESSERA_LARGE_TESTS=1 to run the float reductions past 2^31 elements";
  constexpr std::size_t n = (std::size_t(1) << 31) + 17;
  std::size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  if (free_b < n * sizeof(float) + (std::size_t(1) << 30))
    GTEST_SKIP() << "needs " << n * sizeof(float) << " bytes of free device memory, " << free_b << " available";

  std::unique_ptr<float[]> x(new float[n]);
  harness::fill_random(x.get(), n, 2024, Distribution::uniform);
  // Past 2^31: the unique maximum (also large enough to show in the sum if
  // skipped) and the unique minimum.
  const std::size_t at_max = n - 7, at_min = n - 3;
  x[at_max] = 3e8f;
  x[at_min] = -2.0f;
  long double s = 0, a = 0;
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for reduction(+ : s, a) schedule(static)
  for (std::int64_t i = 0; i < count; ++i) {
    s += x[static_cast<std::size_t>(i)];
    a += std::fabs(static_cast<long double>(x[static_cast<std::size_t>(i)]));
  }
  tessera_test::Reference<float> sum_ref;
  sum_ref.exact = s;
  sum_ref.abs_sum = a;
  sum_ref.value = static_cast<float>(s);
  tessera_test::Reference<float> max_ref, min_ref;
  max_ref.value = 3e8f;
  min_ref.value = -2.0f;

  DeviceBuffer<float> d(n, "large test input");
  d.upload(x.get(), n);
  device_sync();
  x.reset();
  int ran = 0;
  for (const ReduceVariant* v : gpu_variants()) {
    if (v->info.kind() != Kind::tessera && v->info.kind() != Kind::vendor) continue;
    for (const Combo& c : {Combo{Dtype::f32, Op::sum, Accum::native}, Combo{Dtype::f32, Op::sum, Accum::dfloat},
                           Combo{Dtype::f32, Op::max, Accum::native}, Combo{Dtype::f32, Op::min, Accum::native}}) {
      if (!v->supports(tessera_test::spec_of(c, n))) continue;
      SCOPED_TRACE(std::string(v->info.name) + " " + tessera_test::combo_name(c));
      try {
        const float got = run_gpu<float>(*v, c, d.data(), n, stream());
        const auto& ref = c.op == Op::sum ? sum_ref : (c.op == Op::max ? max_ref : min_ref);
        EXPECT_TRUE((tessera_test::check_result<float>(got, ref, c.op, c.accum, n)));
        ++ran;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "threw: " << e.what();
      }
    }
  }
  EXPECT_GE(ran, 2);
  // The public API's default variant too.
  EXPECT_TRUE((tessera_test::check_result<float>(reduce(d.data(), n), sum_ref, Op::sum, Accum::native, n)));
}

}  // namespace
