// The device path of tessera::traces: batches uploaded from pinned memory,
// scanned with tessera::batched_scan on the GPU, downloaded and written, for
// short, medium and long traces, every direction and accumulator, batch sizes
// that do not divide the trace count; SEG-Y headers kept byte for byte.
// Checked against the independent long-double reference of
// traces_test_support.hpp. Compiled in CUDA builds only; skips without a GPU.
#include <gtest/gtest.h>
#include <cuda_runtime_api.h>

#include <cstring>
#include <random>

#include "tessera/apps/traces.hpp"
#include "tessera/batched_scan.hpp"
#include "test_support.hpp"
#include "traces_test_support.hpp"

namespace {

using namespace traces_test;
namespace tr = tessera::traces;

constexpr const char* kNoGpu = "no CUDA device: GPU tests skipped";

std::vector<float> seismic_like(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> x(n);
  for (float& v : x) v = 0.1f + u(rng);
  return x;
}

struct RawCase {
  std::size_t traces, samples, batch;
  ScanCase scan;
};

TEST(TracesGpu, RawFilesOnTheDevice) {
  if (!tr::gpu_present()) GTEST_SKIP() << kNoGpu;
  const RawCase cases[] = {
      {37, 10007, 8, {ScanDirection::forward_backward, Accum::native, false}},
      {37, 10007, 0, {ScanDirection::forward_backward, Accum::dfloat, false}},
      {64, 32, 7, {ScanDirection::forward, Accum::f64, true}},        // short rows
      {1000, 1, 333, {ScanDirection::backward, Accum::kahan, false}},  // one sample per trace
      {3, 300007, 2, {ScanDirection::forward_backward, Accum::f64, true}},  // long rows
      {5, 1000, 1, {ScanDirection::backward, Accum::native, true}},
  };
  for (const RawCase& c : cases) {
    SCOPED_TRACE(::testing::Message() << c.traces << " x " << c.samples << ", batch " << c.batch << ", "
                                      << tessera::to_string(c.scan.direction) << ", accum "
                                      << tessera::to_string(c.scan.accum) << (c.scan.exclusive ? ", exclusive" : ""));
    ScratchDir d;
    const auto x = seismic_like(c.traces * c.samples, c.traces * 131 + c.samples);
    std::vector<unsigned char> bytes(x.size() * 4);
    std::memcpy(bytes.data(), x.data(), bytes.size());
    write_bytes(d.path("in.f32"), bytes);
    const tr::Report r =
        tr::scan_file(d.path("in.f32"), d.path("out.f32"),
                      {.direction = c.scan.direction, .accum = c.scan.accum, .exclusive = c.scan.exclusive,
                       .device = tr::ScanDevice::gpu},
                      {.raw_traces = c.traces, .raw_samples = c.samples, .batch_traces = c.batch});
    EXPECT_TRUE(r.on_gpu);
    EXPECT_FALSE(r.device.empty());
    EXPECT_EQ(r.variant, tessera::batched_scan_default_variant(r.batch_traces, c.samples, c.scan.accum,
                                                               c.scan.direction));
    if (c.batch != 0) {
      EXPECT_EQ(r.batch_traces, c.batch);
    }
    const auto out = read_bytes(d.path("out.f32"));
    ASSERT_EQ(out.size(), bytes.size());
    std::vector<float> y(x.size());
    std::memcpy(y.data(), out.data(), out.size());
    for (std::size_t t = 0; t < c.traces; ++t) {
      const std::vector<double> xin(x.begin() + t * c.samples, x.begin() + (t + 1) * c.samples);
      const std::vector<double> got(y.begin() + t * c.samples, y.begin() + (t + 1) * c.samples);
      ASSERT_TRUE(check_row(got, xin, c.scan, false, t));
    }
  }
}

// The default batch fits the device: at most half its free memory.
TEST(TracesGpu, DefaultBatchFitsTheDevice) {
  if (!tr::gpu_present()) GTEST_SKIP() << kNoGpu;
  std::size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  ScratchDir d;
  const std::size_t traces = 64, samples = 4096;
  write_bytes(d.path("in.f32"), std::vector<unsigned char>(traces * samples * 4, 0x3F));
  const tr::Report r =
      tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.device = tr::ScanDevice::gpu},
                    {.raw_traces = traces, .raw_samples = samples});
  EXPECT_TRUE(r.on_gpu);
  EXPECT_LE(r.batch_traces * samples * 4, free_b / 2);
  EXPECT_EQ(r.batches, 1u);  // 1 MiB: one batch
}

