// SEG-Y binary header decoding and trace layout. Pure functions on bytes, so
// every malformed-header path is testable without writing a file; the field
// offsets are the SEG-Y rev 2.0 standard's (byte 3201 = offset 0 here).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <string_view>

#include "tessera/core/error.hpp"
#include "trace_io.hpp"

namespace tessera::traces {
namespace {

// Offsets inside the 400-byte binary header (file byte - 3201).
constexpr std::size_t SAMPLES_AT = 3221 - 3201;          // uint16
constexpr std::size_t FORMAT_AT = 3225 - 3201;           // int16
constexpr std::size_t EXT_SAMPLES_AT = 3269 - 3201;      // int32, rev 2
constexpr std::size_t BYTE_ORDER_AT = 3297 - 3201;       // uint32 0x01020304, rev 2
constexpr std::size_t REVISION_AT = 3501 - 3201;         // major byte, minor byte
constexpr std::size_t EXT_TEXT_AT = 3505 - 3201;         // int16
constexpr std::size_t EXTRA_TRACE_HDRS_AT = 3507 - 3201; // int32, rev 2
constexpr std::size_t REV2_TRACES_AT = 3513 - 3201;      // uint64, rev 2
constexpr std::size_t REV2_FIRST_TRACE_AT = 3521 - 3201; // uint64, rev 2
constexpr std::size_t TRAILERS_AT = 3529 - 3201;         // int32, rev 2

constexpr std::uint32_t BYTE_ORDER_CONSTANT = 0x01020304u;
constexpr std::uint32_t BYTE_ORDER_PAIRWISE = 0x02010403u;  // rev 2's pairwise-swapped order

// Reads an unsigned field of `n` bytes in the given byte order.
std::uint64_t field(const unsigned char* raw, std::size_t at, int n, bool little_endian) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned char b = raw[at + (little_endian ? n - 1 - i : i)];
    v = (v << 8) | b;
  }
  return v;
}
std::int64_t signed_field(const unsigned char* raw, std::size_t at, int n, bool little_endian) {
  const std::uint64_t v = field(raw, at, n, little_endian);
  const std::uint64_t sign = std::uint64_t{1} << (8 * n - 1);
  return (v & sign) ? static_cast<std::int64_t>(v) - static_cast<std::int64_t>(sign << 1) : static_cast<std::int64_t>(v);
}

bool known_format(std::int64_t code) { return format_bytes(static_cast<int>(code)) != 0; }

}  // namespace

int format_bytes(int code) {
  switch (code) {
    case 8: case 16: return 1;
    case 3: case 11: return 2;
    case 7: case 15: return 3;
    case 1: case 2: case 4: case 5: case 10: return 4;
    case 6: case 9: case 12: return 8;
    default: return 0;
  }
}

bool format_supported(int code) { return format_bytes(code) != 0 && code != 4 && code != 7 && code != 15; }

bool format_is_integer(int code) { return format_supported(code) && code != 1 && code != 5 && code != 6; }

std::string format_name(int code) {
  switch (code) {
    case 1: return "4-byte IBM float";
    case 2: return "4-byte two's complement integer";
    case 3: return "2-byte two's complement integer";
    case 4: return "4-byte fixed point with gain";
    case 5: return "4-byte IEEE float";
    case 6: return "8-byte IEEE float";
    case 7: return "3-byte two's complement integer";
    case 8: return "1-byte two's complement integer";
    case 9: return "8-byte two's complement integer";
    case 10: return "4-byte unsigned integer";
    case 11: return "2-byte unsigned integer";
    case 12: return "8-byte unsigned integer";
    case 15: return "3-byte unsigned integer";
    case 16: return "1-byte unsigned integer";
    default: return "unassigned";
  }
}

