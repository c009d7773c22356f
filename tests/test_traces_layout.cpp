// SEG-Y binary-header decoding and trace layout (apps/traces/segy_layout.cpp)
// on crafted headers: byte order from the rev-2 constant or the format code,
// rev-2 fields, and each malformed or unsupported header named in the error.
// Needs no segyio: these run in every build.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "tessera/core/error.hpp"
#include "segy_bytes_support.hpp"
#include "test_support.hpp"
#include "traces/trace_io.hpp"

namespace {

using tessera::traces::BinaryHeader;
using tessera::traces::FileInfo;
using tessera::traces::is_end_text_stanza;
using tessera::traces::layout_traces;
using tessera::traces::parse_binary_header;
using tessera::traces::segy_evidence;
using tessera_test::error_message;
using tessera_test::has_substr;

struct Header {
  std::array<unsigned char, 400> raw{};
  bool le = false;
  // Writes `v` in `n` bytes at SEG-Y file byte `at` (1-based, 3201..3600).
  Header& put(std::size_t at, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) {
      const auto b = static_cast<unsigned char>(v >> (8 * (le ? i : n - 1 - i)));
      raw[at - 3201 + static_cast<std::size_t>(i)] = b;
    }
    return *this;
  }
  Header& rev(int major, int minor) {
    raw[3501 - 3201] = static_cast<unsigned char>(major);
    raw[3502 - 3201] = static_cast<unsigned char>(minor);
    return *this;
  }
  BinaryHeader parse() const { return parse_binary_header(raw.data(), "f.sgy"); }
  std::string error() const {
    return error_message([&] { (void)parse(); });
  }
};

Header basic(int format, std::size_t samples, bool le = false) {
  Header h;
  h.le = le;
  h.put(3221, samples, 2).put(3225, static_cast<std::uint64_t>(format), 2).rev(1, 0);
  return h;
}

TEST(TracesLayout, BigEndianRev1) {
  const BinaryHeader b = basic(1, 1500).put(3505, 2, 2).parse();
  EXPECT_FALSE(b.little_endian);
  EXPECT_FALSE(b.byte_order_from_constant);
  EXPECT_EQ(b.format, 1);
  EXPECT_EQ(b.samples, 1500u);
  EXPECT_EQ(b.ext_text_headers, 2);
  EXPECT_EQ(b.revision_major, 1);
}

TEST(TracesLayout, LittleEndianFromFormatCode) {
  const BinaryHeader b = basic(5, 40000, true).parse();
  EXPECT_TRUE(b.little_endian);
  EXPECT_EQ(b.format, 5);
  EXPECT_EQ(b.samples, 40000u);  // unsigned 16-bit
}

TEST(TracesLayout, Rev2ConstantAndExtendedFields) {
  for (bool le : {false, true}) {
    Header h = basic(5, 0, le);
    h.rev(2, 1).put(3297, 0x01020304u, 4).put(3269, 100000, 4).put(3513, 7, 8).put(3505, 0xFFFF, 2);
    const BinaryHeader b = h.parse();
    EXPECT_EQ(b.little_endian, le);
    EXPECT_TRUE(b.byte_order_from_constant);
    EXPECT_EQ(b.samples, 100000u) << "rev 2's extended sample count";
    EXPECT_EQ(b.rev2_traces, 7u);
    EXPECT_EQ(b.ext_text_headers, -1);
    EXPECT_EQ(b.revision_minor, 1);
  }
  // The extended fields mean nothing before rev 2.
  Header h = basic(5, 12);
  h.put(3269, 100000, 4);
  EXPECT_EQ(h.parse().samples, 12u);
}

TEST(TracesLayout, MalformedHeadersAreNamed) {
  EXPECT_TRUE(has_substr(basic(0, 10).error(), "not a SEG-Y format in either byte order"));
  EXPECT_TRUE(has_substr(basic(14, 10).error(), "not a SEG-Y format"));
  EXPECT_TRUE(has_substr(basic(1, 0).error(), "0 samples per trace (bytes 3221-3222)"));
  EXPECT_TRUE(has_substr(basic(1, 10).put(3505, 0xFFFE, 2).error(), "-2 extended textual headers"));
  Header pairwise = basic(1, 10);
  pairwise.put(3297, 0x02010403u, 4);
  EXPECT_TRUE(has_substr(pairwise.error(), "pairwise"));
  Header neg = basic(1, 0).rev(2, 0);
  neg.put(3269, 0xFFFFFFF0u, 4);
  EXPECT_TRUE(has_substr(neg.error(), "extended samples per trace -16"));
  Header huge = basic(1, 0).rev(2, 0);
  huge.put(3269, 0x7FFFFFFFu, 4);
  EXPECT_TRUE(has_substr(huge.error(), "traces over 2 GiB"));
}

TEST(TracesLayout, UnsupportedFormatsAreNamed) {
  const std::pair<int, const char*> cases[] = {{4, "4-byte fixed point with gain"},
                                               {7, "3-byte two's complement integer"},
                                               {15, "3-byte unsigned integer"}};
  for (const auto& [code, name] : cases) {
    const std::string msg = basic(code, 10).error();
    EXPECT_TRUE(has_substr(msg, "f.sgy: sample format " + std::to_string(code) + " (" + name + ") is not supported"));
  }
}

