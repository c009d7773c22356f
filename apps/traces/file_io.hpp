// Plain POSIX file I/O shared by the raw and SEG-Y readers and writers:
// an owned descriptor and whole transfers at explicit offsets (pread/pwrite
// may move fewer bytes than asked, or be interrupted).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <string>
#include <utility>

namespace tessera::traces {

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// Reads exactly n bytes at `offset`; false at the end of the file or on an
// error (errno says which: 0 at the end).
bool read_fully(int fd, void* buf, std::uint64_t n, std::uint64_t offset);
// The same, throwing an Error naming `path` and the byte.
void read_exactly(int fd, void* buf, std::uint64_t n, std::uint64_t offset, const std::string& path);
void write_exactly(int fd, const void* buf, std::uint64_t n, std::uint64_t offset, const std::string& path);
// Asks the kernel to start writing [offset, offset + n) to the disk now,
// without waiting (sync_file_range): the output's one fsync at the end then
// waits for the last batches only, where `cp && sync` waits for the whole
// file. Advisory: failures are ignored (the fsync reports real ones).
void start_writeback(int fd, std::uint64_t offset, std::uint64_t n) noexcept;

}  // namespace tessera::traces
