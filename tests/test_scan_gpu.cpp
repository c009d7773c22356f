// The CUDA scan rungs, the vendor baseline and the public API on a GPU,
// checked against the independent host reference of test_scan_support.hpp.
// Compiled in CUDA builds only; every test skips when no device is present.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <iterator>
#include <vector>

#include "harness/generate.hpp"
#include "families/scan/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/scan.hpp"
#include "test_gpu_support.hpp"
#include "test_scan_support.hpp"

namespace {

using namespace tessera;
using harness::Distribution;
using scan_impl::ScanCall;
using scan_impl::ScanSpec;
using scan_impl::ScanVariant;
using tessera_test::device_sync;
using tessera_test::ScanCombo;

// Edges of every rung: warps, 512-element Kogge-Stone sections, 1024-element
// Brent-Kung sections, 2048 / 4096-element three-phase sections, look-back
// tiles of 2048 (128 x 16 floats), 4096 (256 x 16 floats; 256 x 8 doubles =
// 2048), 8192 (256 x 32 floats), 12288 (256 x 48 floats, lookback_early_publish and lookback_bulk);
// primes; three levels of sections.
constexpr std::size_t kSizes[] = {0,    1,    2,    31,   32,   33,    255,   256,   257,   511,    512,   513,
                                  1023, 1024, 1025, 2047, 2048, 2049,  4095,  4096,  4097,  8191,   8192,  8193,
                                  12287, 12288, 12289, 16383, 16385, 36865, 65537, 99991, 262147, 1000003};

std::vector<const ScanVariant*> gpu_variants() {
  std::vector<const ScanVariant*> v;
  for (const auto& var : scan_impl::all_variants())
    if (var.info.backend == Backend::cuda) v.push_back(&var);
  return v;
}

template <class T>
std::vector<T> random_input(std::size_t n, Distribution d, const std::string& tag, std::uint64_t salt = 0) {
  std::vector<T> x(n);
  harness::fill_random(x.data(), n, tessera_test::seed_for(tag, n, salt * 8 + sizeof(T)), d);
  return x;
}

struct GpuRun {
  std::size_t in_offset = 0;   // elements before the input in its allocation
  std::size_t out_offset = 0;  // ... before the output
  bool in_place = false;
  int ws_poison = 0xA5;
};

// Runs a CUDA variant on x (uploaded at in_offset into a guarded buffer),
// with a poisoned output and workspace; checks the guards around the output
// and returns the n outputs.
template <class T>
std::vector<T> run_gpu(const ScanVariant& v, const ScanCombo& c, bool exclusive, const std::vector<T>& x,
                       cudaStream_t stream, const GpuRun& o = {}) {
  const std::size_t n = x.size();
  constexpr std::size_t GUARD = 4;
  const ScanSpec spec = tessera_test::scan_spec(c, exclusive, n);
  std::vector<T> in_host(o.in_offset + n + GUARD);
  std::memset(in_host.data(), 0x5A, in_host.size() * sizeof(T));
  std::copy(x.begin(), x.end(), in_host.begin() + static_cast<std::ptrdiff_t>(o.in_offset));
  DeviceBuffer<T> d_in(in_host.size(), "test input");
  d_in.upload(in_host.data(), in_host.size());
  DeviceBuffer<T> d_out(o.out_offset + n + GUARD, "test output");
  d_out.fill_bytes(0xFF, stream);
  DeviceBytes ws(v.workspace_bytes(spec), "test workspace");
  ws.fill_bytes(o.ws_poison, stream);
  device_sync();
  T* in = d_in.data() + o.in_offset;
  T* out = o.in_place ? in : d_out.data() + o.out_offset;
  v.run(ScanCall{spec, in, out, ws.data(), stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  std::vector<T> all(o.in_place ? in_host.size() : d_out.size());
  (o.in_place ? d_in : d_out).download(all.data(), all.size());
  const std::size_t at = o.in_place ? o.in_offset : o.out_offset;
  std::vector<unsigned char> untouched(sizeof(T) * all.size());
  if (o.in_place) std::memcpy(untouched.data(), in_host.data(), untouched.size());
  else std::memset(untouched.data(), 0xFF, untouched.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i >= at && i < at + n) continue;
    EXPECT_EQ(std::memcmp(&all[i], untouched.data() + i * sizeof(T), sizeof(T)), 0)
          << "wrote outside the output, element " << i << " of the buffer (output at " << at << ")";
  }
  return std::vector<T>(all.begin() + static_cast<std::ptrdiff_t>(at), all.begin() + static_cast<std::ptrdiff_t>(at + n));
}

template <class T>
void check_case(const ScanVariant& v, const ScanCombo& c, bool exclusive, const std::vector<T>& x, cudaStream_t stream,
                const GpuRun& o = {}, const char* what = "") {
  SCOPED_TRACE(::testing::Message() << v.info.name << " " << tessera_test::scan_combo_name(c)
                                    << (exclusive ? " exclusive" : " inclusive") << " n=" << x.size() << " " << what);
  const auto got = run_gpu<T>(v, c, exclusive, x, stream, o);
  const auto ref = tessera_test::scan_reference(x.data(), x.size(), c.op, exclusive);
  EXPECT_TRUE(tessera_test::check_scan(got.data(), ref, x.size(), c, exclusive));
}

// ---- every variant x every combination it supports ---------------------------------

struct GpuCase {
  std::string variant;
  ScanCombo combo;
};

std::vector<GpuCase> gpu_cases() {
  std::vector<GpuCase> cases;
  for (const auto& v : scan_impl::all_variants()) {
    if (v.info.backend != Backend::cuda) continue;
    for (const ScanCombo& c : tessera_test::scan_combos())
      if (v.supports(tessera_test::scan_spec(c, false, 1000))) cases.push_back({std::string(v.info.name), c});
  }
  return cases;
}

class ScanGpuVariant : public tessera_test::GpuFixture<::testing::TestWithParam<GpuCase>> {
 protected:
  const ScanVariant& variant() const { return *scan_impl::find_variant(GetParam().variant); }
};

TEST_P(ScanGpuVariant, InclusiveAtEverySize) {
  const ScanCombo c = GetParam().combo;
  tessera_test::with_scan_type(c.dtype, [&]<class T>() {
    for (std::size_t n : kSizes) check_case<T>(variant(), c, false, random_input<T>(n, Distribution::uniform, "incl"), stream());
  });
}

TEST_P(ScanGpuVariant, ExclusiveAtEverySize) {
  const ScanCombo c = GetParam().combo;
  tessera_test::with_scan_type(c.dtype, [&]<class T>() {
    for (std::size_t n : kSizes) check_case<T>(variant(), c, true, random_input<T>(n, Distribution::uniform, "excl"), stream());
  });
}

TEST_P(ScanGpuVariant, InPlaceAndMisaligned) {
  const ScanCombo c = GetParam().combo;
  tessera_test::with_scan_type(c.dtype, [&]<class T>() {
    for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(4097), std::size_t(65537), std::size_t(262147)})
      for (bool ex : {false, true}) {
        const auto x = random_input<T>(n, Distribution::uniform, "place", ex);
        check_case<T>(variant(), c, ex, x, stream(), {.in_place = true}, "in place");
        check_case<T>(variant(), c, ex, x, stream(), {.in_offset = 1, .out_offset = 1}, "both +1");
        check_case<T>(variant(), c, ex, x, stream(), {.in_offset = 3, .out_offset = 0}, "input +3");
        check_case<T>(variant(), c, ex, x, stream(), {.in_offset = 0, .out_offset = 1}, "output +1");
        check_case<T>(variant(), c, ex, x, stream(), {.in_offset = 1, .in_place = true}, "in place +1");
      }
  });
}

