// SEG-Y reading and writing through segyio (1.8): segyio opens the files,
// moves the headers and traces and handles the byte order (it swaps
// little-endian files field by field on the way in and back on the way out,
// so every header round-trips byte for byte: the tests check it); tessera
// decodes the samples (IEEE through segyio, IBM with its own round-to-nearest
// converter, tessera/apps/ibm_float.hpp) and checks the layout itself
// (segy_layout.cpp), since segyio 1.8 knows neither rev 2's extended fields
// nor its byte-order constant.
#include <fcntl.h>
#include <segyio/segy.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/apps/ibm_float.hpp"
#include "tessera/core/error.hpp"
#include "trace_io.hpp"

namespace tessera::traces {

bool segy_supported() noexcept { return true; }

namespace {

// The 3200-byte text buffers of segyio's textual-header calls hold a
// terminating zero too.
constexpr std::size_t TEXT_BUFFER_BYTES = TEXT_HEADER_BYTES + 1;
// Bound on the scan for rev 2's ((SEG: EndText)) stanza when the count of
// extended textual headers is -1 (variable): 10,000 records = 32 MB.
constexpr std::size_t MAX_VARIABLE_EXT_HEADERS = 10000;

const char* segy_error_name(int code) {
  switch (code) {
    case SEGY_FOPEN_ERROR: return "cannot open";
    case SEGY_FSEEK_ERROR: return "seek failed";
    case SEGY_FREAD_ERROR: return "read failed";
    case SEGY_FWRITE_ERROR: return "write failed";
    case SEGY_INVALID_ARGS: return "invalid arguments";
    case SEGY_MMAP_ERROR: return "mmap failed";
    case SEGY_READONLY: return "file is read-only";
    default: return "segyio error";
  }
}

// Throws "<path>: <what>: <segyio's error> (<errno>)".
[[noreturn]] void fail(const std::string& path, const std::string& what, int code, int err) {
  throw Error(fmt::format("{}: {}: {} (segyio code {}{}{})", path, what, segy_error_name(code), code,
                          err != 0 ? ", " : "", err != 0 ? std::strerror(err) : ""));
}

struct SegyHandle {
  segy_file* fp = nullptr;
  ~SegyHandle() {
    if (fp != nullptr) segy_close(fp);
  }
};

int segy_mode(const FileInfo& info) { return info.format | (info.little_endian ? SEGY_LSB : SEGY_MSB); }

// Reads `n` bytes at `offset` with plain I/O (the stanza scan only).
bool read_at(int fd, void* buf, std::size_t n, std::uint64_t offset) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    const ssize_t got = ::pread(fd, p, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= static_cast<std::size_t>(got);
    offset += static_cast<std::uint64_t>(got);
  }
  return true;
}

class SegyReader final : public TraceReader {
 public:
  explicit SegyReader(std::string path) : path_(std::move(path)) {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0)
      throw Error(fmt::format("{}: cannot read: {}", path_, std::strerror(errno)));
    if (!S_ISREG(st.st_mode)) throw Error(fmt::format("{}: not a regular file", path_));
    const auto file_bytes = static_cast<std::uint64_t>(st.st_size);
    errno = 0;
    h_.fp = segy_open(path_.c_str(), "rb");
    if (h_.fp == nullptr) throw Error(fmt::format("{}: cannot open: {}", path_, std::strerror(errno)));
    if (file_bytes < FILE_HEADER_BYTES)
      throw Error(fmt::format("{}: {} bytes: too short for SEG-Y (3200-byte textual + 400-byte binary header)", path_,
                              file_bytes));

    // segyio reads MSB until told otherwise, which gives the raw bytes.
    std::array<unsigned char, BINARY_HEADER_BYTES> raw{};
    check(segy_binheader(h_.fp, reinterpret_cast<char*>(raw.data())), "reading the binary header");
    const BinaryHeader bh = parse_binary_header(raw.data(), path_);
    const std::size_t ext = bh.ext_text_headers >= 0 ? static_cast<std::size_t>(bh.ext_text_headers)
                                                     : count_variable_ext_headers(file_bytes);
    info_ = layout_traces(bh, ext, file_bytes, path_);
    check(segy_set_format(h_.fp, segy_mode(info_)), "setting the sample format");
    trace_bytes_ = segy_trsize(info_.format, static_cast<int>(info_.samples));

    // The file-level headers, kept for the writer, in segyio's own form
    // (textual: its ASCII translation; binary: its MSB order), which its
    // write calls turn back into the original bytes.
    text_.resize(1 + ext, std::string(TEXT_BUFFER_BYTES, '\0'));
    check(segy_read_textheader(h_.fp, text_[0].data()), "reading the textual header");
    for (std::size_t i = 0; i < ext; ++i)
      check(segy_read_ext_textheader(h_.fp, static_cast<int>(i), text_[1 + i].data()),
            fmt::format("reading extended textual header {}", i + 1));
    check(segy_binheader(h_.fp, binary_.data()), "reading the binary header");
  }

  const FileInfo& info() const override { return info_; }
  std::size_t header_bytes() const override { return TRACE_HEADER_BYTES; }

  void read(std::size_t first, std::size_t count, unsigned char* headers, float* samples) override {
    const long trace0 = static_cast<long>(info_.first_trace_offset);
    for (std::size_t i = 0; i < count; ++i) {
      const auto t = static_cast<int>(first + i);
      char* hdr = reinterpret_cast<char*>(headers + i * TRACE_HEADER_BYTES);
      float* x = samples + i * info_.samples;
      check(segy_traceheader(h_.fp, t, hdr, trace0, trace_bytes_), fmt::format("reading the header of trace {}", t));
      check_trace_samples(hdr, t);
      check(segy_readtrace(h_.fp, t, x, trace0, trace_bytes_), fmt::format("reading trace {}", t));
    }
    // segyio hands samples over in big-endian order.
    const std::size_t n = count * info_.samples;
    if (info_.format == SEGY_IBM_FLOAT_4_BYTE) ibm::decode_be(samples, n);
    else check(segy_to_native(info_.format, static_cast<long long>(n), samples), "decoding IEEE samples");
  }

