// batched_scan: the registry, the CPU rungs (host pointers) against the
// independent reference of batched_scan_support.hpp, the public API's
// validation (through the cpu_* variants, which work in every build, with or
// without a GPU), the overlap test, the accumulator helpers and the seismic
// generator.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "families/batched_scan/api_common.hpp"
#include "batched_scan_support.hpp"
#include "tessera/blocks/reducers.hpp"
#include "families/batched_scan/ops.hpp"
#include "families/batched_scan/policy.hpp"
#include "families/batched_scan/stream_order.hpp"
#include "harness/registry.hpp"
#include "harness/generate.hpp"
#include "families/batched_scan/seismic_traces.hpp"
#include "harness/runner.hpp"
#include "families/batched_scan/contract.hpp"
#include "tessera/batched_scan.hpp"
#include "tessera/core/error.hpp"

namespace {

using namespace tessera;
using batched_scan_impl::ScanCall;
using batched_scan_impl::ScanSpec;
using batched_scan_impl::ScanVariant;
using scan_test::Layout;

using scan_test::random_rows;

// The ladder's CPU rows (host pointers, every build).
std::vector<const ScanVariant*> cpu_rungs() {
  std::vector<const ScanVariant*> r;
  for (const auto& v : batched_scan_impl::all_variants())
    if (v.info.backend == Backend::cpu) r.push_back(&v);
  return r;
}

ScanSpec spec_of(const Layout& l, ScanDirection d, bool excl, Accum a) {
  return {d, a, excl, l.rows, l.len, l.in_pitch, l.in_place ? l.in_pitch : l.out_pitch, l.in_place};
}

// Runs `v` on `rows0` laid out as `l`; returns (before, after) output buffers.
std::pair<std::vector<float>, std::vector<float>> run_variant(const ScanVariant& v, const Layout& l, ScanDirection d,
                                                              bool excl, Accum a, const std::vector<float>& rows0) {
  std::vector<float> in = scan_test::make_input(l, rows0);
  const ScanSpec spec = spec_of(l, d, excl, a);
  std::vector<unsigned char> ws(v.workspace_bytes(spec));
  if (l.in_place) {
    const std::vector<float> before = in;
    v.run(ScanCall{spec, in.data() + l.in_off, in.data() + l.in_off, ws.data(), nullptr});
    return {before, in};
  }
  std::vector<float> out(scan_test::buffer_elems(l.out_off, l.rows, l.out_pitch, l.len),
                         std::bit_cast<float>(scan_test::kPoisonBits));
  const std::vector<float> before = out, in_before = in;
  v.run(ScanCall{spec, in.data() + l.in_off, out.data() + l.out_off, ws.data(), nullptr});
  EXPECT_EQ(std::memcmp(in.data(), in_before.data(), in.size() * sizeof(float)), 0) << "the input was modified";
  return {before, out};
}

// ---- registry ----------------------------------------------------------------

TEST(BatchedScanRegistry, EveryVariantIsWellFormed) {
  const auto all = batched_scan_impl::all_variants();
  ASSERT_FALSE(all.empty());
  std::set<std::string_view> names;
  int step0 = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& v = all[i];
    SCOPED_TRACE(std::string(v.info.name));
    EXPECT_TRUE(names.insert(v.info.name).second) << "duplicate name";
    EXPECT_EQ(v.info.pattern, "batched_scan");
    EXPECT_FALSE(v.info.adds.empty());
    EXPECT_NE(v.supports, nullptr);
    EXPECT_NE(v.workspace_bytes, nullptr);
    EXPECT_NE(v.run, nullptr);
    for (char ch : v.info.name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    if (i > 0) {
      EXPECT_LE(all[i - 1].info.step, v.info.step) << "ladder order";
    }
    step0 += v.info.step == 0;
    EXPECT_EQ(batched_scan_impl::find_variant(v.info.name), &v);
  }
  EXPECT_EQ(step0, 1);
  EXPECT_EQ(all.front().info.name, "cpu_reference");
  EXPECT_EQ(batched_scan_impl::find_variant("no_such"), nullptr);
  EXPECT_NE(find_pattern("batched_scan"), nullptr);
  EXPECT_EQ(cpu_rungs().size(), 2u);
#if !TESSERA_HAVE_CUDA
  EXPECT_EQ(all.size(), 2u) << "CPU-only builds hold the CPU rungs only";
#endif
}

// The product's ladder holds no tuning rows (they are the lab's), and the
// default policy names only variants of the product's ladder marked as the
// API's picks.
TEST(BatchedScanRegistry, PolicyPicksOnlyProductRows) {
  for (const auto& v : batched_scan_impl::all_variants())
    EXPECT_NE(v.info.role, Role::tuning) << v.info.name;
#if TESSERA_HAVE_CUDA
  for (const auto& rule : batched_scan_impl::kPickRules) {
    const ScanVariant* v = batched_scan_impl::find_variant(rule.variant);
    ASSERT_NE(v, nullptr) << rule.variant;
    EXPECT_EQ(v->info.role, Role::product) << rule.variant;
    EXPECT_FALSE(rule.measured.empty()) << rule.variant;
  }
  for (const auto& v : batched_scan_impl::all_variants()) {
    if (v.info.role != Role::product) continue;
    bool picked = false;
    for (const auto& rule : batched_scan_impl::kPickRules) picked |= rule.variant == v.info.name;
    EXPECT_TRUE(picked) << v.info.name << " is marked product but no rule picks it";
  }
#endif
}

TEST(BatchedScanRegistry, CpuVariantsSupportEverything) {
  for (const ScanVariant* p : cpu_rungs())
    for (Accum a : scan_test::kAccums)
      for (ScanDirection d : scan_test::kDirections)
        for (bool excl : {false, true})
          for (std::size_t len : {std::size_t(0), std::size_t(1), std::size_t(100000), std::size_t(1) << 31})
            EXPECT_TRUE(p->supports({d, a, excl, 3, len, len, len, false})) << p->info.name;
}

// ---- semantics on a row whose sums are exact -----------------------------------

TEST(BatchedScanCpu, ExactSemanticsOfEveryDirection) {
  const std::vector<float> x = {1, 2, 3, 4};
  struct Case {
    ScanDirection d;
    bool excl;
    std::vector<float> want;
  };
  const Case cases[] = {
      {ScanDirection::forward, false, {1, 3, 6, 10}},
      {ScanDirection::forward, true, {0, 1, 3, 6}},
      {ScanDirection::backward, false, {10, 9, 7, 4}},
      {ScanDirection::backward, true, {9, 7, 4, 0}},
      {ScanDirection::forward_backward, false, {20, 19, 16, 10}},  // backward of 1 3 6 10
      {ScanDirection::forward_backward, true, {10, 9, 6, 0}},      // exclusive backward of 0 1 3 6
  };
  for (const ScanVariant* v : cpu_rungs())
    for (Accum a : scan_test::kAccums)
      for (const Case& c : cases) {
        std::vector<float> y(4, -1.0f);
        v->run(ScanCall{{c.d, a, c.excl, 1, 4, 4, 4, false}, x.data(), y.data(), nullptr, nullptr});
        EXPECT_EQ(y, c.want) << v->info.name << " " << to_string(c.d) << (c.excl ? " exclusive " : " ")
                             << to_string(a);
      }
}

// ---- random rows, every layout ------------------------------------------------

TEST(BatchedScanCpu, MatchesReferenceOnEveryLayout) {
  struct Shape {
    std::size_t rows, len;
  };
  const Shape shapes[] = {{1, 1}, {3, 2}, {5, 31}, {7, 33}, {2, 129}, {3, 1000}, {1, 65537}, {40, 7}};
  for (const ScanVariant* v : cpu_rungs())
    for (std::size_t si = 0; si < std::size(shapes); ++si) {
      const auto [rows, len] = shapes[si];
      const auto rows0 = random_rows(rows, len, 1000 + si);
      const auto layouts = scan_test::layouts_for(rows, len);
      for (std::size_t li = 0; li < layouts.size(); ++li)
        for (Accum a : scan_test::kAccums)
          for (ScanDirection d : scan_test::kDirections)
            for (bool excl : {false, true}) {
              // The big row only once per accumulator and direction.
              if (len > 10000 && (li > 0 || excl)) continue;
              const Layout& l = layouts[li];
              SCOPED_TRACE(std::string(v->info.name) + " " + scan_test::describe(l, d, excl, a));
              const auto [before, after] = run_variant(*v, l, d, excl, a, rows0);
              EXPECT_TRUE(scan_test::check_output(l, d, excl, a, rows0, before, after));
            }
    }
}

TEST(BatchedScanCpu, EmptyShapesWriteNothing) {
  for (const ScanVariant* v : cpu_rungs())
    for (const Layout& l : {Layout{0, 10, 10, 10}, Layout{4, 0, 3, 5}}) {
      std::vector<float> out(64, std::bit_cast<float>(scan_test::kPoisonBits));
      const std::vector<float> in(64, 1.0f);
      v->run(ScanCall{spec_of(l, ScanDirection::forward_backward, false, Accum::native), in.data(), out.data(),
                      nullptr, nullptr});
      for (float f : out) EXPECT_EQ(std::bit_cast<std::uint32_t>(f), scan_test::kPoisonBits) << v->info.name;
    }
}

// Float accumulation loses precision along a long trace with a DC offset (the
// seed's problem); double and double-float keep the error at the output
// rounding. Serial accumulation (cpu_openmp) is the worst case.
TEST(BatchedScanCpu, WideAccumulatorsFixLongTraces) {
  const std::size_t len = 100000;
  std::vector<float> x(len);
  harness::fill_seismic_traces(x.data(), 1, len, len, 7);
  std::vector<long double> ref, scale;
  scan_test::reference(x.data(), len, ScanDirection::forward_backward, false, ref, scale);
  const ScanVariant* v = batched_scan_impl::find_variant("cpu_openmp");
  ASSERT_NE(v, nullptr);
  auto max_rel = [&](Accum a) {
    std::vector<float> y(len);
    v->run(ScanCall{{ScanDirection::forward_backward, a, false, 1, len, len, len, false}, x.data(), y.data(), nullptr,
                    nullptr});
    long double m = 0;
    for (std::size_t i = 0; i < len; ++i) m = std::max(m, std::fabs(y[i] - ref[i]) / std::fabs(ref[i]));
    return static_cast<double>(m);
  };
  const double native = max_rel(Accum::native), dbl = max_rel(Accum::f64), kahan = max_rel(Accum::kahan),
               dfloat = max_rel(Accum::dfloat);
  RecordProperty("native", std::to_string(native));
  EXPECT_LE(dbl, 0x1.0p-23);  // the final rounding (half an ulp), nothing more
  EXPECT_LE(dfloat, 0x1.0p-23);
  EXPECT_LE(kahan, 0x1.0p-21);
  EXPECT_GE(native, 100 * dfloat) << "float accumulation should be visibly worse on a 10^5-sample trace";
}

// ---- public API ------------------------------------------------------------------

TEST(BatchedScanApi, CpuVariantsThroughThePublicCall) {
  const std::size_t rows = 5, len = 77;
  const auto rows0 = random_rows(rows, len, 99);
  for (const char* name : {"cpu_reference", "cpu_openmp"})
    for (const Layout& l : scan_test::layouts_for(rows, len)) {
      std::vector<float> in = scan_test::make_input(l, rows0);
      std::vector<float> out(scan_test::buffer_elems(l.out_off, rows, l.out_pitch, len),
                             std::bit_cast<float>(scan_test::kPoisonBits));
      const BatchedScanOptions o{.direction = ScanDirection::forward_backward,
                                 .accum = Accum::dfloat,
                                 .exclusive = false,
                                 .in_pitch = l.in_pitch,
                                 .out_pitch = l.in_place ? l.in_pitch : l.out_pitch,
                                 .variant = name};
      if (l.in_place) {
        const auto before = in;
        batched_scan(in.data() + l.in_off, rows, len, in.data() + l.in_off, o);
        EXPECT_TRUE(scan_test::check_output(l, o.direction, false, o.accum, rows0, before, in)) << name;
      } else {
        const auto before = out;
        batched_scan(in.data() + l.in_off, rows, len, out.data() + l.out_off, o);
        EXPECT_TRUE(scan_test::check_output(l, o.direction, false, o.accum, rows0, before, out)) << name;
      }
    }
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "did not throw tessera::Error";
  return {};
}

// The host entry point: the same results as the public call on every layout
// (default variant cpu_openmp), the same argument checks, GPU variants refused
// by name. (That it never loads the CUDA driver is checked through the
// binary: tests/test_traces_cli.cpp.)
TEST(BatchedScanApi, HostEntryPointMatchesThePublicCall) {
  const std::size_t rows = 6, len = 101;
  const auto rows0 = random_rows(rows, len, 7);
  for (const Layout& l : scan_test::layouts_for(rows, len)) {
    for (const Accum a : {Accum::native, Accum::kahan}) {
      const BatchedScanOptions host{.direction = ScanDirection::forward_backward, .accum = a, .exclusive = true,
                                    .in_pitch = l.in_pitch, .out_pitch = l.in_place ? l.in_pitch : l.out_pitch};
      BatchedScanOptions pub = host;
      pub.variant = "cpu_openmp";
      std::vector<float> in = scan_test::make_input(l, rows0);
      std::vector<float> in2 = in;
      std::vector<float> out(scan_test::buffer_elems(l.out_off, rows, l.out_pitch, len),
                             std::bit_cast<float>(scan_test::kPoisonBits));
      std::vector<float> out2 = out;
      float* o1 = l.in_place ? in.data() + l.in_off : out.data() + l.out_off;
      float* o2 = l.in_place ? in2.data() + l.in_off : out2.data() + l.out_off;
      const auto before = l.in_place ? in : out;
      batched_scan_host(in.data() + l.in_off, rows, len, o1, host);
      batched_scan(in2.data() + l.in_off, rows, len, o2, pub);
      EXPECT_TRUE(scan_test::check_output(l, host.direction, true, a, rows0, before, l.in_place ? in : out));
      const std::vector<float>& a1 = l.in_place ? in : out;
      const std::vector<float>& a2 = l.in_place ? in2 : out2;
      ASSERT_EQ(a1.size(), a2.size());  // bit for bit (the poison is a NaN): the same rung
      EXPECT_EQ(std::memcmp(a1.data(), a2.data(), a1.size() * sizeof(float)), 0);
    }
  }
  std::vector<float> x(40, 1.0f);
  const std::string bad_pitch =
      error_of([&] { batched_scan_host(x.data(), 4, 10, x.data(), {.in_pitch = 5, .out_pitch = 5}); });
  EXPECT_NE(bad_pitch.find("in_pitch = 5 is smaller than len = 10"), std::string::npos) << bad_pitch;
  const std::string unknown = error_of([&] { batched_scan_host(x.data(), 4, 10, x.data(), {.variant = "nope"}); });
  EXPECT_NE(unknown.find("no variant named 'nope'"), std::string::npos) << unknown;
  EXPECT_EQ(x, std::vector<float>(40, 1.0f));  // refused before anything was written
#if TESSERA_HAVE_CUDA
  const std::string gpu =
      error_of([&] { batched_scan_host(x.data(), 4, 10, x.data(), {.variant = "fused_one_pass"}); });
  EXPECT_NE(gpu.find("variant 'fused_one_pass' runs on a GPU"), std::string::npos) << gpu;
#endif
}

TEST(BatchedScanApi, RejectsBadArgumentsAndWritesNothing) {
  std::vector<float> in(200, 1.0f), out(200, -7.0f);
  const BatchedScanOptions cpu{.variant = "cpu_openmp"};
  auto with = [&](BatchedScanOptions o) {
    o.variant = "cpu_openmp";
    return o;
  };
  auto untouched = [&] {
    for (float f : out)
      if (f != -7.0f) return false;
    return true;
  };
  EXPECT_NE(error_of([&] { batched_scan(in.data(), 3, 10, out.data(), with({.in_pitch = 9})); }).find("in_pitch = 9"),
            std::string::npos);
  EXPECT_NE(
      error_of([&] { batched_scan(in.data(), 3, 10, out.data(), with({.out_pitch = 8})); }).find("out_pitch = 8"),
      std::string::npos);
  EXPECT_NE(error_of([&] { batched_scan(nullptr, 3, 10, out.data(), cpu); }).find("in is a null pointer"),
            std::string::npos);
  EXPECT_NE(error_of([&] { batched_scan(in.data(), 3, 10, nullptr, cpu); }).find("out is a null pointer"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              batched_scan(in.data(), 3, 10, out.data(), {.variant = "no_such_variant"});
            }).find("tessera::batched_scan: no variant named 'no_such_variant' (variants: cpu_reference, cpu_openmp"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              batched_scan(in.data(), 3, 10, out.data(), with({.accum = static_cast<Accum>(42)}));
            }).find("accumulator"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              batched_scan(in.data(), 3, 10, out.data(), with({.direction = static_cast<ScanDirection>(7)}));
            }).find("direction"),
            std::string::npos);
  // Partial overlap: shifted by one sample, or in == out with other pitches.
  EXPECT_NE(error_of([&] { batched_scan(out.data(), 3, 10, out.data() + 1, cpu); }).find("overlap"),
            std::string::npos);
  EXPECT_NE(
      error_of([&] { batched_scan(out.data(), 3, 10, out.data(), with({.out_pitch = 12})); }).find("overlap"),
      std::string::npos);
  // A caller's workspace smaller than the query says (the CPU rungs need
  // none: a workspace of 0 bytes is enough, and the query says 0).
  EXPECT_EQ(batched_scan_workspace_bytes(3, 10, cpu), 0u);
  EXPECT_NE(error_of([&] {
              batched_scan_workspace_bytes(3, 10, {.variant = "no_such_variant"});
            }).find("no variant named 'no_such_variant'"),
            std::string::npos);
  EXPECT_TRUE(untouched());
  // Nothing to do: null pointers are fine.
  batched_scan(nullptr, 0, 10, nullptr, cpu);
  batched_scan(nullptr, 5, 0, nullptr, cpu);
  // Interleaved rows that do not share a sample are not an overlap.
  batched_scan(out.data(), 3, 10, out.data() + 10, with({.in_pitch = 20, .out_pitch = 20}));
}

