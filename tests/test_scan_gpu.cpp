// The CUDA scan rungs, the vendor baseline and the public API on a GPU,
// checked against the independent host reference of test_scan_support.hpp.
// The per-row suite (test_scan_gpu_rows.hpp) runs over the product's ladder
// here; the lab's tuning rows have their own (lab/tests/). Compiled in CUDA
// builds only; every test skips when no device is present.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "families/scan/contract.hpp"
#include "harness/generate.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/scan.hpp"
#include "test_gpu_support.hpp"
#include "test_scan_gpu_rows.hpp"
#include "test_scan_gpu_support.hpp"
#include "test_scan_support.hpp"

namespace {

using namespace tessera;
using harness::Distribution;
using scan_impl::ScanVariant;
using tessera_test::device_sync;
using tessera_test::ScanCombo;
using tessera_test::ScanGpuVariant;

template <class T>
std::vector<T> random_input(std::size_t n, Distribution d, const std::string& tag, std::uint64_t salt = 0) {
  return tessera_test::scan_input<T>(n, d, tag, salt);
}

std::vector<const ScanVariant*> gpu_variants() {
  return tessera_test::scan_gpu_rows([](const ScanVariant&) { return true; });
}

// ---- every row x every combination it supports ------------------------------------

INSTANTIATE_TEST_SUITE_P(Scan, ScanGpuVariant, ::testing::ValuesIn(tessera_test::gpu_cases(gpu_variants())),
                         tessera_test::gpu_case_name);

// ---- properties across variants -------------------------------------------------------

using ScanGpuTest = tessera_test::GpuFixture<::testing::Test>;

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
      const auto y = tessera_test::run_scan_gpu<float>(*v, c, false, x, stream());
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
      const auto y1 = tessera_test::run_scan_gpu<float>(*v, c, false, x, stream(), {.ws_poison = 0x00});
      const auto y2 = tessera_test::run_scan_gpu<float>(*v, c, false, x, stream(), {.ws_poison = 0xFF});
      EXPECT_EQ(std::memcmp(y1.data(), y2.data(), n * sizeof(float)), 0) << v->info.name << " " << to_string(a);
    }
  }
}

TEST_F(ScanGpuTest, LookbackUnderContentionIsExactOnIntegers) {
  for (const char* name : {"lookback", "lookback_bulk", "chained"})
    tessera_test::check_exact_under_contention(scan_impl::variants_ladder().at(name, "test"), stream());
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
          if (ex) exclusive_scan(d.data(), n, out.data(), {.op = c.op, .accum = c.accum, .stream = stream()});
          else inclusive_scan(d.data(), n, out.data(), {.op = c.op, .accum = c.accum, .stream = stream()});
          ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
          std::vector<T> got(n);
          out.download(got.data(), n);
          EXPECT_TRUE(tessera_test::check_scan(got.data(), ref, n, c, ex));
          // In place, on the default stream.
          if (ex) exclusive_scan(d.data(), n, d.data(), {.op = c.op, .accum = c.accum});
          else inclusive_scan(d.data(), n, d.data(), {.op = c.op, .accum = c.accum});
          device_sync();
          d.download(got.data(), n);
          EXPECT_TRUE(tessera_test::check_scan(got.data(), ref, n, c, ex)) << "in place";
        }
    });
}

TEST_F(ScanGpuTest, ApiEveryVariantByName) {
  // CUDA variants take device pointers, the cpu_ variants host pointers.
  for (const auto& v : scan_impl::variants_ladder().all())
    for (const ScanCombo& c : {ScanCombo{Dtype::f32, Op::sum, Accum::native}, ScanCombo{Dtype::i32, Op::max, Accum::native},
                               ScanCombo{Dtype::f64, Op::sum, Accum::native}}) {
      if (!v.supports(tessera_test::scan_spec(c, false, 1))) continue;
      SCOPED_TRACE(std::string(v.info.name) + " " + tessera_test::scan_combo_name(c));
      tessera_test::with_scan_type(c.dtype, [&]<class T>() {
        const std::size_t n = 4097;
        const auto x = random_input<T>(n, Distribution::uniform, "by-name");
        const auto ref = tessera_test::scan_reference(x.data(), n, c.op, false);
        std::vector<T> got(n);
        const ScanOptions o{.op = c.op, .accum = c.accum, .variant = std::string(v.info.name)};
        try {
          if (v.info.backend == Backend::cuda) {
            DeviceBuffer<T> d(n), out(n);
            d.upload(x.data(), n);
            device_sync();
            inclusive_scan(d.data(), n, out.data(), o);
            device_sync();
            out.download(got.data(), n);
          } else {
            inclusive_scan(x.data(), n, got.data(), o);
          }
          EXPECT_TRUE(tessera_test::check_scan(got.data(), ref, n, c, false));
        } catch (const std::exception& e) {
          ADD_FAILURE() << "threw: " << e.what();
        }
      });
    }
}

