// Raw float32 files: rows of `samples` native-order floats, nothing else.
// Plain POSIX I/O at explicit offsets (file_io.hpp), whole batches at once.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

#include "file_io.hpp"
#include "tessera/core/error.hpp"
#include "trace_io.hpp"

namespace tessera::traces {
namespace {

class RawReader final : public TraceReader {
 public:
  RawReader(std::string path, std::size_t traces, std::size_t samples, bool force_raw)
      : path_(std::move(path)), fd_(::open(path_.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_.get() < 0) throw Error(fmt::format("{}: cannot open: {}", path_, std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd_.get(), &st) != 0) throw Error(fmt::format("{}: cannot stat: {}", path_, std::strerror(errno)));
    if (!S_ISREG(st.st_mode)) throw Error(fmt::format("{}: not a regular file", path_));
    require(traces > 0 && samples > 0,
            fmt::format("{}: raw float32 input needs --traces N and --samples M, both positive (got {} and {})", path_,
                        traces, samples));
    const auto bytes = static_cast<std::uint64_t>(st.st_size);
    if (!force_raw) refuse_segy(bytes);
    const unsigned __int128 want = static_cast<unsigned __int128>(traces) * samples * 4;
    if (want != bytes)
      throw Error(fmt::format("{}: {} bytes, but {} traces x {} samples of float32 are {} bytes{}", path_, bytes,
                              traces, samples, static_cast<std::uint64_t>(want),
                              bytes % 4 == 0 ? fmt::format(" ({} floats in the file)", bytes / 4) : ""));
    info_.traces = traces;
    info_.samples = samples;
    info_.file_bytes = bytes;
    // Read front to back once: a larger readahead window for a cold file.
    (void)::posix_fadvise(fd_.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  const FileInfo& info() const override { return info_; }
  std::size_t header_bytes() const override { return 0; }
  void read(std::size_t first, std::size_t count, unsigned char*, float* samples) override {
    const std::uint64_t row = std::uint64_t{4} * info_.samples;
    read_exactly(fd_.get(), samples, count * row, first * row, path_);
  }

 private:
  // Headers read as samples would go unnoticed: a file that is SEG-Y by
  // every sign (segy_detect.cpp) is refused unless the caller insists.
  void refuse_segy(std::uint64_t bytes) const {
    std::array<unsigned char, SEGY_DETECT_BYTES> head{};
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, head.size()));
    if (n < FILE_HEADER_BYTES) return;
    read_exactly(fd_.get(), head.data(), n, 0, path_);
    const std::string evidence = segy_evidence(head.data(), n, bytes);
    if (!evidence.empty())
      throw Error(fmt::format("{}: given as raw float32 (--traces/--samples) but it is a SEG-Y file: {}; drop "
                              "--traces and --samples to read it as SEG-Y, or add --raw to read its bytes as raw "
                              "float32 anyway",
                              path_, evidence));
  }

  std::string path_;
  Fd fd_;
  FileInfo info_;
};

class RawWriter final : public TraceWriter {
 public:
  RawWriter(const std::string& path, std::string shown_as, std::size_t samples)
      : shown_(std::move(shown_as)), fd_(::open(path.c_str(), O_WRONLY | O_CLOEXEC)), samples_(samples) {
    if (fd_.get() < 0) throw Error(fmt::format("{}: cannot open for writing: {}", shown_, std::strerror(errno)));
  }
  std::size_t write(std::size_t first, std::size_t count, const unsigned char*, float* samples) override {
    const std::uint64_t row = std::uint64_t{4} * samples_;
    write_exactly(fd_.get(), samples, count * row, first * row, shown_);
    start_writeback(fd_.get(), first * row, count * row);
    return 0;
  }
  void finish() override {
    if (::close(fd_.release()) != 0)
      throw Error(fmt::format("{}: closing failed: {}", shown_, std::strerror(errno)));
  }

 private:
  std::string shown_;
  Fd fd_;
  std::size_t samples_;
};

}  // namespace

std::unique_ptr<TraceReader> open_raw_reader(const std::string& path, std::size_t traces, std::size_t samples,
                                             bool force_raw) {
  return std::make_unique<RawReader>(path, traces, samples, force_raw);
}

std::unique_ptr<TraceWriter> open_raw_writer(const std::string& path, const std::string& shown_as,
                                             std::size_t samples) {
  return std::make_unique<RawWriter>(path, shown_as, samples);
}

}  // namespace tessera::traces
