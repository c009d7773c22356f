// SEG-Y reading and writing. segyio (1.8) opens the input and reads its
// binary header; the layout is checked by tessera (segy_layout.cpp: segyio
// 1.8 knows neither rev 2's extended fields nor its byte-order constant), and
// every other byte moves through plain pread/pwrite: the file-level headers
// and trace headers are copied byte for byte (so little-endian files
// round-trip without any swapping), the samples are decoded and encoded by
// sample_codec.cpp (segyio 1.8 knows only formats 1, 2, 3, 5 and 8).
// Traces move in chunks of a few MiB: one pread/pwrite per chunk.
#include <fcntl.h>
#include <segyio/segy.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "file_io.hpp"
#include "sample_codec.hpp"
#include "tessera/core/error.hpp"
#include "trace_io.hpp"

namespace tessera::traces {

bool segy_supported() noexcept { return true; }

namespace {

// Bound on the scan for rev 2's ((SEG: EndText)) stanza when the count of
// extended textual headers is -1 (variable): 10,000 records = 32 MB.
constexpr std::size_t MAX_VARIABLE_EXT_HEADERS = 10000;
// Traces per pread/pwrite: about this many bytes (at least one trace).
constexpr std::size_t CHUNK_BYTES = std::size_t{8} << 20;

struct SegyHandle {
  segy_file* fp = nullptr;
  ~SegyHandle() {
    if (fp != nullptr) segy_close(fp);
  }
};

std::size_t chunk_traces(std::size_t trace_bytes) { return std::max<std::size_t>(1, CHUNK_BYTES / trace_bytes); }

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
    fd_.reset(::open(path_.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd_.get() < 0) throw Error(fmt::format("{}: cannot open: {}", path_, std::strerror(errno)));
    if (file_bytes < FILE_HEADER_BYTES)
      throw Error(fmt::format("{}: {} bytes: too short for SEG-Y (3200-byte textual + 400-byte binary header)", path_,
                              file_bytes));

    // segyio reads MSB until told otherwise, which gives the raw bytes.
    std::array<unsigned char, BINARY_HEADER_BYTES> raw{};
    if (segy_binheader(h_.fp, reinterpret_cast<char*>(raw.data())) != SEGY_OK)
      throw Error(fmt::format("{}: reading the binary header failed: {}", path_, std::strerror(errno)));
    const BinaryHeader bh = parse_binary_header(raw.data(), path_);
    const std::size_t ext = bh.ext_text_headers >= 0 ? static_cast<std::size_t>(bh.ext_text_headers)
                                                     : count_variable_ext_headers(file_bytes);
    info_ = layout_traces(bh, ext, file_bytes, path_);
    sample_bytes_ = static_cast<std::size_t>(format_bytes(info_.format));
    headers_.resize(info_.first_trace_offset);
    read_exactly(fd_.get(), headers_.data(), headers_.size(), 0, path_);
  }

  const FileInfo& info() const override { return info_; }
  std::size_t header_bytes() const override { return TRACE_HEADER_BYTES; }
  // Textual, binary and extended textual headers, as in the file.
  const std::vector<unsigned char>& file_headers() const { return headers_; }

  void read(std::size_t first, std::size_t count, unsigned char* headers, float* samples) override {
    const std::size_t len = info_.samples, tbytes = TRACE_HEADER_BYTES + len * sample_bytes_;
    const std::size_t per_chunk = chunk_traces(tbytes);
    for (std::size_t c = 0; c < count; c += per_chunk) {
      const std::size_t k = std::min(per_chunk, count - c);
      chunk_.resize(k * tbytes);
      const std::uint64_t at = info_.first_trace_offset + (first + c) * tbytes;
      read_exactly(fd_.get(), chunk_.data(), chunk_.size(), at, path_);
      for (std::size_t i = 0; i < k; ++i) {
        const unsigned char* trace = chunk_.data() + i * tbytes;
        check_trace_samples(trace, first + c + i);
        std::memcpy(headers + (c + i) * TRACE_HEADER_BYTES, trace, TRACE_HEADER_BYTES);
        decode_samples(info_.format, info_.little_endian, trace + TRACE_HEADER_BYTES, len, samples + (c + i) * len);
      }
    }
  }

 private:
  // Rev 2 lets the trace header's sample count (bytes 115-116) vary only in
  // variable-length files, which tessera cannot address; a nonzero count that
  // differs from the binary header's means a malformed or variable file.
  void check_trace_samples(const unsigned char* hdr, std::size_t t) const {
    if (info_.samples > 0xFFFF) return;  // the 16-bit field cannot hold it
    const unsigned char* p = hdr + 114;
    const std::size_t n = info_.little_endian ? (p[1] << 8 | p[0]) : (p[0] << 8 | p[1]);
    if (n != 0 && n != info_.samples)
      throw Error(fmt::format("{}: trace {} has {} samples (trace header bytes 115-116) but the binary header says {} "
                              "(bytes 3221-3222): variable-length traces are not supported",
                              path_, t, n, info_.samples));
  }