// The staging ring on the device: outputs byte for byte the same whatever the
// batching (one batch, batches of a few traces, one trace per batch: rows are
// scanned independently, by one variant, each from a 16-byte-aligned start:
// 4099 samples put packed rows at 4 alignments), the GPU's start and the
// pinning of each staging buffer (at most SLOTS) in the phases, every buffer
// unpinned.
TEST(TracesGpu, StagingRingResultsDoNotDependOnTheBatching) {
  if (!tr::gpu_present()) GTEST_SKIP() << kNoGpu;
  ScratchDir d;
  const std::size_t traces = 25, samples = 4099;
  const auto x = seismic_like(traces * samples, 2024);
  std::vector<unsigned char> bytes(x.size() * 4);
  std::memcpy(bytes.data(), x.data(), bytes.size());
  write_bytes(d.path("in.f32"), bytes);
  std::vector<unsigned char> first;
  for (const std::size_t target : {std::size_t{0}, 3 * samples * 4 + 5, std::size_t{100}}) {
    SCOPED_TRACE(::testing::Message() << "batch_bytes " << target);
    const tr::Report r = tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.device = tr::ScanDevice::gpu},
                                       {.raw_traces = traces, .raw_samples = samples, .batch_bytes = target});
    EXPECT_TRUE(r.on_gpu);
    EXPECT_EQ(r.batches, target == 0 ? 1u : target == 100 ? traces : (traces + 2) / 3);
    std::size_t pins = 0, unpins = 0, context = 0;
    for (const tr::Phase& p : r.phases) {
      pins += p.name == "pin a staging buffer";
      unpins += p.name == "unpin staging buffers";
      context += p.name == "GPU start: context (background)";
    }
    EXPECT_GE(pins, 1u);
    EXPECT_LE(pins, std::min<std::size_t>(4, r.batches));
    EXPECT_EQ(unpins, 1u);
    EXPECT_EQ(context, 1u);
    const auto out = read_bytes(d.path("out.f32"));
    if (first.empty()) {
      first = out;
      std::vector<float> y(x.size());
      std::memcpy(y.data(), out.data(), out.size());
      for (std::size_t t = 0; t < traces; ++t)
        ASSERT_TRUE(check_row(std::vector<double>(y.begin() + t * samples, y.begin() + (t + 1) * samples),
                              std::vector<double>(x.begin() + t * samples, x.begin() + (t + 1) * samples),
                              {ScanDirection::forward_backward, Accum::native, false}, false, t));
    } else {
      EXPECT_EQ(out, first);
    }
    EXPECT_EQ(d.files(), (std::vector<std::string>{"in.f32", "out.f32"}));
  }
}

// cpu_* variants still run on the host when a GPU is present.
TEST(TracesGpu, HostVariantOnAGpuMachine) {
  if (!tr::gpu_present()) GTEST_SKIP() << kNoGpu;
  ScratchDir d;
  const auto x = seismic_like(9 * 100, 5);
  std::vector<unsigned char> bytes(x.size() * 4);
  std::memcpy(bytes.data(), x.data(), bytes.size());
  write_bytes(d.path("in.f32"), bytes);
  const tr::Report r = tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.accum = Accum::f64, .variant = "cpu_openmp"},
                                     {.raw_traces = 9, .raw_samples = 100, .batch_traces = 4});
  EXPECT_FALSE(r.on_gpu);
  EXPECT_EQ(r.variant, "cpu_openmp");
  const auto out = read_bytes(d.path("out.f32"));
  std::vector<float> y(x.size());
  std::memcpy(y.data(), out.data(), out.size());
  for (std::size_t t = 0; t < 9; ++t)
    ASSERT_TRUE(check_row(std::vector<double>(y.begin() + t * 100, y.begin() + (t + 1) * 100),
                          std::vector<double>(x.begin() + t * 100, x.begin() + (t + 1) * 100),
                          {ScanDirection::forward_backward, Accum::f64, false}, false, t));
}

