// Whole transfers at explicit offsets (file_io.hpp).
#include "file_io.hpp"

#include <fcntl.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "tessera/core/error.hpp"

namespace tessera::traces {

bool read_fully(int fd, void* buf, std::uint64_t n, std::uint64_t offset) {
  auto* p = static_cast<char*>(buf);
  errno = 0;
  while (n > 0) {
    const ssize_t got = ::pread(fd, p, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    offset += static_cast<std::uint64_t>(got);
    n -= static_cast<std::uint64_t>(got);
  }
  return true;
}

void read_exactly(int fd, void* buf, std::uint64_t n, std::uint64_t offset, const std::string& path) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    const ssize_t got = ::pread(fd, p, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error(fmt::format("{}: read failed at byte {}: {}", path, offset, std::strerror(errno)));
    if (got == 0) throw Error(fmt::format("{}: unexpected end of file at byte {} (did it shrink?)", path, offset));
    p += got;
    offset += static_cast<std::uint64_t>(got);
    n -= static_cast<std::uint64_t>(got);
  }
}

void write_exactly(int fd, const void* buf, std::uint64_t n, std::uint64_t offset, const std::string& path) {
  const auto* p = static_cast<const char*>(buf);
  while (n > 0) {
    const ssize_t put = ::pwrite(fd, p, n, static_cast<off_t>(offset));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) throw Error(fmt::format("{}: write failed at byte {}: {}", path, offset, std::strerror(errno)));
    p += put;
    offset += static_cast<std::uint64_t>(put);
    n -= static_cast<std::uint64_t>(put);
  }
}

void start_writeback(int fd, std::uint64_t offset, std::uint64_t n) noexcept {
#ifdef SYNC_FILE_RANGE_WRITE
  (void)::sync_file_range(fd, static_cast<off64_t>(offset), static_cast<off64_t>(n), SYNC_FILE_RANGE_WRITE);
#else
  (void)fd, (void)offset, (void)n;
#endif
}

}  // namespace tessera::traces