// Pitches of 0 mean compact rows (len); a caller's host workspace serves the
// cpu_* variants.
TEST(BatchedScanApi, ZeroPitchesAreCompactRows) {
  const std::size_t rows = 4, len = 9;
  const auto rows0 = random_rows(rows, len, 5);
  std::vector<float> out(rows * len + 1, std::bit_cast<float>(scan_test::kPoisonBits));
  const std::vector<float> before = out;
  std::vector<unsigned char> ws(16);
  batched_scan(rows0.data(), rows, len, out.data(),
               {.accum = Accum::kahan, .variant = "cpu_openmp", .workspace = {ws.data(), ws.size()}});
  const Layout l{rows, len, len, len};
  EXPECT_TRUE(scan_test::check_output(l, ScanDirection::forward_backward, false, Accum::kahan, rows0, before, out));
}

TEST(BatchedScanApi, OverlapTestIsExactForEqualPitches) {
  using batched_scan_impl::rows_overlap;
  std::vector<float> buf(1000);
  const float* b = buf.data();
  EXPECT_FALSE(rows_overlap(b, 20, b + 10, 20, 5, 10));   // interleaved halves
  EXPECT_TRUE(rows_overlap(b, 20, b + 9, 20, 5, 10));     // one shared sample per row
  EXPECT_TRUE(rows_overlap(b, 20, b + 11, 20, 5, 10));    // row r's tail meets row r+1's head
  EXPECT_FALSE(rows_overlap(b, 20, b + 90, 20, 5, 10));   // out row 0 right after in row 4
  EXPECT_TRUE(rows_overlap(b, 20, b + 89, 20, 5, 10));    // ... one sample earlier
  EXPECT_TRUE(rows_overlap(b + 89, 20, b, 20, 5, 10));    // symmetric
  EXPECT_FALSE(rows_overlap(b, 20, b + 190, 20, 5, 10));
  EXPECT_FALSE(rows_overlap(b, 20, b + 10, 20, 0, 10));   // nothing to scan
  EXPECT_TRUE(rows_overlap(b, 10, b + 5, 30, 3, 10));     // different pitches: the hulls meet
  EXPECT_FALSE(rows_overlap(b, 10, b + 30, 30, 3, 10));
}

