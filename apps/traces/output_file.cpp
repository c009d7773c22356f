// The output appears only on success: everything is written to a hidden
// temporary in OUT's directory (same filesystem, so rename(2) is atomic),
// fsync'ed, then renamed over OUT; the destructor removes the temporary of a
// run that did not commit.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <random>

#include "tessera/core/error.hpp"
#include "trace_io.hpp"

namespace tessera::traces {
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

AtomicOutput::AtomicOutput(std::string final_path) : final_(std::move(final_path)) {
  require(!final_.empty() && final_.back() != '/', fmt::format("output path '{}' names no file", final_));
  struct stat st {};
  const bool exists = ::stat(final_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode))
    throw Error(fmt::format("{}: exists and is not a regular file; not replacing it", final_));
  const std::string dir = dir_of(final_);
  // O_EXCL with a random name: never reuses someone else's file. The mode
  // 0666 goes through the umask like any new file's; an existing OUT's mode
  // is kept.
  std::random_device rd;
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    temp_ = fmt::format("{}/.{}.tessera-{:08x}.tmp", dir, base_of(final_), rd());
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno != EEXIST)
      throw Error(fmt::format("{}: cannot create a temporary file in {}: {}", final_, dir, std::strerror(errno)));
  }
  if (fd_ < 0) throw Error(fmt::format("{}: cannot create a temporary file in {}: names exhausted", final_, dir));
  if (exists) (void)::fchmod(fd_, st.st_mode & 07777);
}

AtomicOutput::~AtomicOutput() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicOutput::commit() {
  if (::fsync(fd_) != 0)
    throw Error(fmt::format("{}: writing to disk failed (fsync): {}", final_, std::strerror(errno)));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw Error(fmt::format("{}: closing failed: {}", final_, std::strerror(errno)));
  if (::rename(temp_.c_str(), final_.c_str()) != 0)
    throw Error(fmt::format("{}: cannot rename {} to it: {}", final_, temp_, std::strerror(errno)));
  committed_ = true;
  // Make the rename itself durable; failure here loses nothing already written.
  const int dfd = ::open(dir_of(final_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace tessera::traces
