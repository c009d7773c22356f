// The staging ring of tessera::traces: batches sized from the file (one for
// a few MiB, several past that, one trace each when a trace is larger than
// the batch target), results byte for byte the same whatever the batching,
// every batch's phases recorded, and nothing left beside OUT (the verbose
// plain copy included). CPU path; the GPU path runs the same engine.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tessera/apps/traces.hpp"
#include "test_support.hpp"
#include "traces/engine.hpp"
#include "traces_test_support.hpp"

namespace {

using namespace traces_test;
using tessera_test::error_message;
using tessera_test::has_substr;
namespace tr = tessera::traces;

const ScanCase FB{ScanDirection::forward_backward, Accum::native, false};

tr::TraceScanOptions host(const ScanCase& c) {
  return {.direction = c.direction, .accum = c.accum, .exclusive = c.exclusive, .variant = "cpu_openmp"};
}

std::vector<unsigned char> random_float_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<unsigned char> b(n * 4);
  for (std::size_t i = 0; i < n; ++i) {
    const float v = 0.5f + 100.0f * u(rng);  // never all zero, sums grow along the trace
    std::memcpy(&b[4 * i], &v, 4);
  }
  return b;
}

// Every batch has its read, scan and write; the run's own steps are there;
// every phase ends after it starts, on the process's clock.
void expect_phases(const tr::Report& r) {
  std::set<std::string> seen;
  std::vector<std::set<std::string>> per_batch(r.batches);
  for (const tr::Phase& p : r.phases) {
    EXPECT_LE(p.start_s, p.end_s) << p.name;
    EXPECT_GT(p.start_s, 0.0) << p.name;
    EXPECT_LE(p.end_s, r.finished_s + 1e-9) << p.name;
    if (p.batch >= 0) {
      ASSERT_LT(static_cast<std::size_t>(p.batch), r.batches) << p.name;
      per_batch[static_cast<std::size_t>(p.batch)].insert(p.name);
    } else {
      seen.insert(p.name);
    }
  }
  for (std::size_t b = 0; b < r.batches; ++b)
    EXPECT_EQ(per_batch[b], (std::set<std::string>{"read", "scan", "write"})) << "batch " << b;
  for (const char* step : {"fsync the output", "rename over OUT", "create the output's temporary"})
    EXPECT_TRUE(seen.count(step)) << step;
  EXPECT_GT(r.finished_s, 0.0);
  EXPECT_GT(r.wall_s, 0.0);
  EXPECT_LE(r.wall_s, r.finished_s);
}

struct RawShape {
  std::size_t traces, samples;
};

// Raw float32 of odd shapes through every batching: byte-identical outputs,
// all matching the reference.
TEST(TracesStaging, RawResultsDoNotDependOnTheBatching) {
  for (const RawShape s : {RawShape{1, 1}, RawShape{1, 777}, RawShape{25, 1000}, RawShape{25, 3}, RawShape{7, 4099}}) {
    SCOPED_TRACE(::testing::Message() << s.traces << " x " << s.samples);
    ScratchDir d;
    const std::string in = d.path("in.f32"), out = d.path("out.f32");
    const auto bytes = random_float_bytes(s.traces * s.samples, s.traces * 131 + s.samples);
    write_bytes(in, bytes);
    const tr::FileOptions shape{.raw_traces = s.traces, .raw_samples = s.samples};

    const tr::Report first = tr::scan_file(in, out, host(FB), shape);
    EXPECT_EQ(first.batches, 1u) << "a file of a few MiB is one batch";
    EXPECT_EQ(first.batch_traces, s.traces);
    expect_phases(first);
    const auto reference = read_bytes(out);
    ASSERT_EQ(reference.size(), bytes.size());
    std::vector<float> x(s.traces * s.samples), y(x.size());
    std::memcpy(x.data(), bytes.data(), bytes.size());
    std::memcpy(y.data(), reference.data(), reference.size());
    for (std::size_t t = 0; t < s.traces; ++t)
      ASSERT_TRUE(check_row(std::vector<double>(y.begin() + t * s.samples, y.begin() + (t + 1) * s.samples),
                            std::vector<double>(x.begin() + t * s.samples, x.begin() + (t + 1) * s.samples), FB,
                            false, t));

    const std::size_t trace_bytes = s.samples * 4;
    struct Batching {
      std::size_t batch_bytes, batch_traces, expect_per_batch;
    };
    for (const Batching b : {Batching{3 * trace_bytes + 1, 0, 3},  // several batches of whole traces
                             Batching{trace_bytes / 2, 0, 1},       // a trace longer than the batch target
                             Batching{0, 1, 1},                     // --batch-traces 1
                             Batching{0, 4, 4}}) {
      SCOPED_TRACE(::testing::Message() << "batch_bytes " << b.batch_bytes << " batch_traces " << b.batch_traces);
      tr::FileOptions f = shape;
      f.batch_bytes = b.batch_bytes;
      f.batch_traces = b.batch_traces;
      const tr::Report r = tr::scan_file(in, out, host(FB), f);
      const std::size_t per = std::min(b.expect_per_batch, s.traces);
      EXPECT_EQ(r.batch_traces, per);
      EXPECT_EQ(r.batches, (s.traces + per - 1) / per);
      expect_phases(r);
      EXPECT_EQ(read_bytes(out), reference);
      EXPECT_EQ(d.files(), (std::vector<std::string>{"in.f32", "out.f32"}));
    }
  }
}