// ---- accumulator helpers and the generator ------------------------------------------

TEST(ScanOps, ScaleIsAccurateForEveryAccumulator) {
  for (std::uint32_t n : {0u, 1u, 3u, 44u, 3072u, 16777216u})
    for (float hi : {1.0f, -3.14159274f, 1.0e-20f, 123456.789f}) {
      const float lo = hi * 0x1.0p-30f;
      const long double exact = (static_cast<long double>(hi) + lo) * n;
      const DFloatState d = scan_ops::scale(DFloatState{hi, lo}, n);
      EXPECT_LE(std::fabs(static_cast<long double>(d.hi) + d.lo - exact), std::fabs(exact) * 0x1.0p-44L)
          << hi << " x " << n;
      const KahanState k = scan_ops::scale(KahanState{hi, -lo}, n);
      EXPECT_LE(std::fabs(static_cast<long double>(k.s) - k.c - exact), std::fabs(exact) * 0x1.0p-44L);
      EXPECT_EQ(scan_ops::scale(2.5, n), 2.5 * n);
      EXPECT_LE(std::fabs(static_cast<long double>(scan_ops::scale(hi, n)) - static_cast<long double>(hi) * n),
                std::fabs(static_cast<long double>(hi) * n) * 0x1.0p-24L);
    }
}