  const std::vector<std::string>& text_headers() const { return text_; }
  const std::array<char, BINARY_HEADER_BYTES>& binary_header() const { return binary_; }

 private:
  void check(int code, const std::string& what) const {
    if (code != SEGY_OK) fail(path_, what, code, errno);
  }

  // Rev 2 lets the trace header's sample count (bytes 115-116) vary only in
  // variable-length files, which segyio cannot address; a nonzero count that
  // differs from the binary header's means a malformed or variable file.
  void check_trace_samples(const char* hdr, int t) const {
    if (info_.samples > 0xFFFF) return;  // the 16-bit field cannot hold it
    std::int32_t n = 0;
    if (segy_get_field(hdr, SEGY_TR_SAMPLE_COUNT, &n) != SEGY_OK) return;
    n &= 0xFFFF;  // an unsigned 16-bit field
    if (n != 0 && static_cast<std::size_t>(n) != info_.samples)
      throw Error(fmt::format("{}: trace {} has {} samples (trace header bytes 115-116) but the binary header says {} "
                              "(bytes 3221-3222): variable-length traces are not supported",
                              path_, t, n, info_.samples));
  }

  std::size_t count_variable_ext_headers(std::uint64_t file_bytes) const {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw Error(fmt::format("{}: cannot open: {}", path_, std::strerror(errno)));
    std::array<unsigned char, TEXT_HEADER_BYTES> record{};
    std::size_t found = 0;
    for (std::size_t i = 0; i < MAX_VARIABLE_EXT_HEADERS; ++i) {
      const std::uint64_t at = FILE_HEADER_BYTES + std::uint64_t{TEXT_HEADER_BYTES} * i;
      if (at + TEXT_HEADER_BYTES > file_bytes || !read_at(fd, record.data(), record.size(), at)) break;
      if (is_end_text_stanza(record.data())) {
        found = i + 1;
        break;
      }
    }
    ::close(fd);
    if (found == 0)
      throw Error(fmt::format("{}: the binary header says a variable number of extended textual headers (-1 at bytes "
                              "3505-3506) but no ((SEG: EndText)) stanza follows in the first {} records",
                              path_, MAX_VARIABLE_EXT_HEADERS));
    return found;
  }

  std::string path_;
  SegyHandle h_;
  FileInfo info_;
  int trace_bytes_ = 0;
  std::vector<std::string> text_;
  std::array<char, BINARY_HEADER_BYTES> binary_{};
};

class SegyWriter final : public TraceWriter {
 public:
  SegyWriter(std::string path, std::string shown_as, const SegyReader& src)
      : path_(std::move(path)), shown_(std::move(shown_as)), info_(src.info()) {
    errno = 0;
    h_.fp = segy_open(path_.c_str(), "r+b");
    if (h_.fp == nullptr) throw Error(fmt::format("{}: cannot open for writing: {}", shown_, std::strerror(errno)));
    check(segy_set_format(h_.fp, segy_mode(info_)), "setting the sample format");
    trace_bytes_ = segy_trsize(info_.format, static_cast<int>(info_.samples));
    const auto& text = src.text_headers();
    check(segy_write_textheader(h_.fp, 0, text[0].data()), "writing the textual header");
    check(segy_write_binheader(h_.fp, src.binary_header().data()), "writing the binary header");
    for (std::size_t i = 1; i < text.size(); ++i)
      check(segy_write_textheader(h_.fp, static_cast<int>(i), text[i].data()),
            fmt::format("writing extended textual header {}", i));
  }

  std::size_t write(std::size_t first, std::size_t count, const unsigned char* headers, float* samples) override {
    const std::size_t n = count * info_.samples;
    std::size_t nonfinite = 0;
    if (info_.format == SEGY_IBM_FLOAT_4_BYTE) nonfinite = ibm::encode_be(samples, n);
    else check(segy_from_native(info_.format, static_cast<long long>(n), samples), "encoding IEEE samples");
    const long trace0 = static_cast<long>(info_.first_trace_offset);
    for (std::size_t i = 0; i < count; ++i) {
      const auto t = static_cast<int>(first + i);
      check(segy_write_traceheader(h_.fp, t, reinterpret_cast<const char*>(headers + i * TRACE_HEADER_BYTES), trace0,
                                   trace_bytes_),
            fmt::format("writing the header of trace {}", t));
      check(segy_writetrace(h_.fp, t, samples + i * info_.samples, trace0, trace_bytes_),
            fmt::format("writing trace {}", t));
    }
    return nonfinite;
  }

  void finish() override {
    segy_file* fp = h_.fp;
    h_.fp = nullptr;
    errno = 0;
    check(segy_close(fp), "closing (flushing) the file");
  }

 private:
  void check(int code, const std::string& what) const {
    if (code != SEGY_OK) fail(shown_, what, code, errno);
  }

  std::string path_, shown_;
  SegyHandle h_;
  FileInfo info_;
  int trace_bytes_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> open_segy_reader(const std::string& path) { return std::make_unique<SegyReader>(path); }

std::unique_ptr<TraceWriter> open_segy_writer(const std::string& path, const std::string& shown_as,
                                              const TraceReader& source) {
  const auto* src = dynamic_cast<const SegyReader*>(&source);
  require(src != nullptr, "a SEG-Y output needs a SEG-Y input");
  return std::make_unique<SegyWriter>(path, shown_as, *src);
}

}  // namespace tessera::traces
