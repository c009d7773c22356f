// tessera::traces on raw float32 files (no segyio needed), the output file
// that appears only on success, and the batch sizing. CPU path.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>

#include "tessera/apps/traces.hpp"
#include "tessera/core/error.hpp"
#include "test_support.hpp"
#include "traces/engine.hpp"
#include "traces_test_support.hpp"

namespace {

using namespace traces_test;
using tessera_test::error_message;
using tessera_test::has_substr;
namespace tr = tessera::traces;

std::vector<float> random_traces(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> x(n);
  for (float& v : x) v = 0.25f + u(rng);  // a DC offset: sums grow along the trace
  return x;
}

void write_floats(const std::string& path, const std::vector<float>& x) {
  std::vector<unsigned char> b(x.size() * 4);
  std::memcpy(b.data(), x.data(), b.size());
  write_bytes(path, b);
}

std::vector<float> read_floats(const std::string& path) {
  const auto b = read_bytes(path);
  std::vector<float> x(b.size() / 4);
  std::memcpy(x.data(), b.data(), x.size() * 4);
  return x;
}

void expect_scanned(const std::vector<float>& in, const std::vector<float>& out, std::size_t traces, std::size_t samples,
                    const ScanCase& c) {
  ASSERT_EQ(out.size(), traces * samples);
  for (std::size_t t = 0; t < traces; ++t) {
    std::vector<double> x(in.begin() + t * samples, in.begin() + (t + 1) * samples);
    std::vector<double> y(out.begin() + t * samples, out.begin() + (t + 1) * samples);
    ASSERT_TRUE(check_row(y, x, c, false, t));
  }
}

tr::TraceScanOptions host(const ScanCase& c) {
  return {.direction = c.direction, .accum = c.accum, .exclusive = c.exclusive, .variant = "cpu_openmp"};
}

TEST(TracesRaw, ScansEveryTraceAcrossBatchBoundaries) {
  const std::size_t traces = 11, samples = 53;
  ScratchDir d;
  const auto x = random_traces(traces * samples, 7);
  write_floats(d.path("in.f32"), x);
  const ScanCase cases[] = {{ScanDirection::forward_backward, Accum::f64, false},
                            {ScanDirection::forward, Accum::f64, true},
                            {ScanDirection::backward, Accum::native, false},
                            {ScanDirection::forward_backward, Accum::dfloat, true}};
  for (std::size_t batch : {0u, 1u, 4u, 11u, 50u}) {
    for (const ScanCase& c : cases) {
      const tr::Report r = tr::scan_file(d.path("in.f32"), d.path("out.f32"), host(c),
                                         {.raw_traces = traces, .raw_samples = samples, .batch_traces = batch});
      SCOPED_TRACE(::testing::Message() << "batch " << batch << ", direction " << tessera::to_string(c.direction));
      expect_scanned(x, read_floats(d.path("out.f32")), traces, samples, c);
      EXPECT_FALSE(r.input.segy);
      EXPECT_EQ(r.input.traces, traces);
      EXPECT_EQ(r.batches, (traces + r.batch_traces - 1) / r.batch_traces);
      EXPECT_EQ(r.sample_bytes(), traces * samples * 4);
    }
  }
  EXPECT_EQ(d.files(), (std::vector<std::string>{"in.f32", "out.f32"}));
  EXPECT_EQ(read_floats(d.path("in.f32")), x) << "the input changed";
}

TEST(TracesRaw, InPlaceWhenInIsOut) {
  ScratchDir d;
  const auto x = random_traces(6 * 30, 8);
  write_floats(d.path("x.f32"), x);
  tr::scan_file(d.path("x.f32"), d.path("x.f32"), host({}), {.raw_traces = 6, .raw_samples = 30, .batch_traces = 4});
  expect_scanned(x, read_floats(d.path("x.f32")), 6, 30, {});
  EXPECT_EQ(d.files(), std::vector<std::string>{"x.f32"});
}

TEST(TracesRaw, ErrorsNameTheFileAndLeaveNothing) {
  ScratchDir d;
  write_floats(d.path("in.f32"), random_traces(100, 9));
  const auto run = [&](const tr::FileOptions& f, const std::string& in = "in.f32") {
    return error_message([&] { tr::scan_file(d.path(in), d.path("out.f32"), host({}), f); });
  };
  EXPECT_TRUE(has_substr(run({.raw_traces = 10, .raw_samples = 11}),
                         "in.f32: 400 bytes, but 10 traces x 11 samples of float32 are 440 bytes (100 floats"));
  EXPECT_TRUE(has_substr(run({.raw_traces = 10}), "needs both --traces N and --samples M"));
  EXPECT_TRUE(has_substr(run({.raw_samples = 10}), "needs both --traces N and --samples M"));
  EXPECT_TRUE(has_substr(run({.raw_traces = 10, .raw_samples = 10}, "missing.f32"), "missing.f32: cannot open"));
  EXPECT_EQ(d.files(), std::vector<std::string>{"in.f32"});
}

TEST(TracesRaw, ExceptionMidRunLeavesNothing) {
  ScratchDir d;
  write_floats(d.path("in.f32"), random_traces(20 * 8, 10));
  EXPECT_THROW(tr::process_file(d.path("in.f32"), d.path("out.f32"), {.raw_traces = 20, .raw_samples = 8, .batch_traces = 3},
                                [](float*, std::size_t, std::size_t, std::size_t first) {
                                  if (first == 9) throw std::runtime_error("boom");
                                }),
               std::runtime_error);
  EXPECT_EQ(d.files(), std::vector<std::string>{"in.f32"});
}

TEST(TracesRaw, GpuVariantWithoutGpuIsRefused) {
  if (tr::gpu_present() || !TESSERA_HAVE_CUDA) GTEST_SKIP() << "needs a CUDA build without a GPU";
  ScratchDir d;
  write_floats(d.path("in.f32"), random_traces(10, 11));
  const std::string msg = error_message([&] {
    tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.variant = "fused_one_pass"},
                  {.raw_traces = 2, .raw_samples = 5});
  });
  EXPECT_TRUE(has_substr(msg, "--variant fused_one_pass: a GPU variant, and no GPU was found"));
  EXPECT_EQ(d.files(), std::vector<std::string>{"in.f32"});
}

