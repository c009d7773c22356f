// tessera::traces on SEG-Y files the tests write through segyio itself
// (rev 0/1/2, IBM and IEEE, big- and little-endian, extended textual headers,
// random header bytes): every header byte kept, samples equal to an
// independent long-double scan within the tolerance of
// traces_test_support.hpp, batch boundaries, in-place runs, and every error
// path leaving no output behind. CPU path (the GPU path: test_traces_gpu.cpp).
#include <gtest/gtest.h>

#include <stdexcept>

#include "tessera/apps/traces.hpp"
#include "tessera/core/error.hpp"
#include "test_support.hpp"
#include "traces_test_support.hpp"

#if TESSERA_HAVE_SEGYIO

namespace {

using namespace traces_test;
using tessera::Error;
using tessera_test::error_message;
using tessera_test::has_substr;
namespace tr = tessera::traces;

// Host scans whatever the machine: these tests are about the file plumbing.
tr::TraceScanOptions host_scan(const ScanCase& c) {
  return {.direction = c.direction, .accum = c.accum, .exclusive = c.exclusive, .variant = "cpu_openmp"};
}

struct RoundTrip {
  const char* name;
  SegySpec spec;
  ScanCase scan;
  std::size_t batch_traces;  // 0: default sizing
};

class TracesSegyRoundTrip : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(TracesSegyRoundTrip, HeadersKeptSamplesScanned) {
  const RoundTrip& p = GetParam();
  ScratchDir d;
  const std::string in = d.path("in.sgy"), out = d.path("out.sgy");
  const SegyFile f = write_segy(in, p.spec);
  const auto in_bytes = read_bytes(in);

  const tr::Report r = tr::scan_file(in, out, host_scan(p.scan), {.batch_traces = p.batch_traces});
  expect_scanned_copy(f, in, in_bytes, out, p.scan);
  EXPECT_EQ(read_bytes(in), in_bytes) << "the input changed";
  EXPECT_EQ(d.files(), (std::vector<std::string>{"in.sgy", "out.sgy"}));