TEST(SeismicTraces, SeededPerTraceWithOffsetAndDecay) {
  const std::size_t rows = 4, len = 20000, pitch = len + 3;
  std::vector<float> a(rows * pitch, -9.0f), b(2 * pitch, -9.0f), c(rows * pitch, -9.0f);
  harness::fill_seismic_traces(a.data(), rows, len, pitch, 11);
  harness::fill_seismic_traces(b.data(), 2, len, pitch, 11);
  harness::fill_seismic_traces(c.data(), rows, len, pitch, 12);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), 2 * pitch * sizeof(float)), 0) << "a trace depends on (seed, row) only";
  EXPECT_NE(std::memcmp(a.data(), c.data(), pitch * sizeof(float)), 0) << "the seed matters";
  for (std::size_t r = 0; r < rows; ++r) {
    const float* x = a.data() + r * pitch;
    for (std::size_t i = len; i < pitch; ++i) EXPECT_EQ(x[i], -9.0f) << "gap written";
    double mean = 0, early = 0, late = 0;
    for (std::size_t i = 0; i < len; ++i) {
      ASSERT_TRUE(std::isfinite(x[i]));
      mean += x[i];
    }
    mean /= len;
    for (std::size_t i = 0; i < len / 10; ++i) early += (x[i] - mean) * (x[i] - mean);
    for (std::size_t i = len - len / 10; i < len; ++i) late += (x[i] - mean) * (x[i] - mean);
    EXPECT_GT(mean, 0.005) << "positive DC offset";
    EXPECT_LT(mean, 0.06);
    EXPECT_GT(early, 100 * late) << "amplitude decays with time";
    EXPECT_NE(x[0], x[1]);
  }
}