TEST_P(ScanGpuVariant, OtherDistributions) {
  const ScanCombo c = GetParam().combo;
  tessera_test::with_scan_type(c.dtype, [&]<class T>() {
    for (Distribution d : {Distribution::small, Distribution::skewed, Distribution::constant})
      for (std::size_t n : {std::size_t(33), std::size_t(65537), std::size_t(1000003)})
        check_case<T>(variant(), c, false, random_input<T>(n, d, "dist"), stream());
  });
}

TEST_P(ScanGpuVariant, ExtremesReachEveryLaterOutput) {
  // A unique extreme value anywhere must show in every output after it,
  // whichever block, tile or level it lands in.
  const ScanCombo c = GetParam().combo;
  if (c.op == Op::sum) GTEST_SKIP() << "min/max property";
  tessera_test::with_scan_type(c.dtype, [&]<class T>() {
    for (std::size_t n : {std::size_t(4097), std::size_t(1000003)})
      for (std::size_t pos : {std::size_t(0), std::size_t(511), std::size_t(4096), n / 2 + 1, n - 1}) {
        auto x = random_input<T>(n, Distribution::small, "extreme", pos);
        x[pos] = c.op == Op::min ? std::numeric_limits<T>::lowest() / 2 : std::numeric_limits<T>::max() / 2;
        check_case<T>(variant(), c, false, x, stream(), {}, "extreme");
        check_case<T>(variant(), c, true, x, stream(), {}, "extreme");
      }
  });
}

