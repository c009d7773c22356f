// AtomicFile (tessera/core/atomic_file.hpp).
#include "tessera/core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <utility>

#include "tessera/core/error.hpp"
#include "tessera/core/pending_files.hpp"

namespace tessera {
namespace {

std::string dir_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
  require(!target_.empty() && target_.back() != '/', fmt::format("output path '{}' names no file", target_));
  struct stat st {};
  const bool exists = ::stat(target_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode))
    throw Error(fmt::format("{}: exists and is not a regular file; not replacing it", target_));
  std::random_device rd;
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    temp_ = fmt::format("{}/.{}.tessera-{}-{:08x}.tmp", dir_of(target_), base_of(target_), ::getpid(), rd());
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno != EEXIST)
      throw Error(fmt::format("{}: cannot create a temporary file in {}: {}", target_, dir_of(target_),
                              std::strerror(errno)));
  }
  if (fd_ < 0) throw Error(fmt::format("{}: cannot create a temporary file: names exhausted", target_));
  pending_slot_ = register_pending_temporary(temp_);
  if (exists) (void)::fchmod(fd_, st.st_mode & 07777);  // replacing keeps the file's mode
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_.c_str());
  release_pending_temporary(pending_slot_);
}

void AtomicFile::write(std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  while (n > 0) {
    const ssize_t put = ::write(fd_, p, n);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) throw Error(fmt::format("{}: write failed: {}", target_, std::strerror(errno)));
    p += put;
    n -= static_cast<std::size_t>(put);
  }
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) throw Error(fmt::format("{}: fsync failed: {}", target_, std::strerror(errno)));
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) throw Error(fmt::format("{}: close failed: {}", target_, std::strerror(errno)));
  if (::rename(temp_.c_str(), target_.c_str()) != 0)
    throw Error(fmt::format("{}: cannot rename {} to it: {}", target_, temp_, std::strerror(errno)));
  committed_ = true;
  // After the rename: a signal in between unlinks a name that is gone, where
  // releasing first would leave the temporary behind.
  release_pending_temporary(std::exchange(pending_slot_, -1));
  // Make the rename durable; failing here loses nothing already written.
  const int dfd = ::open(dir_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace tessera