BinaryHeader parse_binary_header(const unsigned char* raw, const std::string& path, bool supported_only) {
  BinaryHeader h;
  // Byte order: the rev-2 constant when present, else the order in which the
  // format code is one SEG-Y defines (codes < 256 cannot be valid both ways).
  const std::uint32_t constant = static_cast<std::uint32_t>(field(raw, BYTE_ORDER_AT, 4, false));
  if (constant == BYTE_ORDER_PAIRWISE)
    throw Error(fmt::format("{}: pairwise byte-swapped SEG-Y (bytes 3297-3300 = 0x02010403) is not supported", path));
  if (constant == BYTE_ORDER_CONSTANT || constant == __builtin_bswap32(BYTE_ORDER_CONSTANT)) {
    h.little_endian = constant != BYTE_ORDER_CONSTANT;
    h.byte_order_from_constant = true;
  } else {
    const std::int64_t be = signed_field(raw, FORMAT_AT, 2, false), le = signed_field(raw, FORMAT_AT, 2, true);
    if (!known_format(be) && !known_format(le))
      throw Error(fmt::format(
          "{}: not a SEG-Y file, or a garbage binary header: the sample format code (bytes 3225-3226, "
          "0x{:02X}{:02X}) is not a SEG-Y format in either byte order",
          path, raw[FORMAT_AT], raw[FORMAT_AT + 1]));
    h.little_endian = !known_format(be);
  }
  const bool le = h.little_endian;
  const std::int64_t format = signed_field(raw, FORMAT_AT, 2, le);
  if (!known_format(format))
    throw Error(fmt::format("{}: garbage binary header: sample format code {} (bytes 3225-3226) is not a SEG-Y format",
                            path, format));
  h.format = static_cast<int>(format);
  if (supported_only && !format_supported(h.format))
    throw Error(fmt::format(
        "{}: sample format {} ({}) is not supported: tessera traces reads formats 1, 2, 3, 5, 6, 8, 9, 10, 11, 12 "
        "and 16 (IBM and IEEE floats, integers of 1, 2, 4 and 8 bytes); convert the file to one of them first",
        path, h.format, format_name(h.format)));

  h.revision_major = raw[REVISION_AT];
  h.revision_minor = raw[REVISION_AT + 1];
  const bool rev2 = h.revision_major == 2;

  std::int64_t samples = static_cast<std::int64_t>(field(raw, SAMPLES_AT, 2, le));
  if (rev2) {
    const std::int64_t ext = signed_field(raw, EXT_SAMPLES_AT, 4, le);
    if (ext < 0)
      throw Error(fmt::format("{}: garbage binary header: extended samples per trace {} (bytes 3269-3272)", path, ext));
    if (ext != 0) samples = ext;  // rev 2: a nonzero extended count overrides bytes 3221-3222
  }
  if (samples == 0)
    throw Error(fmt::format("{}: the binary header says 0 samples per trace (bytes 3221-3222{})", path,
                            rev2 ? " and 3269-3272" : ""));
  // Trace sizes are ints in segyio's API and in the output's layout (8-byte
  // samples at most).
  if (samples > (INT_MAX - static_cast<std::int64_t>(TRACE_HEADER_BYTES)) / 8)
    throw Error(fmt::format("{}: {} samples per trace: traces over 2 GiB (in 8-byte samples) are not supported", path,
                            samples));
  h.samples = static_cast<std::size_t>(samples);

  h.ext_text_headers = static_cast<long>(signed_field(raw, EXT_TEXT_AT, 2, le));
  if (h.ext_text_headers < -1)
    throw Error(fmt::format("{}: garbage binary header: {} extended textual headers (bytes 3505-3506)", path,
                            h.ext_text_headers));
  if (rev2) {
    const std::int64_t extra = signed_field(raw, EXTRA_TRACE_HDRS_AT, 4, le);
    if (extra != 0)
      throw Error(fmt::format("{}: {} additional 240-byte trace headers per trace (rev 2, bytes 3507-3510) are not "
                              "supported",
                              path, extra));
    const std::int64_t trailers = signed_field(raw, TRAILERS_AT, 4, le);
    if (trailers != 0)
      throw Error(fmt::format("{}: {} data trailer stanzas (rev 2, bytes 3529-3532) are not supported", path, trailers));
    h.rev2_traces = field(raw, REV2_TRACES_AT, 8, le);
    h.rev2_first_trace = field(raw, REV2_FIRST_TRACE_AT, 8, le);
  }
  return h;
}

