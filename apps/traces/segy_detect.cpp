// Whether a file given as raw float32 is really SEG-Y: read as raw, its
// headers would become samples without any error whenever --traces x
// --samples x 4 happens to equal the file size. Three independent signs must
// agree before the file is called SEG-Y, so that raw data is never refused by
// accident: a 3200-byte textual header that is text, a binary header that
// decodes (sample count, format code, byte order), and traces of that size
// filling the rest of the file exactly, the first trace header's sample count
// (when set) agreeing.
#include <fmt/format.h>

#include <algorithm>

#include "tessera/core/error.hpp"
#include "trace_io.hpp"

namespace tessera::traces {
namespace {

// Text as SEG-Y writers produce it: printable characters of either code.
bool printable_ascii(unsigned char c) { return c >= 0x20 && c <= 0x7E; }
bool printable_ebcdic(unsigned char c) {
  return c == 0x40 || (c >= 0x4A && c <= 0x50) || (c >= 0x5A && c <= 0x61) || (c >= 0x6A && c <= 0x6F) ||
         (c >= 0x79 && c <= 0x7F) || (c >= 0x81 && c <= 0x89) || (c >= 0x91 && c <= 0x99) ||
         (c >= 0xA2 && c <= 0xA9) || (c >= 0xC1 && c <= 0xC9) || (c >= 0xD1 && c <= 0xD9) ||
         (c >= 0xE2 && c <= 0xE9) || (c >= 0xF0 && c <= 0xF9);
}

// "EBCDIC", "ASCII", or "" when fewer than 90% of the bytes are printable in
// either code (float32 samples essentially never are).
const char* text_encoding(const unsigned char* text) {
  const auto n = static_cast<std::size_t>(TEXT_HEADER_BYTES);
  const auto ebcdic = static_cast<std::size_t>(std::count_if(text, text + n, printable_ebcdic));
  const auto ascii = static_cast<std::size_t>(std::count_if(text, text + n, printable_ascii));
  if (10 * ebcdic >= 9 * n) return "EBCDIC";
  if (10 * ascii >= 9 * n) return "ASCII";
  return "";
}

}  // namespace

std::string segy_evidence(const unsigned char* head, std::size_t head_bytes, std::uint64_t file_bytes) {
  if (head_bytes < FILE_HEADER_BYTES || file_bytes < FILE_HEADER_BYTES) return {};
  const char* encoding = text_encoding(head);
  if (*encoding == '\0') return {};
  FileInfo info;
  try {
    const BinaryHeader h = parse_binary_header(head + TEXT_HEADER_BYTES, "", false);
    const std::size_t ext = h.ext_text_headers > 0 ? static_cast<std::size_t>(h.ext_text_headers) : 0;
    info = layout_traces(h, ext, file_bytes, "");
  } catch (const Error&) {
    return {};
  }
  if (info.traces == 0) return {};
  // The first trace header's sample count (bytes 115-116), when it is in
  // `head` and set, must agree with the binary header's.
  const std::uint64_t count_at = info.first_trace_offset + 114;
  if (count_at + 2 <= head_bytes) {
    const unsigned char* p = head + count_at;
    const unsigned n = info.little_endian ? (p[1] << 8 | p[0]) : (p[0] << 8 | p[1]);
    if (n != 0 && n != info.samples) return {};
  }
  return fmt::format("a textual header in {}, a binary header saying format {} ({}), {}-endian, {} samples per "
                     "trace, and {} traces of that size that fill the file exactly",
                     encoding, info.format, format_name(info.format), info.little_endian ? "little" : "big",
                     info.samples, info.traces);
}

}  // namespace tessera::traces