// A typo is named as such, with the valid names, whether or not a GPU is
// present (it used to be reported as a GPU variant without a GPU).
TEST(TracesRaw, UnknownVariantIsNamedWithTheValidNames) {
  ScratchDir d;
  write_floats(d.path("in.f32"), random_traces(10, 11));
  const std::string msg = error_message([&] {
    tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.variant = "doesnotexist"},
                  {.raw_traces = 2, .raw_samples = 5});
  });
  EXPECT_TRUE(has_substr(msg, "--variant doesnotexist: no batched_scan variant of that name")) << msg;
  EXPECT_TRUE(has_substr(msg, "cpu_openmp")) << msg;
  EXPECT_FALSE(has_substr(msg, "no GPU")) << msg;
  EXPECT_EQ(d.files(), std::vector<std::string>{"in.f32"});
}

// ---- where the scan runs (placement.cpp) -----------------------------------

tr::FileInfo raw_info(std::size_t traces, std::size_t samples) {
  tr::FileInfo f;
  f.traces = traces;
  f.samples = samples;
  f.file_bytes = std::uint64_t{traces} * samples * 4;
  return f;
}

// The estimate: the host for small files (its scan is shorter than a GPU's
// start) and for large ones where its threads keep up with the I/O; the GPU
// for large ones where they do not, or for the slow accumulators.
TEST(TracesPlacement, HostWhenItKeepsUpWithTheIo) {
  const tr::FileInfo seismic = raw_info(10000, 10000);  // 400 MB
  EXPECT_FALSE(tr::place_scan({}, raw_info(25, 1000), 1).gpu);   // 0.1 MB: a GPU's start costs more
  EXPECT_FALSE(tr::place_scan({}, seismic, 16).gpu);             // 16 x 0.142 GB/s keep up with 1.33 GB/s
  EXPECT_TRUE(tr::place_scan({}, seismic, 2).gpu);               // 2 threads do not
  EXPECT_FALSE(tr::place_scan({.accum = Accum::f64}, seismic, 16).gpu);
  EXPECT_TRUE(tr::place_scan({.accum = Accum::dfloat}, seismic, 16).gpu);
  EXPECT_TRUE(tr::place_scan({.accum = Accum::kahan}, seismic, 16).gpu);
  // The crossing is monotonic in the threads: past it, the host.
  std::size_t crossing = 0;
  for (std::size_t t = 1; t <= 64 && crossing == 0; ++t)
    if (!tr::place_scan({}, seismic, t).gpu) crossing = t;
  ASSERT_GT(crossing, 2u);
  for (std::size_t t = crossing; t <= 64; ++t) EXPECT_FALSE(tr::place_scan({}, seismic, t).gpu) << t;
  const tr::Placement why = tr::place_scan({}, seismic, 16);
  EXPECT_TRUE(has_substr(why.why, "16 threads x 0.142 GB/s")) << why.why;
  EXPECT_TRUE(has_substr(why.why, "within the I/O expected")) << why.why;
  EXPECT_TRUE(has_substr(tr::place_scan({}, seismic, 2).why, "past the I/O expected"));
}