TEST_F(ScanGpuTest, ApiWithACallersWorkspaceAllocatesNothing) {
  using tessera_test::pool_bytes_used_by;
  const std::size_t n = 1000003;
  const auto x = random_input<float>(n, Distribution::uniform, "workspace");
  DeviceBuffer<float> d(n), out(n);
  d.upload(x.data(), n);
  device_sync();
  for (const std::string variant : {"", "lookback", "cub_device_scan"})
    for (bool ex : {false, true}) {
      SCOPED_TRACE("variant '" + variant + "'" + (ex ? " exclusive" : " inclusive"));
      const std::size_t bytes = scan_workspace_bytes<float>(n, {.variant = variant});
      ASSERT_GT(bytes, 0u);
      DeviceBytes ws(bytes);
      const ScanOptions o{.variant = variant, .stream = stream(), .workspace = {ws.data(), bytes}};
      EXPECT_EQ(pool_bytes_used_by([&] {
                  if (ex) exclusive_scan(d.data(), n, out.data(), o);
                  else inclusive_scan(d.data(), n, out.data(), o);
                }),
                0u);
      std::vector<float> got(n);
      out.download(got.data(), n);
      const ScanCombo c{Dtype::f32, Op::sum, Accum::native};
      EXPECT_TRUE(tessera_test::check_scan(got.data(), tessera_test::scan_reference(x.data(), n, c.op, ex), n, c, ex));
      // Without one the call allocates (and frees) its scratch stream-ordered.
      EXPECT_GT(pool_bytes_used_by([&] { inclusive_scan(d.data(), n, out.data(), {.variant = variant}); }), 0u);
      const std::string msg = tessera_test::error_message(
          [&] { inclusive_scan(d.data(), n, out.data(), {.variant = variant, .workspace = {ws.data(), 1}}); });
      EXPECT_TRUE(tessera_test::has_substr(msg, "workspace holds 1 B")) << msg;
    }
  // The query rejects what the calls reject.
  EXPECT_TRUE(tessera_test::has_substr(
      tessera_test::error_message([&] { (void)scan_workspace_bytes<float>(n, {.variant = "no_such_variant"}); }),
      "tessera::scan_workspace_bytes: no variant named 'no_such_variant'"));
  EXPECT_THROW((void)scan_workspace_bytes<double>(n, {.variant = "lookback_bulk"}), Error);
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
  std::string msg = error_message([&] { inclusive_scan<float>(nullptr, n, out.data(), {.stream = stream()}); });
  EXPECT_TRUE(has_substr(msg, "d_in"));
  msg = error_message([&] { inclusive_scan(x.data(), n, out.data()); });  // host input, GPU variant
  EXPECT_TRUE(has_substr(msg, "d_in"));
  EXPECT_TRUE(has_substr(msg, "device"));
  std::vector<float> host_out(n, 7.0f);
  msg = error_message([&] { exclusive_scan(d.data(), n, host_out.data()); });
  EXPECT_TRUE(has_substr(msg, "d_out"));
  EXPECT_TRUE(std::all_of(host_out.begin(), host_out.end(), [](float v) { return v == 7.0f; }));
  msg = error_message([&] { inclusive_scan(d.data(), n, d.data() + 10); });
  EXPECT_TRUE(has_substr(msg, "overlap"));
  msg = error_message([&] { inclusive_scan(d.data(), n, out.data(), {.op = Op::min, .accum = Accum::kahan}); });
  EXPECT_TRUE(has_substr(msg, "kahan"));
  msg = error_message([&] { inclusive_scan(d.data(), n, out.data(), {.variant = "nope"}); });
  EXPECT_TRUE(has_substr(msg, "nope"));
  msg = error_message([&] { inclusive_scan(d.data(), n, out.data(), {.variant = "cpu_reference"}); });
  EXPECT_TRUE(has_substr(msg, "host"));
  // A variant that does not take this combination (the 4-byte-only bulk kernel).
  DeviceBuffer<double> dd(n), od(n);
  msg = error_message([&] { inclusive_scan(dd.data(), n, od.data(), {.variant = "lookback_bulk"}); });
  EXPECT_TRUE(has_substr(msg, "lookback_bulk"));
  EXPECT_TRUE(unchanged());
  // Adjacent arrays are fine; n = 0 does nothing.
  EXPECT_NO_THROW(inclusive_scan(d.data(), n, d.data() + n, {.stream = stream()}));
  EXPECT_NO_THROW(exclusive_scan<float>(nullptr, 0, nullptr));
  ASSERT_EQ(cudaStreamSynchronize(stream()), cudaSuccess);
}