  EXPECT_TRUE(r.input.segy);
  EXPECT_EQ(r.input.traces, p.spec.traces);
  EXPECT_EQ(r.input.samples, p.spec.samples);
  EXPECT_EQ(r.input.format, p.spec.format);
  EXPECT_EQ(r.input.little_endian, p.spec.little_endian);
  EXPECT_EQ(r.input.revision_major, p.spec.rev_major);
  EXPECT_EQ(r.input.ext_text_headers, static_cast<std::size_t>(p.spec.ext_records));
  EXPECT_EQ(r.input.first_trace_offset, f.trace0);
  if (p.batch_traces != 0) {
    EXPECT_EQ(r.batch_traces, std::min(p.batch_traces, p.spec.traces));
  }
  EXPECT_EQ(r.batches, (p.spec.traces + r.batch_traces - 1) / r.batch_traces);
  EXPECT_EQ(r.variant, "cpu_openmp");
  EXPECT_FALSE(r.on_gpu);
  EXPECT_GT(r.wall_s, 0.0);
  EXPECT_EQ(r.nonfinite_ibm, 0u);
}

SegySpec spec(int format, bool le, int rev, std::size_t traces, std::size_t samples, std::uint64_t seed) {
  SegySpec s;
  s.format = format;
  s.little_endian = le;
  s.rev_major = rev;
  s.traces = traces;
  s.samples = samples;
  s.seed = seed;
  return s;
}

std::vector<RoundTrip> round_trips() {
  std::vector<RoundTrip> v;
  // Batch of 5 over 23 traces: the last batch is short.
  v.push_back({"rev1_ibm_be_fb_batch5", spec(1, false, 1, 23, 37, 11), {}, 5});
  {
    SegySpec s = spec(5, false, 1, 7, 64, 12);
    s.ext_headers = s.ext_records = 2;
    v.push_back({"rev1_ieee_be_2ext_forward_exclusive_batch1", s,
                 {ScanDirection::forward, Accum::f64, true}, 1});
  }
  {
    SegySpec s = spec(5, true, 2, 19, 101, 13);
    s.byte_order_constant = true;
    s.ext_samples_field = true;
    s.rev2_traces = 19;
    v.push_back({"rev2_ieee_le_backward", s, {ScanDirection::backward, Accum::f64, false}, 0});
  }
  {
    SegySpec s = spec(1, true, 2, 10, 300, 14);
    s.byte_order_constant = true;
    s.ext_headers = s.ext_records = 1;
    v.push_back({"rev2_ibm_le_fb_native_batch3", s, {ScanDirection::forward_backward, Accum::native, false}, 3});
  }
  {
    SegySpec s = spec(1, false, 2, 5, 16, 15);
    s.byte_order_constant = true;
    s.ext_headers = -1;  // variable: the third record ends them
    s.ext_records = 3;
    v.push_back({"rev2_ibm_be_variable_ext_fb_exclusive_batch2", s,
                 {ScanDirection::forward_backward, Accum::f64, true}, 2});
  }
  v.push_back({"rev0_ibm_be_one_sample", spec(1, false, 0, 4, 1, 16), {}, 0});
  // Little-endian without the rev-2 constant: found from the format code.
  v.push_back({"rev1_ieee_le_no_constant_forward_batch4", spec(5, true, 1, 9, 33, 17),
               {ScanDirection::forward, Accum::dfloat, false}, 4});
  v.push_back({"rev1_ieee_be_one_trace_kahan", spec(5, false, 1, 1, 1000, 18),
               {ScanDirection::forward_backward, Accum::kahan, false}, 0});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Files, TracesSegyRoundTrip, ::testing::ValuesIn(round_trips()),
                         [](const auto& info) { return std::string(info.param.name); });

// Decoding and re-encoding with nothing in between gives the input back byte
// for byte: headers through segyio, IBM and IEEE samples through tessera.
TEST(TracesSegy, IdentityProcessingIsByteIdentical) {
  for (const SegySpec& s : {spec(1, false, 1, 13, 200, 21), spec(1, true, 1, 6, 77, 22), spec(5, false, 1, 8, 50, 23),
                            spec(5, true, 2, 3, 9, 24)}) {
    ScratchDir d;
    write_segy(d.path("in.sgy"), s);
    tr::process_file(d.path("in.sgy"), d.path("out.sgy"), {.batch_traces = 4}, [](float*, std::size_t, std::size_t,
                                                                                   std::size_t) {});
    EXPECT_EQ(read_bytes(d.path("out.sgy")), read_bytes(d.path("in.sgy")))
        << "format " << s.format << (s.little_endian ? " LE" : " BE");
  }
}

// Every trace reaches the batch function exactly once, in order, in batches
// of the requested size (the last one short), with its own samples.
TEST(TracesSegy, BatchesCoverEveryTraceOnceInOrder) {
  ScratchDir d;
  const SegyFile f = write_segy(d.path("in.sgy"), spec(5, false, 1, 17, 21, 31));
  for (std::size_t k : {1u, 4u, 16u, 17u, 100u}) {
    std::size_t next = 0, calls = 0;
    tr::process_file(d.path("in.sgy"), d.path("out.sgy"), {.batch_traces = k},
                     [&](float* x, std::size_t rows, std::size_t len, std::size_t first) {
                       EXPECT_EQ(first, next);
                       EXPECT_EQ(len, 21u);
                       EXPECT_EQ(rows, std::min<std::size_t>(k, 17 - first));
                       for (std::size_t r = 0; r < rows; ++r)
                         for (std::size_t i = 0; i < len; ++i)
                           ASSERT_EQ(static_cast<double>(x[r * len + i]), f.input[first + r][i]);
                       next += rows;
                       ++calls;
                     });
    EXPECT_EQ(next, 17u);
    EXPECT_EQ(calls, (17 + k - 1) / k);
  }
}

TEST(TracesSegy, InPlaceWhenInIsOut) {
  ScratchDir d;
  const std::string in = d.path("data.sgy");
  const SegyFile f = write_segy(in, spec(1, false, 1, 9, 40, 41));
  const auto before = read_bytes(in);
  tr::scan_file(in, in, host_scan({}), {.batch_traces = 2});
  expect_scanned_copy(f, in, before, in, {});
  EXPECT_EQ(d.files(), std::vector<std::string>{"data.sgy"});
}

TEST(TracesSegy, FileWithoutTracesIsCopied) {
  ScratchDir d;
  SegySpec s = spec(1, false, 1, 0, 10, 51);
  s.ext_headers = s.ext_records = 1;
  write_segy(d.path("in.sgy"), s);
  const tr::Report r = tr::scan_file(d.path("in.sgy"), d.path("out.sgy"), host_scan({}));
  EXPECT_EQ(r.input.traces, 0u);
  EXPECT_EQ(r.batches, 0u);
  EXPECT_EQ(read_bytes(d.path("out.sgy")), read_bytes(d.path("in.sgy")));
}

TEST(TracesSegy, InspectDescribesTheFile) {
  ScratchDir d;
  SegySpec s = spec(1, true, 2, 3, 12, 61);
  s.byte_order_constant = true;
  s.ext_headers = s.ext_records = 2;
  write_segy(d.path("in.sgy"), s);
  const tr::FileInfo i = tr::inspect(d.path("in.sgy"));
  EXPECT_EQ(i.traces, 3u);
  EXPECT_EQ(i.samples, 12u);
  EXPECT_EQ(i.first_trace_offset, 3600u + 6400u);
  EXPECT_EQ(i.file_bytes, 3600u + 6400u + 3u * (240u + 48u));
  EXPECT_EQ(i.describe(),
            "SEG-Y rev 2.0, format 1 (4-byte IBM float), little-endian, 2 extended textual headers, 3 traces x 12 "
            "samples");
}

// IBM has no infinity: an IBM sample beyond float's range decodes to +inf,
// the scan carries it, and it is written back as the largest IBM magnitude
// and counted.
TEST(TracesSegy, NonFiniteIbmOutputIsCounted) {
  ScratchDir d;
  const SegyFile f = write_segy(d.path("in.sgy"), spec(1, false, 1, 2, 8, 71));
  auto bytes = read_bytes(d.path("in.sgy"));
  const std::size_t sample5 = f.trace0 + 240 + 4 * 5;  // trace 0, sample 5
  bytes[sample5] = 0x7F;
  bytes[sample5 + 1] = bytes[sample5 + 2] = bytes[sample5 + 3] = 0xFF;
  write_bytes(d.path("in.sgy"), bytes);
  const tr::Report r = tr::scan_file(d.path("in.sgy"), d.path("out.sgy"),
                                     host_scan({ScanDirection::forward, Accum::f64, false}));
  EXPECT_EQ(r.nonfinite_ibm, 3u);  // samples 5, 6, 7 of trace 0
  const auto out = read_bytes(d.path("out.sgy"));
  for (std::size_t i = 5; i < 8; ++i) EXPECT_EQ(load_u32(&out[f.trace0 + 240 + 4 * i], false), 0x7FFFFFFFu) << i;
}

// ---- errors: a clear message, and nothing left behind -----------------------

class TracesSegyErrors : public ::testing::Test {
 protected:
  ScratchDir d;
  std::string in = d.path("in.sgy"), out = d.path("out.sgy");

