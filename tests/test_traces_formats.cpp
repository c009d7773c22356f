// SEG-Y sample formats 1, 2, 3, 5, 6, 8, 9, 10, 11, 12 and 16 in both byte
// orders, files written byte by byte by the tests (segy_bytes_support.hpp):
// the samples decoded and scanned against a double reference, the output in
// the format --out-format names (header bytes kept but the format code,
// traces re-laid-out for the new sample size), and `same` refused for
// integer results that do not fit, naming the first trace and sample.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "segy_bytes_support.hpp"
#include "tessera/apps/traces.hpp"
#include "test_support.hpp"
#include "traces/sample_codec.hpp"
#include "traces_test_support.hpp"

namespace {

using namespace traces_test;
using tessera_test::error_message;
using tessera_test::has_substr;
namespace tr = tessera::traces;

// ---- the codec alone (every build) --------------------------------------------

TEST(TracesCodec, IntegersRoundToNearestAndRefuseWhatDoesNotFit) {
  const float in[] = {32767.4f, -32768.5f, 2.5f, -0.4f};
  unsigned char out[8];
  EXPECT_EQ(tr::encode_samples(3, false, in, 4, out).first_unfit, tr::EncodeResult::NONE);
  EXPECT_EQ(out[0] << 8 | out[1], 32767);
  EXPECT_EQ(out[2] << 8 | out[3], 0x8000);  // -32768 (ties to even)
  EXPECT_EQ(out[4] << 8 | out[5], 2);       // 2.5 -> 2
  const float over[] = {1, 2, 32767.6f, 4};
  EXPECT_EQ(tr::encode_samples(3, false, over, 4, out).first_unfit, 2u);
  const float neg[] = {0, -0.6f};
  EXPECT_EQ(tr::encode_samples(16, false, neg, 2, out).first_unfit, 1u);  // uint8: -1
  const float nan[] = {NAN};
  EXPECT_EQ(tr::encode_samples(2, true, nan, 1, out).first_unfit, 0u);
  const float big[] = {0x1p63f};
  EXPECT_EQ(tr::encode_samples(9, false, big, 1, out).first_unfit, 0u);   // int64: max + 1
  EXPECT_EQ(tr::encode_samples(12, false, big, 1, out).first_unfit, tr::EncodeResult::NONE);  // uint64 holds it
}

TEST(TracesCodec, EveryFormatDecodesInBothByteOrders) {
  for (int format : {1, 2, 3, 5, 6, 8, 9, 10, 11, 12, 16}) {
    for (bool le : {false, true}) {
      const double v = format == 8 ? 100 : format == 16 ? 200 : 1234;
      std::vector<unsigned char> b(8);
      put_be_or_le(b, 0, encode_value(v, format), bytes_of_format(format), le);
      float got = 0;
      tr::decode_samples(format, le, b.data(), 1, &got);
      EXPECT_EQ(got, v) << "format " << format << (le ? " LE" : " BE");
    }
  }
}

#if TESSERA_HAVE_SEGYIO

bool is_integer_format(int f) { return f != 1 && f != 5 && f != 6; }

// Values exactly representable in `format`, with a DC offset so that sums
// grow; integers of 4 and 8 bytes reach beyond float's 24 bits.
std::vector<std::vector<double>> values_for(int format, std::size_t traces, std::size_t samples, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<double>> v(traces, std::vector<double>(samples));
  for (auto& trace : v)
    for (double& x : trace) {
      const double u = static_cast<double>(rng() % 2001) - 1000;  // -1000 .. 1000
      switch (format) {
        case 1: case 5: x = u / 8; break;
        case 6: x = u / 3; break;  // not a float: rounded on the way in
        case 2: x = u * 1000003; break;
        case 3: x = u * 30; break;
        case 8: x = std::round(u / 8); break;
        case 9: x = u * 1099511627791.0; break;  // ~2^40
        case 10: x = (u + 1000) * 2000003; break;
        case 11: x = (u + 1000) * 30; break;
        case 12: x = (u + 1000) * 1099511627791.0; break;
        case 16: x = std::floor((u + 1000) / 8); break;
      }
    }
  return v;
}

double decode_value(const unsigned char* p, int format, bool le) {
  const int n = bytes_of_format(format);
  std::uint64_t w = 0;
  for (int i = 0; i < n; ++i) w = w << 8 | p[le ? n - 1 - i : i];
  const int bits = 8 * n;
  const auto sign_extend = [&](std::uint64_t x) {
    return bits == 64 ? static_cast<double>(static_cast<std::int64_t>(x))
                      : static_cast<double>(static_cast<std::int64_t>(x << (64 - bits)) >> (64 - bits));
  };
  switch (format) {
    case 1: return ibm_exact(static_cast<std::uint32_t>(w));
    case 5: return std::bit_cast<float>(static_cast<std::uint32_t>(w));
    case 6: return std::bit_cast<double>(w);
    case 2: case 3: case 8: case 9: return sign_extend(w);
    default: return static_cast<double>(w);
  }
}

struct FormatCase {
  int format;
  bool little_endian;
  tr::OutFormat out;
  int expected_out_format;
};

std::string case_name(const FormatCase& c) {
  static const char* outs[] = {"auto", "same", "ieee", "ibm", "double"};
  return "format" + std::to_string(c.format) + (c.little_endian ? "_le_" : "_be_") + outs[static_cast<int>(c.out)];
}

class TracesFormats : public ::testing::TestWithParam<FormatCase> {};

TEST_P(TracesFormats, ScannedAgainstADoubleReference) {
  const FormatCase& c = GetParam();
  const std::size_t traces = 5, samples = 37;
  SegyBytesSpec s;
  s.format = c.format;
  s.little_endian = c.little_endian;
  s.samples = samples;
  s.traces = values_for(c.format, traces, samples, 100 + static_cast<std::uint64_t>(c.format));
  ScratchDir d;
  const auto in = segy_bytes(s);
  write_bytes(d.path("in.sgy"), in);
  const tr::Report r = tr::scan_file(d.path("in.sgy"), d.path("out.sgy"),
                                     {.direction = ScanDirection::forward_backward, .accum = Accum::f64,
                                      .variant = "cpu_openmp"},
                                     {.batch_traces = 2, .out_format = c.out});
  EXPECT_EQ(r.input.format, c.format);
  ASSERT_EQ(r.out_format, c.expected_out_format);

  const auto out = read_bytes(d.path("out.sgy"));
  const std::size_t in_tb = 240 + samples * static_cast<std::size_t>(bytes_of_format(c.format));
  const auto out_sb = static_cast<std::size_t>(bytes_of_format(c.expected_out_format));
  const std::size_t out_tb = 240 + samples * out_sb;
  ASSERT_EQ(out.size(), 3600 + traces * out_tb);
  for (std::size_t i = 0; i < 3600; ++i)
    if (i != 3224 && i != 3225) {
      ASSERT_EQ(out[i], in[i]) << "file header byte " << i + 1;
    }
  EXPECT_EQ(decode_value(&out[3224], 3, c.little_endian), c.expected_out_format) << "format code";
  for (std::size_t t = 0; t < traces; ++t) {
    ASSERT_TRUE(std::equal(&in[3600 + t * in_tb], &in[3600 + t * in_tb + 240], &out[3600 + t * out_tb]))
        << "trace header " << t;
    // The reference: the exact values, scanned forward then backward in
    // double; `scale` is the same over |x|, what the rounding errors scale with.
    const std::vector<double>& x = s.traces[t];
    std::vector<double> ref(samples), scale(samples);
    double sum = 0, abs_sum = 0;
    for (std::size_t i = 0; i < samples; ++i) {
      ref[i] = sum += x[i];
      scale[i] = abs_sum += std::fabs(x[i]);
    }
    sum = abs_sum = 0;
    for (std::size_t i = samples; i-- > 0;) {
      ref[i] = sum += ref[i];
      scale[i] = abs_sum += scale[i];
    }
    for (std::size_t i = 0; i < samples; ++i) {
      const unsigned char* p = &out[3600 + t * out_tb + 240 + i * out_sb];
      const double got = decode_value(p, c.expected_out_format, c.little_endian);
      // Input, scan and output each round to float (IBM: 21 bits) at worst.
      const double tol = 0x1p-19 * scale[i] + (is_integer_format(c.expected_out_format) ? 0.5 : 0.0);
      ASSERT_LE(std::fabs(got - ref[i]), tol) << "trace " << t << " sample " << i << ": got " << got << ", expected "
                                              << ref[i];
    }
  }
}

std::vector<FormatCase> format_cases() {
  std::vector<FormatCase> v;
  for (int f : {1, 2, 3, 5, 6, 8, 9, 10, 11, 12, 16})
    for (bool le : {false, true}) v.push_back({f, le, tr::OutFormat::automatic, is_integer_format(f) ? 5 : f});
  v.push_back({3, false, tr::OutFormat::ibm, 1});
  v.push_back({2, true, tr::OutFormat::ieee_double, 6});
  v.push_back({1, false, tr::OutFormat::ieee, 5});
  v.push_back({5, true, tr::OutFormat::ibm, 1});
  v.push_back({6, false, tr::OutFormat::ieee, 5});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Files, TracesFormats, ::testing::ValuesIn(format_cases()),
                         [](const auto& info) { return case_name(info.param); });

// `same` for integers: results that fit are written exactly in the input's
// type; the first that does not is named and nothing is written.
class TracesSameIntegers : public ::testing::Test {
 protected:
  ScratchDir d;
  std::string in = d.path("in.sgy"), out = d.path("out.sgy");
  void write(int format, bool le, std::vector<std::vector<double>> traces) {
    SegyBytesSpec s;
    s.format = format;
    s.little_endian = le;
    s.samples = traces[0].size();
    s.traces = std::move(traces);
    write_bytes(in, segy_bytes(s));
  }
  tr::Report run() {
    return tr::scan_file(in, out, {.direction = ScanDirection::forward, .accum = Accum::f64, .variant = "cpu_openmp"},
                         {.batch_traces = 1, .out_format = tr::OutFormat::same});
  }
};

TEST_F(TracesSameIntegers, ResultsThatFitAreExact) {
  write(3, true, {{1, -2, 300, -7}, {32000, 767, -1, -32767}});
  EXPECT_EQ(run().out_format, 3);
  const auto b = read_bytes(out);
  ASSERT_EQ(b.size(), 3600u + 2 * (240 + 8));
  const double want[2][4] = {{1, -1, 299, 292}, {32000, 32767, 32766, -1}};
  for (std::size_t t = 0; t < 2; ++t)
    for (std::size_t i = 0; i < 4; ++i)
      EXPECT_EQ(decode_value(&b[3600 + t * 248 + 240 + 2 * i], 3, true), want[t][i]) << t << " " << i;
}

TEST_F(TracesSameIntegers, FirstOverflowIsNamedAndNothingIsWritten) {
  write(8, false, {{1, 1, 1, 1}, {1, 1, 1, 1}, {100, 20, 7, 1}, {127, 127, 127, 127}});
  write_bytes(out, {'o', 'l', 'd'});
  const std::string msg = error_message([&] { run(); });
  EXPECT_TRUE(has_substr(msg, "out.sgy: trace 2 sample 3: the result 128 does not fit the output's sample format 8 "
                              "(1-byte two's complement integer)"))
      << msg;
  EXPECT_TRUE(has_substr(msg, "--out-format ieee")) << msg;
  EXPECT_EQ(read_bytes(out), (std::vector<unsigned char>{'o', 'l', 'd'}));
  EXPECT_EQ(d.files(), (std::vector<std::string>{"in.sgy", "out.sgy"}));
}

TEST_F(TracesSameIntegers, UnsignedResultsBeyondTheirRangeDoNotFit) {
  write(16, false, {{5, 251, 0}});
  const std::string msg = error_message([&] {
    tr::scan_file(in, out, {.direction = ScanDirection::forward, .variant = "cpu_openmp"},
                  {.out_format = tr::OutFormat::same});
  });
  EXPECT_TRUE(has_substr(msg, "trace 0 sample 1: the result 256 does not fit")) << msg;
}

TEST(TracesOutFormat, RawInputIsWrittenAsRawFloat32Only) {
  ScratchDir d;
  write_bytes(d.path("in.f32"), std::vector<unsigned char>(80, 0));
  const std::string msg = error_message([&] {
    tr::scan_file(d.path("in.f32"), d.path("out.f32"), {.variant = "cpu_openmp"},
                  {.raw_traces = 4, .raw_samples = 5, .out_format = tr::OutFormat::ibm});
  });
  EXPECT_TRUE(has_substr(msg, "in.f32: raw float32 input is written as raw float32")) << msg;
  EXPECT_EQ(d.files(), std::vector<std::string>{"in.f32"});
}

#endif  // TESSERA_HAVE_SEGYIO

}  // namespace