std::string gpu_case_name(const ::testing::TestParamInfo<GpuCase>& info) {
  return tessera_test::identifier(info.param.variant + "_" + tessera_test::scan_combo_name(info.param.combo));
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ScanGpuVariant);
INSTANTIATE_TEST_SUITE_P(Scan, ScanGpuVariant, ::testing::ValuesIn(gpu_cases()), gpu_case_name);

// ---- properties across variants -------------------------------------------------------

using ScanGpuTest = tessera_test::GpuFixture<::testing::Test>;

TEST_F(ScanGpuTest, MinMaxPropagateNaN) {
  for (const ScanVariant* v : gpu_variants())
    for (Dtype t : {Dtype::f32, Dtype::f64})
      for (Op op : {Op::min, Op::max}) {
        const ScanCombo c{t, op, Accum::native};
        if (!v->supports(tessera_test::scan_spec(c, false, 1000))) continue;
        tessera_test::with_scan_type(t, [&]<class T>() {
          if constexpr (std::is_floating_point_v<T>) {
            for (std::size_t n : {std::size_t(33), std::size_t(65537), std::size_t(1000003)})
              for (std::size_t pos : {std::size_t(0), n / 2, n - 1}) {
                auto x = random_input<T>(n, Distribution::uniform, "nan", pos);
                x[pos] = std::numeric_limits<T>::quiet_NaN();
                const auto y = run_gpu<T>(*v, c, false, x, stream());
                std::size_t wrong = 0;
                for (std::size_t i = 0; i < n; ++i) wrong += std::isnan(y[i]) != (i >= pos);
                EXPECT_EQ(wrong, 0u) << v->info.name << " " << tessera_test::scan_combo_name(c) << " n=" << n
                                     << " NaN at " << pos;
              }
          }
        });
      }
}

TEST_F(ScanGpuTest, WideAccumulatorsKeepWhatFloatLoses) {
  // 2^24 then ones, across many tiles: a float running sum stops growing, the
  // double, Kahan and double-float ones count every one.
  const std::size_t n = 1000001;
  std::vector<float> x(n, 1.0f);
  x[0] = 16777216.0f;
  for (const ScanVariant* v : gpu_variants())
    for (Accum a : {Accum::f64, Accum::kahan, Accum::dfloat}) {
      const ScanCombo c{Dtype::f32, Op::sum, a};
      if (!v->supports(tessera_test::scan_spec(c, false, n))) continue;
      const auto y = run_gpu<float>(*v, c, false, x, stream());
      EXPECT_EQ(y[n - 1], 16777216.0f + 1000000.0f) << v->info.name << " " << to_string(a);
      EXPECT_EQ(y[n / 2], 16777216.0f + float(n / 2)) << v->info.name << " " << to_string(a);
    }
}

TEST_F(ScanGpuTest, DeterministicVariantsAreBitwiseReproducible) {
  const std::size_t n = 1000003;
  const auto x = random_input<float>(n, Distribution::uniform, "determinism");
  for (const ScanVariant* v : gpu_variants()) {
    if (!v->info.deterministic) continue;
    for (Accum a : {Accum::native, Accum::dfloat}) {
      const ScanCombo c{Dtype::f32, Op::sum, a};
      if (!v->supports(tessera_test::scan_spec(c, false, n))) continue;
      const auto y1 = run_gpu<float>(*v, c, false, x, stream(), {.ws_poison = 0x00});
      const auto y2 = run_gpu<float>(*v, c, false, x, stream(), {.ws_poison = 0xFF});
      EXPECT_EQ(std::memcmp(y1.data(), y2.data(), n * sizeof(float)), 0) << v->info.name << " " << to_string(a);
    }
  }
}