// A named variant or a device pins the choice; the two must agree.
TEST(TracesPlacement, VariantOrDevicePinsIt) {
  const tr::FileInfo small = raw_info(25, 1000);
  EXPECT_TRUE(tr::place_scan({.device = tr::ScanDevice::gpu}, small, 64).gpu);
  EXPECT_FALSE(tr::place_scan({.device = tr::ScanDevice::host}, raw_info(10000, 10000), 1).gpu);
  EXPECT_TRUE(tr::place_scan({.variant = "fused_one_pass"}, small, 64).gpu);
  EXPECT_EQ(tr::place_scan({.variant = "cpu_reference"}, small, 1).why, "--variant cpu_reference");
  const std::string msg = error_message(
      [&] { (void)tr::place_scan({.variant = "cpu_openmp", .device = tr::ScanDevice::gpu}, small, 1); });
  EXPECT_TRUE(has_substr(msg, "--variant cpu_openmp runs on the host, and the scan was asked to run on the GPU"))
      << msg;
}

// A small file by default: scanned on the host, the same bytes as cpu_openmp
// pinned, and the report says why.
TEST(TracesPlacement, SmallFileRunsOnTheHostByDefault) {
  ScratchDir d;
  const std::size_t traces = 25, samples = 1000;
  write_floats(d.path("in.f32"), random_traces(traces * samples, 31));
  const tr::Report r =
      tr::scan_file(d.path("in.f32"), d.path("out.f32"), {}, {.raw_traces = traces, .raw_samples = samples});
  EXPECT_FALSE(r.on_gpu);
  EXPECT_EQ(r.variant, "cpu_openmp");
  EXPECT_TRUE(has_substr(r.placement, "plus a GPU's start")) << r.placement;
  for (const tr::Phase& p : r.phases) EXPECT_FALSE(has_substr(p.name, "GPU")) << p.name;
  const auto first = read_bytes(d.path("out.f32"));
  const tr::Report pinned = tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.variant = "cpu_openmp"},
                                          {.raw_traces = traces, .raw_samples = samples});
  EXPECT_EQ(pinned.placement, "--variant cpu_openmp");
  EXPECT_EQ(read_bytes(d.path("out.f32")), first);
  // Disagreeing options are refused before any output exists.
  ScratchDir e;
  write_floats(e.path("in.f32"), random_traces(traces * samples, 31));
  const std::string msg = error_message([&] {
    tr::scan_file(e.path("in.f32"), e.path("out.f32"), {.variant = "cpu_openmp", .device = tr::ScanDevice::gpu},
                  {.raw_traces = traces, .raw_samples = samples});
  });
  EXPECT_TRUE(has_substr(msg, "asked to run on the GPU")) << msg;
  EXPECT_EQ(e.files(), std::vector<std::string>{"in.f32"});
}

TEST(TracesPlacement, DeviceGpuWithoutGpuIsRefused) {
  if (tr::gpu_present()) GTEST_SKIP() << "needs a machine without a GPU";
  ScratchDir d;
  write_floats(d.path("in.f32"), random_traces(10, 11));
  const std::string msg = error_message([&] {
    tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.device = tr::ScanDevice::gpu},
                  {.raw_traces = 2, .raw_samples = 5});
  });
  EXPECT_TRUE(has_substr(msg, "--device gpu: no GPU was found")) << msg;
  EXPECT_EQ(d.files(), std::vector<std::string>{"in.f32"});
}