FileInfo layout_traces(const BinaryHeader& h, std::size_t ext, std::uint64_t file_bytes, const std::string& path) {
  FileInfo info;
  info.segy = true;
  info.samples = h.samples;
  info.file_bytes = file_bytes;
  info.format = h.format;
  info.little_endian = h.little_endian;
  info.revision_major = h.revision_major;
  info.revision_minor = h.revision_minor;
  info.ext_text_headers = ext;
  info.first_trace_offset = FILE_HEADER_BYTES + std::uint64_t{TEXT_HEADER_BYTES} * ext;
  if (h.rev2_first_trace != 0 && h.rev2_first_trace != info.first_trace_offset)
    throw Error(fmt::format("{}: the first trace is at byte {} (rev 2, bytes 3521-3528), not after the {} extended "
                            "textual headers at byte {}: such files are not supported",
                            path, h.rev2_first_trace, ext, info.first_trace_offset));
  if (info.first_trace_offset > file_bytes)
    throw Error(fmt::format("{}: truncated: {} extended textual headers (bytes 3505-3506) end at byte {}, past the end "
                            "of the file ({} bytes)",
                            path, ext, info.first_trace_offset, file_bytes));
  const int sample_bytes = format_bytes(h.format);
  const std::uint64_t trace_bytes = TRACE_HEADER_BYTES + std::uint64_t(sample_bytes) * h.samples;
  const std::uint64_t body = file_bytes - info.first_trace_offset;
  const std::uint64_t traces = body / trace_bytes, rest = body % trace_bytes;
  if (rest != 0)
    throw Error(fmt::format("{}: truncated or malformed: after {} whole traces of {} bytes (240-byte header + {} "
                            "samples x {} bytes) from byte {}, {} bytes are left: the last trace is short, or the "
                            "samples per trace (bytes 3221-3222) or the format (bytes 3225-3226) are wrong",
                            path, traces, trace_bytes, h.samples, sample_bytes, info.first_trace_offset, rest));
  if (h.rev2_traces != 0 && h.rev2_traces != traces)
    throw Error(fmt::format("{}: the binary header says {} traces (rev 2, bytes 3513-3520) but the file holds {}",
                            path, h.rev2_traces, traces));
  if (traces > static_cast<std::uint64_t>(INT_MAX))  // segyio numbers traces with an int
    throw Error(fmt::format("{}: {} traces: more than 2^31-1 traces are not supported", path, traces));
  info.traces = static_cast<std::size_t>(traces);
  return info;
}

bool is_end_text_stanza(const unsigned char* record) {
  static constexpr std::string_view ASCII = "((SEG: EndText))";
  // The same characters in EBCDIC (code page 037).
  static constexpr std::array<unsigned char, 16> EBCDIC = {0x4D, 0x4D, 0xE2, 0xC5, 0xC7, 0x7A, 0x40, 0xC5,
                                                           0x95, 0x84, 0xE3, 0x85, 0xA7, 0xA3, 0x5D, 0x5D};
  const unsigned char* end = record + TEXT_HEADER_BYTES;
  const auto* a = reinterpret_cast<const unsigned char*>(ASCII.data());
  return std::search(record, end, a, a + ASCII.size()) != end ||
         std::search(record, end, EBCDIC.begin(), EBCDIC.end()) != end;
}

std::string FileInfo::describe() const {
  if (!segy) return fmt::format("raw float32 (native byte order), {} traces x {} samples", traces, samples);
  return fmt::format("SEG-Y rev {}.{}, format {} ({}), {}-endian, {} extended textual header{}, {} traces x {} samples",
                     revision_major, revision_minor, format, format_name(format), little_endian ? "little" : "big",
                     ext_text_headers, ext_text_headers == 1 ? "" : "s", traces, samples);
}

}  // namespace tessera::traces