TEST_F(ScanGpuTest, LookbackUnderContentionIsExactOnIntegers) {
  // Many tiles, repeated: any lost or doubled aggregate in the look-back shows
  // in an exact integer result.
  for (const char* name : {"lookback", "lookback_large_tiles", "lookback_small_blocks", "lookback_window32",
                           "lookback_window64", "lookback_no_backoff", "lookback_384x6", "lookback_512x4",
                           "lookback_persistent", "lookback_persistent_large", "lookback_early_publish",
                           "lookback_early_publish_32k", "lookback_bulk", "lookback_bulk_w128", "chained"}) {
    const ScanVariant* v = scan_impl::find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    for (int rep = 0; rep < 4; ++rep)
      for (Dtype t : {Dtype::i32, Dtype::u32})
        tessera_test::with_scan_type(t, [&]<class T>() {
          const std::size_t n = (std::size_t(1) << 24) + 7 + rep;
          const ScanCombo c{t, Op::sum, Accum::native};
          check_case<T>(*v, c, rep % 2 == 1, random_input<T>(n, Distribution::uniform, "contention", rep), stream());
        });
    const ScanCombo i64{Dtype::i64, Op::sum, Accum::native};
    if (v->supports(tessera_test::scan_spec(i64, false, 1)))
      check_case<std::int64_t>(*v, i64, false, random_input<std::int64_t>((std::size_t(1) << 23) + 5, Distribution::uniform, "c64"),
                               stream());
  }
}

TEST_F(ScanGpuTest, RunsCanBeCapturedInAGraph) {
  // A run only enqueues work: capture it (global mode forbids unsafe calls),
  // then replay with fresh garbage in the workspace and the output each time.
  constexpr std::size_t n = 65537;
  for (const ScanVariant* v : gpu_variants())
    for (const ScanCombo& c : {ScanCombo{Dtype::f32, Op::sum, Accum::native}, ScanCombo{Dtype::f32, Op::sum, Accum::dfloat},
                               ScanCombo{Dtype::i64, Op::sum, Accum::native}, ScanCombo{Dtype::u32, Op::max, Accum::native}}) {
      if (!v->supports(tessera_test::scan_spec(c, false, n))) continue;
      SCOPED_TRACE(std::string(v->info.name) + " " + tessera_test::scan_combo_name(c));
      tessera_test::with_scan_type(c.dtype, [&]<class T>() {
        const auto x = random_input<T>(n, Distribution::uniform, "graph");
        const auto ref = tessera_test::scan_reference(x.data(), n, c.op, false);
        // One ordinary run first: loads the kernels and fills per-device caches.
        const auto first = run_gpu<T>(*v, c, false, x, stream());
        EXPECT_TRUE(tessera_test::check_scan(first.data(), ref, n, c, false));
        const ScanSpec spec = tessera_test::scan_spec(c, false, n);
        DeviceBuffer<T> d(n), out(n);
        d.upload(x.data(), n);
        DeviceBytes ws(v->workspace_bytes(spec));
        device_sync();
        cudaGraph_t graph = nullptr;
        ASSERT_EQ(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeGlobal), cudaSuccess);
        std::string thrown;
        try {
          v->run(ScanCall{spec, d.data(), out.data(), ws.data(), stream()});
        } catch (const std::exception& e) {
          thrown = e.what();
        }
        const cudaError_t end = cudaStreamEndCapture(stream(), &graph);
        (void)cudaGetLastError();
        EXPECT_EQ(thrown, "") << "run failed under stream capture";
        ASSERT_EQ(end, cudaSuccess) << "capture invalidated: " << cudaGetErrorString(end);
        cudaGraphExec_t exec = nullptr;
        ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
        for (int replay = 0; replay < 3; ++replay) {
          ws.fill_bytes(0x11 * (replay + 1), stream());
          out.fill_bytes(0xFF, stream());
          ASSERT_EQ(cudaGraphLaunch(exec, stream()), cudaSuccess);
          ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
          std::vector<T> got(n);
          out.download(got.data(), n);
          EXPECT_TRUE(tessera_test::check_scan(got.data(), ref, n, c, false)) << "replay " << replay;
        }
        (void)cudaGraphExecDestroy(exec);
        (void)cudaGraphDestroy(graph);
      });
    }
}