  std::size_t count_variable_ext_headers(std::uint64_t file_bytes) const {
    std::array<unsigned char, TEXT_HEADER_BYTES> record{};
    for (std::size_t i = 0; i < MAX_VARIABLE_EXT_HEADERS; ++i) {
      const std::uint64_t at = FILE_HEADER_BYTES + std::uint64_t{TEXT_HEADER_BYTES} * i;
      if (at + TEXT_HEADER_BYTES > file_bytes || !read_fully(fd_.get(), record.data(), record.size(), at)) break;
      if (is_end_text_stanza(record.data())) return i + 1;
    }
    throw Error(fmt::format("{}: the binary header says a variable number of extended textual headers (-1 at bytes "
                            "3505-3506) but no ((SEG: EndText)) stanza follows in the first {} records",
                            path_, MAX_VARIABLE_EXT_HEADERS));
  }

  std::string path_;
  SegyHandle h_;
  Fd fd_;
  FileInfo info_;
  std::size_t sample_bytes_ = 4;
  std::vector<unsigned char> headers_, chunk_;
};

class SegyWriter final : public TraceWriter {
 public:
  SegyWriter(const std::string& path, std::string shown_as, const SegyReader& src, int out_format)
      : shown_(std::move(shown_as)), info_(src.info()), format_(out_format) {
    fd_.reset(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (fd_.get() < 0) throw Error(fmt::format("{}: cannot open for writing: {}", shown_, std::strerror(errno)));
    sample_bytes_ = static_cast<std::size_t>(format_bytes(format_));
    // Every file-level byte kept but the format code, in the file's order.
    std::vector<unsigned char> headers = src.file_headers();
    unsigned char* code = headers.data() + TEXT_HEADER_BYTES + (3225 - 3201);
    code[info_.little_endian ? 0 : 1] = static_cast<unsigned char>(format_);
    code[info_.little_endian ? 1 : 0] = 0;
    write_exactly(fd_.get(), headers.data(), headers.size(), 0, shown_);
  }

  std::size_t write(std::size_t first, std::size_t count, const unsigned char* headers, float* samples) override {
    const std::size_t len = info_.samples, tbytes = TRACE_HEADER_BYTES + len * sample_bytes_;
    const std::size_t per_chunk = chunk_traces(tbytes);
    std::size_t nonfinite = 0;
    for (std::size_t c = 0; c < count; c += per_chunk) {
      const std::size_t k = std::min(per_chunk, count - c);
      chunk_.resize(k * tbytes);
      for (std::size_t i = 0; i < k; ++i) {
        unsigned char* trace = chunk_.data() + i * tbytes;
        std::memcpy(trace, headers + (c + i) * TRACE_HEADER_BYTES, TRACE_HEADER_BYTES);
        const float* x = samples + (c + i) * len;
        const EncodeResult r = encode_samples(format_, info_.little_endian, x, len, trace + TRACE_HEADER_BYTES);
        if (r.first_unfit != EncodeResult::NONE) throw_unfit(first + c + i, r.first_unfit, x[r.first_unfit]);
        nonfinite += r.nonfinite;
      }
      const std::uint64_t at = info_.first_trace_offset + (first + c) * tbytes;
      write_exactly(fd_.get(), chunk_.data(), chunk_.size(), at, shown_);
      start_writeback(fd_.get(), at, chunk_.size());
    }
    return nonfinite;
  }

  void finish() override {
    if (::close(fd_.release()) != 0)
      throw Error(fmt::format("{}: closing failed: {}", shown_, std::strerror(errno)));
  }

 private:
  [[noreturn]] void throw_unfit(std::size_t trace, std::size_t sample, float v) const {
    throw Error(fmt::format("{}: trace {} sample {}: the result {} does not fit the output's sample format {} ({}), "
                            "the input's (--out-format same): use --out-format ieee (the default for integer "
                            "input) or double",
                            shown_, trace, sample, v, format_, format_name(format_)));
  }

  std::string shown_;
  Fd fd_;
  FileInfo info_;
  int format_ = 0;
  std::size_t sample_bytes_ = 4;
  std::vector<unsigned char> chunk_;
};

}  // namespace

std::unique_ptr<TraceReader> open_segy_reader(const std::string& path) { return std::make_unique<SegyReader>(path); }

std::unique_ptr<TraceWriter> open_segy_writer(const std::string& path, const std::string& shown_as,
                                              const TraceReader& source, int out_format) {
  const auto* src = dynamic_cast<const SegyReader*>(&source);
  require(src != nullptr, "a SEG-Y output needs a SEG-Y input");
  return std::make_unique<SegyWriter>(path, shown_as, *src, out_format);
}

}  // namespace tessera::traces