// ---- a user operator: tessera::scan_with (include/tessera/scan.cuh) ----------------------

TEST_F(ScanGpuTest, UserOperatorComposesAffineMapsInOrder) {
  // Composition of affine maps modulo 2^32 is associative but not
  // commutative: any reordering of the tile, row or look-back combines shows
  // as a wrong (exact, integer) map. In place and out of place, inclusive and
  // exclusive, across tile and look-back window boundaries, with a caller's
  // workspace (garbage on entry) and with scan_with's own.
  using scan_impl::Affine32;
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(4097), std::size_t(1000003), std::size_t(1) << 22}) {
    std::vector<std::uint32_t> raw(2 * n);
    harness::fill_random(raw.data(), 2 * n, 7 + n, Distribution::uniform);
    std::vector<Affine32> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = {raw[2 * i] | 1u, raw[2 * i + 1]};  // odd a: no collapse to 0
    for (bool exclusive : {false, true})
      for (bool in_place : {false, true})
        for (bool own_workspace : {false, true}) {
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
          device_sync();
          Affine32* out = in_place ? d_in.data() : d_out.data();
          const Workspace given = own_workspace ? Workspace{} : Workspace{ws.data(), ws_bytes};
          const std::uint64_t allocated = tessera_test::pool_bytes_used_by(
              [&] { scan_impl::affine_scan(d_in.data(), n, out, exclusive, given, stream()); });
          EXPECT_EQ(allocated == 0, !own_workspace) << allocated << " bytes from the pool";
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
                               << (own_workspace ? ", own workspace" : "") << ", first wrong at " << first;
        }
  }
  // Bad arguments throw before anything is enqueued; n = 0 does nothing.
  using tessera_test::error_message;
  using tessera_test::has_substr;
  DeviceBuffer<Affine32> d(16);
  auto message = [&](const Affine32* in, std::size_t n, Affine32* out, Workspace ws) {
    return error_message([&] { scan_impl::affine_scan(in, n, out, false, ws, stream()); });
  };
  EXPECT_TRUE(has_substr(message(nullptr, 5, d.data(), {}), "d_in"));
  EXPECT_TRUE(has_substr(message(d.data(), 5, nullptr, {}), "d_out"));
  EXPECT_TRUE(has_substr(message(d.data(), 8, d.data() + 1, {}), "overlap"));
  EXPECT_TRUE(has_substr(message(d.data(), 16, d.data(), {d.data(), 8}), "workspace holds"));
  EXPECT_NO_THROW(scan_impl::affine_scan(nullptr, 0, nullptr, false, {}, stream()));
}

// ---- past 2^31 elements (TESSERA_LARGE_TESTS=1) ------------------------------------------

TEST_F(ScanGpuTest, LargePast2To31Elements) {
  std::string why;
  if (!tessera_test::large_scan_enabled(why)) GTEST_SKIP() << why;
  const std::size_t ran = tessera_test::check_int32_past_2_31(
      {"lookback", "lookback_bulk", "hierarchical", "reduce_then_scan", "chained", "warp_shuffle", "cub_device_scan"},
      stream(), [&](DeviceBuffer<std::int32_t>& d, const std::vector<std::int32_t>& expected) {
        // The public API in place.
        const std::size_t n = expected.size();
        inclusive_scan(d.data(), n, d.data());
        device_sync();
        std::vector<std::int32_t> got(n);
        d.download(got.data(), n);
        EXPECT_TRUE(got == expected) << "public API, in place";
      });
  EXPECT_EQ(ran, 7u) << "a variant stopped the loop early";
}

}  // namespace