// ---- the public API -------------------------------------------------------------------

TEST_F(ScanGpuTest, ApiDefaultVariantMatchesReference) {
  EXPECT_EQ(scan_default_variant(Dtype::f32, Op::sum, Accum::native, false, 1 << 28), "lookback_bulk");
  EXPECT_EQ(scan_default_variant(Dtype::u32, Op::max, Accum::native, false, 1 << 28), "lookback_bulk");
  EXPECT_EQ(scan_default_variant(Dtype::f32, Op::sum, Accum::kahan, false, 1 << 28), "lookback");
  EXPECT_EQ(scan_default_variant(Dtype::f64, Op::sum, Accum::native, false, 1 << 28), "lookback");
  for (const ScanCombo& c : tessera_test::scan_combos())
    tessera_test::with_scan_type(c.dtype, [&]<class T>() {
      for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(1000003)})
        for (bool ex : {false, true}) {
          SCOPED_TRACE(tessera_test::scan_combo_name(c) + " n=" + std::to_string(n) + (ex ? " exclusive" : ""));
          const auto x = random_input<T>(n, Distribution::uniform, "api");
          const auto ref = tessera_test::scan_reference(x.data(), n, c.op, ex);
          DeviceBuffer<T> d(n), out(n);
          d.upload(x.data(), n);
          device_sync();
          if (ex) exclusive_scan(d.data(), out.data(), n, c.op, {.accum = c.accum, .stream = stream()});
          else inclusive_scan(d.data(), out.data(), n, c.op, {.accum = c.accum, .stream = stream()});
          ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
          std::vector<T> got(n);
          out.download(got.data(), n);
          EXPECT_TRUE(tessera_test::check_scan(got.data(), ref, n, c, ex));
          // In place, on the default stream.
          if (ex) exclusive_scan(d.data(), d.data(), n, c.op, {.accum = c.accum});
          else inclusive_scan(d.data(), d.data(), n, c.op, {.accum = c.accum});
          device_sync();
          d.download(got.data(), n);
          EXPECT_TRUE(tessera_test::check_scan(got.data(), ref, n, c, ex)) << "in place";
        }
    });
}

TEST_F(ScanGpuTest, ApiEveryVariantByName) {
  // CUDA variants take device pointers, the cpu_ variants host pointers.
  for (const auto& v : scan_impl::all_variants())
    for (const ScanCombo& c : {ScanCombo{Dtype::f32, Op::sum, Accum::native}, ScanCombo{Dtype::i32, Op::max, Accum::native},
                               ScanCombo{Dtype::f64, Op::sum, Accum::native}}) {
      if (!v.supports(tessera_test::scan_spec(c, false, 1))) continue;
      SCOPED_TRACE(std::string(v.info.name) + " " + tessera_test::scan_combo_name(c));
      tessera_test::with_scan_type(c.dtype, [&]<class T>() {
        const std::size_t n = 4097;
        const auto x = random_input<T>(n, Distribution::uniform, "by-name");
        const auto ref = tessera_test::scan_reference(x.data(), n, c.op, false);
        std::vector<T> got(n);
        const ScanOptions o{.accum = c.accum, .variant = std::string(v.info.name)};
        try {
          if (v.info.backend == Backend::cuda) {
            DeviceBuffer<T> d(n), out(n);
            d.upload(x.data(), n);
            device_sync();
            inclusive_scan(d.data(), out.data(), n, c.op, o);
            device_sync();
            out.download(got.data(), n);
          } else {
            inclusive_scan(x.data(), got.data(), n, c.op, o);
          }
          EXPECT_TRUE(tessera_test::check_scan(got.data(), ref, n, c, false));
        } catch (const std::exception& e) {
          ADD_FAILURE() << "threw: " << e.what();
        }
      });
    }
}