// ---- the harness on the CPU rungs ----------------------------------------------------

TEST(BatchedScanHarness, QuickVerifyPassesOnCpuRungs) {
  harness::RunOptions o;
  o.quick = true;
  o.gpu = false;
  std::ostringstream log;
  const harness::DeviceInfo dev{};
  for (const char* v : {"cpu_reference", "cpu_openmp"}) {
    const auto report = harness::run_verify(harness::parse_selector(std::string("batched_scan/") + v), o, dev, log);
    EXPECT_EQ(report.failures, 0) << log.str();
    EXPECT_GE(report.results.size(), 8u);
    for (const auto& r : report.results) {
      EXPECT_TRUE(r.verified) << r.problem.label << ": " << r.error;
      EXPECT_TRUE(r.rms_rel_err.has_value());
      ASSERT_TRUE(r.max_ulp_err.has_value() && r.rms_ulp_err.has_value());
      EXPECT_LE(*r.rms_ulp_err, *r.max_ulp_err);
      // The reference rung rounds its long double sums once: the correctly
      // rounded result (1 ulp where double rounding of the reference flips a tie).
      if (std::string(v) == "cpu_reference") {
        EXPECT_LE(*r.max_ulp_err, 1.0) << r.problem.label;
      }
    }
  }
}

// multi_tile_streamed's claim order: every tile of every row counted once
// and scanned once, a row's counts all before its scans (its deadlock
// freedom), its scans last tile first, the lead's claims between a row's
// last count and its first scan, and the end after the last claim.
TEST(BatchedScanStreamOrder, CountsBeforeScansEveryTileOnce) {
  using batched_scan_impl::StreamItem;
  using batched_scan_impl::StreamOrder;
  const std::uint32_t shapes[][3] = {{1, 1, 1}, {1, 5, 2}, {2, 1, 1}, {2, 3, 3}, {3, 7, 0}, {5, 9, 4}, {4, 930, 264}};
  for (const auto& sh : shapes) {
    const StreamOrder order{sh[0], sh[1], sh[2]};
    const std::uint32_t rows = sh[0], T = sh[1], lead = sh[2];
    SCOPED_TRACE("rows " + std::to_string(rows) + " tiles " + std::to_string(T) + " lead " + std::to_string(lead));
    std::vector<int> counted(rows * T, 0), scanned(rows * T, 0);
    std::vector<std::uint64_t> last_count(rows, 0), first_scan(rows, ~0ull);
    std::vector<std::uint32_t> next_scan(rows, T);  // scans go last tile first
    const std::uint64_t claims = order.claims();
    for (std::uint64_t q = 0; q < claims; ++q) {
      const StreamItem it = order.at(static_cast<std::uint32_t>(q));
      ASSERT_NE(it.kind, StreamItem::end) << "claim " << q;
      if (it.kind == StreamItem::skip) continue;
      ASSERT_LT(it.row, rows);
      ASSERT_LT(it.tile, T);
      const std::size_t u = std::size_t{it.row} * T + it.tile;
      if (it.kind == StreamItem::count) {
        ASSERT_EQ(scanned[u], 0);
        ++counted[u];
        last_count[it.row] = q;
      } else {
        ASSERT_EQ(it.tile + 1, next_scan[it.row]) << "claim " << q;
        next_scan[it.row] = it.tile;
        ++scanned[u];
        if (first_scan[it.row] == ~0ull) first_scan[it.row] = q;
      }
    }
    for (std::size_t u = 0; u < counted.size(); ++u) {
      ASSERT_EQ(counted[u], 1) << "tile " << u;
      ASSERT_EQ(scanned[u], 1) << "tile " << u;
    }
    for (std::uint32_t r = 0; r < rows; ++r) {
      ASSERT_LT(last_count[r], first_scan[r]);
      // The lead: the next row's first counts (after row 0, alternating with
      // as many scans of the row before) come between.
      if (r + 1 < rows) {
        ASSERT_GE(first_scan[r] - last_count[r], (r == 0 ? 1u : 2u) * std::uint64_t{lead} + 1);
      }
    }
    EXPECT_EQ(order.at(static_cast<std::uint32_t>(claims)).kind, StreamItem::end);
    EXPECT_EQ(order.at(static_cast<std::uint32_t>(claims + 5)).kind, StreamItem::end);
  }
}

}  // namespace