TEST(TracesRaw, SegySupportMatchesTheBuild) { EXPECT_EQ(tr::segy_supported(), TESSERA_HAVE_SEGYIO != 0); }

// ---- the output file --------------------------------------------------------

TEST(TracesOutput, AppearsOnlyOnCommit) {
  ScratchDir d;
  const std::string out = d.path("out.bin");
  {
    tr::AtomicOutput o(out);
    EXPECT_EQ(o.temp_path().rfind(d.dir().string() + "/.out.bin.tessera-", 0), 0u) << o.temp_path();
    std::ofstream(o.temp_path()) << "partial";
    EXPECT_EQ(d.files().size(), 1u);
  }  // no commit: removed
  EXPECT_TRUE(d.files().empty());
  {
    tr::AtomicOutput o(out);
    std::ofstream(o.temp_path()) << "complete";
    o.commit();
  }
  EXPECT_EQ(d.files(), std::vector<std::string>{"out.bin"});
  EXPECT_EQ(read_bytes(out), (std::vector<unsigned char>{'c', 'o', 'm', 'p', 'l', 'e', 't', 'e'}));
}

TEST(TracesOutput, KeepsTheModeOfAnExistingOutput) {
  ScratchDir d;
  const std::string out = d.path("out.bin");
  write_bytes(out, {1, 2, 3});
  ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
  {
    tr::AtomicOutput o(out);
    std::ofstream(o.temp_path()) << "new";
    o.commit();
  }
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

// ---- batch sizing -----------------------------------------------------------

TEST(TracesBatching, DefaultBatchIsSizedFromTheFile) {
  tr::FileInfo info;
  info.traces = 1000000;
  info.samples = 10000;  // 40 KB per trace (+240 B header)
  const std::size_t per = 40000 + 240;
  const std::size_t plenty = std::size_t{64} << 30;
  // A large file: 1/16 of it capped at BATCH_MAX_BYTES.
  EXPECT_EQ(tr::default_batch_traces(info, 240, SIZE_MAX, plenty), tr::BATCH_MAX_BYTES / per);
  // 256 MiB available: SLOTS batches within a quarter of it.
  const std::size_t little = std::size_t{256} << 20;
  EXPECT_EQ(tr::default_batch_traces(info, 240, SIZE_MAX, little), little / (4 * tr::SLOTS) / per);
  // The compute side's limit wins when smaller.
  EXPECT_EQ(tr::default_batch_traces(info, 240, 100, plenty), 100u);
  // Never 0.
  EXPECT_EQ(tr::default_batch_traces(info, 240, 0, 1), 1u);
  // A few MiB: one batch of the whole file.
  info.traces = 7;
  EXPECT_EQ(tr::default_batch_traces(info, 240, SIZE_MAX, plenty), 7u);
  info.traces = tr::ONE_BATCH_BYTES / per;
  EXPECT_EQ(tr::default_batch_traces(info, 240, SIZE_MAX, plenty), info.traces);
  // Just past it: batches of BATCH_MIN_BYTES.
  info.traces = 400;
  EXPECT_EQ(tr::default_batch_traces(info, 240, SIZE_MAX, plenty), tr::BATCH_MIN_BYTES / per);
  // The measured case, a raw 10,000 x 10,000 float32 file (400 MB): 16 batches of 625 traces.
  info.traces = 10000;
  EXPECT_EQ(tr::default_batch_traces(info, 0, SIZE_MAX, plenty), 625u);
  // An explicit target: whole traces, at least one, even when a trace is larger.
  EXPECT_EQ(tr::default_batch_traces(info, 240, SIZE_MAX, plenty, 5 * per + 7), 5u);
  EXPECT_EQ(tr::default_batch_traces(info, 240, SIZE_MAX, plenty, 100), 1u);
  info.traces = 0;
  EXPECT_EQ(tr::default_batch_traces(info, 240, SIZE_MAX, 0), 1u);
}

TEST(TracesBatching, HostMemoryIsKnown) { EXPECT_GT(tr::host_memory_available(), std::size_t{1} << 20); }

}  // namespace