TEST(TracesLayout, Rev2FeaturesOutsideTheToolAreRefused) {
  Header extra = basic(1, 10).rev(2, 0);
  extra.put(3507, 1, 4);
  EXPECT_TRUE(has_substr(extra.error(), "1 additional 240-byte trace headers"));
  Header trailers = basic(1, 10).rev(2, 0);
  trailers.put(3529, 3, 4);
  EXPECT_TRUE(has_substr(trailers.error(), "3 data trailer stanzas"));
  Header offset = basic(1, 10).rev(2, 0);
  offset.put(3521, 9999, 8);
  const BinaryHeader b = offset.parse();
  EXPECT_TRUE(has_substr(error_message([&] { (void)layout_traces(b, 0, 3600 + 280, "f.sgy"); }),
                         "first trace is at byte 9999"));
  Header agrees = basic(1, 10).rev(2, 0);
  agrees.put(3521, 3600 + 3200, 8);
  EXPECT_EQ(layout_traces(agrees.parse(), 1, 3600 + 3200 + 280, "f.sgy").traces, 1u);
}

TEST(TracesLayout, TracesFromTheFileSize) {
  const BinaryHeader b = basic(1, 10).parse();  // 280-byte traces
  const FileInfo i = layout_traces(b, 1, 3600 + 3200 + 5 * 280, "f.sgy");
  EXPECT_EQ(i.traces, 5u);
  EXPECT_EQ(i.first_trace_offset, 6800u);
  EXPECT_EQ(layout_traces(b, 0, 3600, "f.sgy").traces, 0u);
  EXPECT_TRUE(has_substr(error_message([&] { (void)layout_traces(b, 0, 3600 + 2 * 280 + 100, "f.sgy"); }),
                         "after 2 whole traces of 280 bytes (240-byte header + 10 samples x 4 bytes) from byte 3600, "
                         "100 bytes are left"));
  EXPECT_TRUE(has_substr(error_message([&] { (void)layout_traces(b, 3, 3600 + 3200, "f.sgy"); }), "past the end"));
  // Past 2^32 bytes: 64-bit offsets throughout.
  const std::uint64_t big = 3600 + std::uint64_t{20000000} * 280;
  EXPECT_EQ(layout_traces(b, 0, big, "f.sgy").traces, 20000000u);
}

TEST(TracesLayout, EndTextStanzaInAsciiOrEbcdic) {
  std::array<unsigned char, 3200> rec{};
  rec.fill(0x40);
  EXPECT_FALSE(is_end_text_stanza(rec.data()));
  const char* ascii = "((SEG: EndText))";
  std::memcpy(rec.data() + 3200 - 16, ascii, 16);  // at the very end
  EXPECT_TRUE(is_end_text_stanza(rec.data()));
  rec.fill(0x40);
  const unsigned char ebcdic[] = {0x4D, 0x4D, 0xE2, 0xC5, 0xC7, 0x7A, 0x40, 0xC5,
                                  0x95, 0x84, 0xE3, 0x85, 0xA7, 0xA3, 0x5D, 0x5D};
  std::memcpy(rec.data(), ebcdic, 16);
  EXPECT_TRUE(is_end_text_stanza(rec.data()));
  rec[15] = 0x40;
  EXPECT_FALSE(is_end_text_stanza(rec.data()));
}

}  // namespace

namespace {

// ---- SEG-Y given as raw float32 (segy_detect.cpp) ----------------------------

std::string evidence(const std::vector<unsigned char>& b) {
  return segy_evidence(b.data(), std::min(b.size(), tessera::traces::SEGY_DETECT_BYTES), b.size());
}

traces_test::SegyBytesSpec small_segy(int format, bool le, bool ascii) {
  traces_test::SegyBytesSpec s;
  s.format = format;
  s.little_endian = le;
  s.ascii_text = ascii;
  s.samples = 10;
  s.traces.assign(3, std::vector<double>(10, 2.0));
  return s;
}

TEST(TracesDetect, SegyIsRecognisedInEitherTextCodeAndByteOrder) {
  EXPECT_TRUE(has_substr(evidence(traces_test::segy_bytes(small_segy(5, false, false))),
                         "a textual header in EBCDIC, a binary header saying format 5"));
  EXPECT_TRUE(has_substr(evidence(traces_test::segy_bytes(small_segy(3, true, true))),
                         "a textual header in ASCII, a binary header saying format 3 (2-byte two's complement "
                         "integer), little-endian, 10 samples per trace, and 3 traces"));
}

TEST(TracesDetect, AnyMissingSignMeansRaw) {
  auto random_text = traces_test::segy_bytes(small_segy(5, false, false));
  for (std::size_t i = 0; i < 3200; ++i) random_text[i] = static_cast<unsigned char>(i * 2654435761u >> 13);
  EXPECT_EQ(evidence(random_text), "");
  auto extra_byte = traces_test::segy_bytes(small_segy(5, false, false));
  extra_byte.push_back(0);
  EXPECT_EQ(evidence(extra_byte), "");  // traces do not fill the file
  auto bad_count = traces_test::segy_bytes(small_segy(5, false, false));
  bad_count[3600 + 115] = 11;  // the first trace header says 11 samples, the binary header 10
  EXPECT_EQ(evidence(bad_count), "");
  auto bad_format = traces_test::segy_bytes(small_segy(5, false, false));
  bad_format[3225] = 0x77;
  EXPECT_EQ(evidence(bad_format), "");
  EXPECT_EQ(evidence(std::vector<unsigned char>(3000, 0x40)), "");  // too short
}

}  // namespace