TEST_F(ScanGpuTest, ApiErrorsNameTheProblemAndWriteNothing) {
  using tessera_test::error_message;
  using tessera_test::has_substr;
  const std::size_t n = 1000;
  const auto x = random_input<float>(n, Distribution::uniform, "errors");
  DeviceBuffer<float> d(2 * n), out(n);
  d.upload(x.data(), n);
  const std::vector<float> sentinel(n, -12345.5f);
  out.upload(sentinel.data(), n);
  device_sync();
  auto unchanged = [&] {
    device_sync();
    std::vector<float> now(n);
    out.download(now.data(), n);
    return now == sentinel;
  };
  std::string msg = error_message([&] { inclusive_scan<float>(nullptr, out.data(), n, Op::sum, {.stream = stream()}); });
  EXPECT_TRUE(has_substr(msg, "d_in"));
  msg = error_message([&] { inclusive_scan(x.data(), out.data(), n); });  // host input, GPU variant
  EXPECT_TRUE(has_substr(msg, "d_in"));
  EXPECT_TRUE(has_substr(msg, "device"));
  std::vector<float> host_out(n, 7.0f);
  msg = error_message([&] { exclusive_scan(d.data(), host_out.data(), n); });
  EXPECT_TRUE(has_substr(msg, "d_out"));
  EXPECT_TRUE(std::all_of(host_out.begin(), host_out.end(), [](float v) { return v == 7.0f; }));
  msg = error_message([&] { inclusive_scan(d.data(), d.data() + 10, n); });
  EXPECT_TRUE(has_substr(msg, "overlap"));
  msg = error_message([&] { inclusive_scan(d.data(), out.data(), n, Op::min, {.accum = Accum::kahan}); });
  EXPECT_TRUE(has_substr(msg, "kahan"));
  msg = error_message([&] { inclusive_scan(d.data(), out.data(), n, Op::sum, {.variant = "nope"}); });
  EXPECT_TRUE(has_substr(msg, "nope"));
  msg = error_message([&] { inclusive_scan(d.data(), out.data(), n, Op::sum, {.variant = "cpu_reference"}); });
  EXPECT_TRUE(has_substr(msg, "host"));
  // Variants that do not take this combination (the 4-byte-only policies).
  DeviceBuffer<double> dd(n), od(n);
  msg = error_message([&] { inclusive_scan(dd.data(), od.data(), n, Op::sum, {.variant = "lookback_large_tiles"}); });
  EXPECT_TRUE(has_substr(msg, "lookback_large_tiles"));
  EXPECT_TRUE(unchanged());
  // Adjacent arrays are fine; n = 0 does nothing.
  EXPECT_NO_THROW(inclusive_scan(d.data(), d.data() + n, n, Op::sum, {.stream = stream()}));
  EXPECT_NO_THROW(exclusive_scan<float>(nullptr, nullptr, 0));
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
}

// ---- a user operator: tessera::scan_with (include/tessera/scan.cuh) ----------------------