// With a GPU present, a small file still runs on the host by default (a GPU's
// start would cost more than its scan), and the GPU, pinned, gives the same
// results to the accumulator's rounding (different summation orders).
TEST(TracesGpu, SmallFileDefaultsToTheHostAndAgreesWithTheGpu) {
  if (!tr::gpu_present()) GTEST_SKIP() << kNoGpu;
  ScratchDir d;
  const std::size_t traces = 25, samples = 1001;
  const auto x = seismic_like(traces * samples, 77);
  std::vector<unsigned char> bytes(x.size() * 4);
  std::memcpy(bytes.data(), x.data(), bytes.size());
  write_bytes(d.path("in.f32"), bytes);
  for (const tr::ScanDevice where : {tr::ScanDevice::automatic, tr::ScanDevice::gpu}) {
    const tr::Report r = tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.device = where},
                                       {.raw_traces = traces, .raw_samples = samples});
    EXPECT_EQ(r.on_gpu, where == tr::ScanDevice::gpu);
    const auto out = read_bytes(d.path("out.f32"));
    std::vector<float> y(x.size());
    std::memcpy(y.data(), out.data(), out.size());
    for (std::size_t t = 0; t < traces; ++t)
      ASSERT_TRUE(check_row(std::vector<double>(y.begin() + t * samples, y.begin() + (t + 1) * samples),
                            std::vector<double>(x.begin() + t * samples, x.begin() + (t + 1) * samples),
                            {ScanDirection::forward_backward, Accum::native, false}, false, t));
  }
}

TEST(TracesGpu, UnknownVariantLeavesNoOutput) {
  if (!tr::gpu_present()) GTEST_SKIP() << kNoGpu;
  ScratchDir d;
  write_bytes(d.path("in.f32"), std::vector<unsigned char>(4 * 10 * 10, 0));
  const std::string msg = tessera_test::error_message([&] {
    tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.variant = "no_such_gpu_variant"},
                  {.raw_traces = 10, .raw_samples = 10});
  });
  EXPECT_TRUE(tessera_test::has_substr(msg, "no_such_gpu_variant"));
  EXPECT_EQ(d.files(), std::vector<std::string>{"in.f32"});
}

#if TESSERA_HAVE_SEGYIO
TEST(TracesGpu, SegyOnTheDeviceKeepsHeaders) {
  if (!tr::gpu_present()) GTEST_SKIP() << kNoGpu;
  struct Case {
    SegySpec spec;
    ScanCase scan;
    std::size_t batch;
  };
  auto spec = [](int format, bool le, std::size_t traces, std::size_t samples, std::uint64_t seed) {
    SegySpec s;
    s.format = format;
    s.little_endian = le;
    s.traces = traces;
    s.samples = samples;
    s.seed = seed;
    s.ext_headers = s.ext_records = 1;
    return s;
  };
  const Case cases[] = {
      {spec(1, false, 50, 2001, 1), {ScanDirection::forward_backward, Accum::dfloat, false}, 7},
      {spec(5, true, 33, 777, 2), {ScanDirection::forward, Accum::native, true}, 0},
      {spec(1, true, 8, 60000, 3), {ScanDirection::backward, Accum::f64, false}, 3},
  };
  for (const Case& c : cases) {
    ScratchDir d;
    const SegyFile f = write_segy(d.path("in.sgy"), c.spec);
    const auto in = read_bytes(d.path("in.sgy"));
    const tr::Report r = tr::scan_file(d.path("in.sgy"), d.path("out.sgy"),
                                       {.direction = c.scan.direction, .accum = c.scan.accum, .exclusive = c.scan.exclusive,
                                        .device = tr::ScanDevice::gpu},
                                       {.batch_traces = c.batch});
    EXPECT_TRUE(r.on_gpu);
    expect_scanned_copy(f, d.path("in.sgy"), in, d.path("out.sgy"), c.scan);
  }
}
#endif

}  // namespace