  SegyFile make(SegySpec s = spec(1, false, 1, 6, 20, 81)) { return write_segy(in, s); }
  void patch(std::size_t file_byte, std::vector<unsigned char> v) {  // 1-based SEG-Y byte numbers
    auto b = read_bytes(in);
    std::copy(v.begin(), v.end(), b.begin() + static_cast<std::ptrdiff_t>(file_byte - 1));
    write_bytes(in, b);
  }
  // Runs the tool, expects an Error mentioning `needles`, and no output.
  void expect_error(std::initializer_list<std::string_view> needles, const tr::TraceScanOptions& scan = host_scan({})) {
    const auto before = d.files();
    const std::string msg = error_message([&] { tr::scan_file(in, out, scan, {.batch_traces = 2}); });
    for (auto n : needles) EXPECT_TRUE(has_substr(msg, n));
    EXPECT_EQ(d.files(), before) << "the failed run left files behind";
  }
};

TEST_F(TracesSegyErrors, MissingInput) {
  in = d.path("nope.sgy");
  expect_error({"nope.sgy", "No such file"});
}

TEST_F(TracesSegyErrors, InputIsADirectory) {
  in = d.dir().string();
  expect_error({"not a regular file"});
}

TEST_F(TracesSegyErrors, TooShortForHeaders) {
  write_bytes(in, std::vector<unsigned char>(1000, 0x40));
  expect_error({"in.sgy", "1000 bytes", "too short"});
}

TEST_F(TracesSegyErrors, GarbageFormatCode) {
  make();
  patch(3225, {0x77, 0x77});
  expect_error({"in.sgy", "not a SEG-Y format", "3225-3226"});
}

TEST_F(TracesSegyErrors, UnsupportedSampleFormatsAreNamed) {
  const std::pair<int, const char*> formats[] = {{4, "4-byte fixed point with gain"}};
  for (const auto& [code, name] : formats) {
    SegySpec s = spec(code, false, 1, 3, 10, 82);
    make(s);
    expect_error({"in.sgy", "sample format " + std::to_string(code), name, "not supported"});
  }
}

TEST_F(TracesSegyErrors, ZeroSamples) {
  make();
  patch(3221, {0, 0});
  expect_error({"in.sgy", "0 samples per trace"});
}

TEST_F(TracesSegyErrors, TruncatedLastTrace) {
  make();
  auto b = read_bytes(in);
  b.resize(b.size() - 10);
  write_bytes(in, b);
  expect_error({"in.sgy", "truncated", "5 whole traces", "320 bytes", "the last trace is short"});
}

TEST_F(TracesSegyErrors, TraceHeaderWithAnotherSampleCount) {
  const SegyFile f = make();
  const std::size_t at = f.trace0 + 3 * (240 + 80) + 115;  // trace 3, bytes 115-116 (1-based)
  patch(at, {0x00, 21});
  expect_error({"in.sgy", "trace 3 has 21 samples", "says 20", "variable-length"});
}

TEST_F(TracesSegyErrors, ExtendedHeadersPastTheEnd) {
  make();
  patch(3505, {0x03, 0xE8});  // 1000 extended textual headers
  expect_error({"in.sgy", "1000 extended textual headers", "past the end"});
}

TEST_F(TracesSegyErrors, VariableExtendedHeadersWithoutEndText) {
  SegySpec s = spec(1, false, 2, 2, 8, 83);
  s.ext_headers = -1;
  s.ext_records = 0;  // no stanza at all
  make(s);
  expect_error({"in.sgy", "EndText"});
}

TEST_F(TracesSegyErrors, Rev2TraceCountDisagrees) {
  SegySpec s = spec(5, false, 2, 6, 20, 84);
  s.byte_order_constant = true;
  s.rev2_traces = 7;
  make(s);
  expect_error({"in.sgy", "says 7 traces", "holds 6"});
}

TEST_F(TracesSegyErrors, Rev2AdditionalTraceHeaders) {
  SegySpec s = spec(5, false, 2, 6, 20, 85);
  make(s);
  patch(3507, {0, 0, 0, 2});
  expect_error({"in.sgy", "2 additional 240-byte trace headers"});
}

TEST_F(TracesSegyErrors, Rev2TrailerStanzas) {
  SegySpec s = spec(5, false, 2, 6, 20, 86);
  make(s);
  patch(3529, {0, 0, 0, 1});
  expect_error({"in.sgy", "1 data trailer stanzas"});
}

TEST_F(TracesSegyErrors, PairwiseSwappedByteOrder) {
  make();
  patch(3297, {0x02, 0x01, 0x04, 0x03});
  expect_error({"in.sgy", "pairwise"});
}

TEST_F(TracesSegyErrors, OutputDirectoryMissing) {
  make();
  out = d.path("missing/out.sgy");
  expect_error({"missing/out.sgy", "cannot create a temporary file", "No such file"});
}

TEST_F(TracesSegyErrors, OutputParentIsAFile) {
  make();
  out = in + "/out.sgy";
  expect_error({"cannot create a temporary file", "Not a directory"});
}

TEST_F(TracesSegyErrors, OutputIsADirectory) {
  make();
  std::filesystem::create_directory(d.path("outdir"));
  out = d.path("outdir");
  expect_error({"outdir", "not a regular file"});
}

TEST_F(TracesSegyErrors, UnknownVariant) {
  make();
  tr::TraceScanOptions scan = host_scan({});
  scan.variant = "cpu_no_such_variant";
  expect_error({"cpu_no_such_variant"}, scan);
}

// An exception from the batch function in the middle of the file: it
// propagates, the temporary is gone, an existing OUT is untouched.
TEST_F(TracesSegyErrors, ExceptionMidBatchKeepsOldOutput) {
  make(spec(1, false, 1, 12, 30, 87));
  write_bytes(out, {'o', 'l', 'd'});
  const auto before = d.files();
  std::size_t batches = 0;
  EXPECT_THROW(tr::process_file(in, out, {.batch_traces = 2},
                                [&](float*, std::size_t, std::size_t, std::size_t first) {
                                  ++batches;
                                  if (first >= 6) throw std::runtime_error("boom");
                                }),
               std::runtime_error);
  EXPECT_EQ(batches, 4u);
  EXPECT_EQ(read_bytes(out), (std::vector<unsigned char>{'o', 'l', 'd'}));
  EXPECT_EQ(d.files(), before);
}

}  // namespace

#else

TEST(TracesSegy, SegyNeedsSegyio) {
  EXPECT_FALSE(tessera::traces::segy_supported());
  const std::string msg =
      tessera_test::error_message([] { tessera::traces::scan_file("/nonexistent/in.sgy", "/nonexistent/out.sgy"); });
  EXPECT_TRUE(tessera_test::has_substr(msg, "segyio"));
}

#endif