TEST_F(ScanGpuTest, UserOperatorComposesAffineMapsInOrder) {
  // Composition of affine maps modulo 2^32 is associative but not
  // commutative: any reordering of the tile, row or look-back combines shows
  // as a wrong (exact, integer) map. In place and out of place, inclusive and
  // exclusive, across tile and look-back window boundaries.
  using scan_impl::Affine32;
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(4097), std::size_t(1000003), std::size_t(1) << 22}) {
    std::vector<std::uint32_t> raw(2 * n);
    harness::fill_random(raw.data(), 2 * n, 7 + n, Distribution::uniform);
    std::vector<Affine32> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = {raw[2 * i] | 1u, raw[2 * i + 1]};  // odd a: no collapse to 0
    for (bool exclusive : {false, true})
      for (bool in_place : {false, true}) {
        std::vector<Affine32> ref(n);
        Affine32 acc{1u, 0u};
        for (std::size_t i = 0; i < n; ++i) {
          if (exclusive) ref[i] = acc;
          acc = {x[i].a * acc.a, x[i].a * acc.b + x[i].b};
          if (!exclusive) ref[i] = acc;
        }
        DeviceBuffer<Affine32> d_in(n), d_out(n);
        d_in.upload(x.data(), n);
        const std::size_t ws_bytes = scan_impl::affine_scan_workspace_bytes(n);
        DeviceBuffer<unsigned char> ws(ws_bytes);
        ASSERT_EQ(cudaMemsetAsync(ws.data(), 0xA5, ws_bytes, stream()), cudaSuccess);  // garbage on entry
        Affine32* out = in_place ? d_in.data() : d_out.data();
        ASSERT_EQ(scan_impl::affine_scan(d_in.data(), out, n, exclusive, ws.data(), ws_bytes, stream()), 0);
        ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
        std::vector<Affine32> got(n);
        (in_place ? d_in : d_out).download(got.data(), n);
        std::size_t wrong = 0, first = n;
        for (std::size_t i = 0; i < n; ++i)
          if (got[i].a != ref[i].a || got[i].b != ref[i].b) {
            ++wrong;
            first = std::min(first, i);
          }
        EXPECT_EQ(wrong, 0u) << "n=" << n << (exclusive ? " exclusive" : " inclusive") << (in_place ? " in place" : "")
                             << ", first wrong at " << first;
      }
  }
  // Bad arguments come back as cudaErrorInvalidValue, nothing enqueued.
  EXPECT_EQ(scan_impl::affine_scan(nullptr, nullptr, 5, false, nullptr, 0, stream()),
            static_cast<int>(cudaErrorInvalidValue));
  EXPECT_EQ(scan_impl::affine_scan(nullptr, nullptr, 0, false, nullptr, 0, stream()), 0);
}

// ---- past 2^31 elements (TESSERA_LARGE_TESTS=1) ------------------------------------------

TEST_F(ScanGpuTest, LargePast2To31Elements) {
  const char* env = std::getenv("TESSERA_LARGE_TESTS");
  if (env == nullptr || std::string(env) != "1") GTEST_SKIP() << "set TESSERA_LARGE_TESTS=1 for scans past 2^31";
  constexpr std::size_t n = (std::size_t(1) << 31) + 17;
  std::size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  if (free_b < 2 * n * sizeof(std::int32_t) + (std::size_t(2) << 30)) GTEST_SKIP() << "not enough device memory";
  // int32 sums: exact, so every output past 2^31 is checked bit for bit.
  std::vector<std::int32_t> x(n);
  harness::fill_random(x.data(), n, 2031, Distribution::small);
  const ScanCombo c{Dtype::i32, Op::sum, Accum::native};
  std::vector<std::int32_t> expected(n);
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < n; ++i) expected[i] = static_cast<std::int32_t>(s += static_cast<std::uint32_t>(x[i]));
  DeviceBuffer<std::int32_t> d(n, "large input"), out(n, "large output");
  d.upload(x.data(), n);
  device_sync();
  std::size_t ran = 0;
  constexpr const char* kVariants[] = {"lookback", "lookback_large_tiles", "lookback_window32", "lookback_384x6", "lookback_512x4",
                           "lookback_persistent", "lookback_early_publish", "lookback_bulk", "hierarchical", "reduce_then_scan", "chained",
                           "warp_shuffle", "cub_device_scan"};
  for (const char* name : kVariants) {
    const ScanVariant* v = scan_impl::find_variant(name);
    ASSERT_NE(v, nullptr);
    const ScanSpec spec = tessera_test::scan_spec(c, false, n);
    DeviceBytes ws(v->workspace_bytes(spec));
    out.fill_bytes(0xFF, stream());
    v->run(ScanCall{spec, d.data(), out.data(), ws.data(), stream()});
    ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess) << name;
    std::vector<std::int32_t> got(n);
    out.download(got.data(), n);
    std::size_t first_bad = n;
    for (std::size_t i = 0; i < n; ++i)
      if (got[i] != expected[i]) {
        first_bad = i;
        break;
      }
    EXPECT_EQ(first_bad, n) << name << ": first wrong output";
    ++ran;
  }
  EXPECT_EQ(ran, std::size(kVariants)) << "a variant stopped the loop early";
  // The public API in place.
  inclusive_scan(d.data(), d.data(), n);
  device_sync();
  std::vector<std::int32_t> got(n);
  d.download(got.data(), n);
  EXPECT_TRUE(got == expected) << "public API, in place";
}

}  // namespace