// Past ONE_BATCH_BYTES the default makes several batches of BATCH_MIN_BYTES
// (10 MB here: 3 batches); the output is byte for byte that of one batch.
TEST(TracesStaging, DefaultSizingMakesManyBatchesPastAFewMiB) {
  const std::size_t traces = 2501, samples = 1000;  // 10.0 MB, a partial last batch
  ScratchDir d;
  const std::string in = d.path("in.f32");
  write_bytes(in, random_float_bytes(traces * samples, 99));
  const tr::FileOptions shape{.raw_traces = traces, .raw_samples = samples};
  const tr::Report many = tr::scan_file(in, d.path("many.f32"), host(FB), shape);
  EXPECT_EQ(many.batch_traces, tr::BATCH_MIN_BYTES / (samples * 4));
  EXPECT_EQ(many.batches, (traces + many.batch_traces - 1) / many.batch_traces);
  EXPECT_GE(many.batches, 3u);
  expect_phases(many);
  tr::FileOptions one = shape;
  one.batch_traces = traces;
  const tr::Report single = tr::scan_file(in, d.path("one.f32"), host(FB), one);
  EXPECT_EQ(single.batches, 1u);
  EXPECT_EQ(read_bytes(d.path("many.f32")), read_bytes(d.path("one.f32")));
}

#if TESSERA_HAVE_SEGYIO
// SEG-Y (IBM and IEEE, both byte orders) through the same batchings.
TEST(TracesStaging, SegyResultsDoNotDependOnTheBatching) {
  struct Case {
    int format;
    bool le;
    std::size_t traces, samples;
  };
  for (const Case c : {Case{1, false, 25, 1000}, Case{5, true, 1, 333}, Case{5, false, 25, 7}, Case{1, false, 3, 4099}}) {
    SCOPED_TRACE(::testing::Message() << "format " << c.format << " " << c.traces << " x " << c.samples);
    ScratchDir d;
    const std::string in = d.path("in.sgy"), out = d.path("out.sgy");
    SegySpec spec;
    spec.format = c.format;
    spec.little_endian = c.le;
    spec.traces = c.traces;
    spec.samples = c.samples;
    spec.seed = c.traces * 7 + c.samples;
    const SegyFile f = write_segy(in, spec);
    const auto in_bytes = read_bytes(in);
    const ScanCase sc{ScanDirection::forward_backward, Accum::f64, false};
    const tr::Report first = tr::scan_file(in, out, host(sc), {});
    EXPECT_EQ(first.batches, 1u);
    expect_phases(first);
    expect_scanned_copy(f, in, in_bytes, out, sc);
    const auto reference = read_bytes(out);
    const std::size_t trace_bytes = 240 + 4 * c.samples;
    for (const std::size_t target : {2 * trace_bytes + 3, trace_bytes / 3}) {
      SCOPED_TRACE(::testing::Message() << "batch_bytes " << target);
      const tr::Report r = tr::scan_file(in, out, host(sc), {.batch_bytes = target});
      EXPECT_EQ(r.batch_traces, std::min<std::size_t>(std::max<std::size_t>(target / trace_bytes, 1), c.traces));
      expect_phases(r);
      EXPECT_EQ(read_bytes(out), reference);
      EXPECT_EQ(d.files(), (std::vector<std::string>{"in.sgy", "out.sgy"}));
    }
  }
}
#endif

// The yardstick of --verbose: a real copy's time, and nothing left behind.
TEST(TracesStaging, PlainCopyLeavesNothing) {
  ScratchDir d;
  const std::string in = d.path("in.f32"), out = d.path("out.f32");
  write_bytes(in, random_float_bytes(300000, 5));
  write_bytes(out, {'o', 'u', 't'});
  const double s = tr::time_plain_copy(in, out);
  EXPECT_GT(s, 0.0);
  EXPECT_LT(s, 60.0);
  EXPECT_EQ(d.files(), (std::vector<std::string>{"in.f32", "out.f32"}));
  EXPECT_EQ(read_bytes(out), (std::vector<unsigned char>{'o', 'u', 't'}));
  const std::string msg = error_message([&] { (void)tr::time_plain_copy(d.path("missing.f32"), out); });
  EXPECT_TRUE(has_substr(msg, "missing.f32")) << msg;
  EXPECT_EQ(d.files(), (std::vector<std::string>{"in.f32", "out.f32"}));
}

TEST(TracesStaging, ProcessClockRuns) {
  const double a = tr::seconds_since_start();
  const double b = tr::seconds_since_start();
  EXPECT_GT(a, 0.0);
  EXPECT_LE(a, b);
}

}  // namespace
