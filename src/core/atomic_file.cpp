// AtomicFile and its temporaries' names (tessera/core/atomic_file.hpp).
#include "tessera/core/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <charconv>
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

constexpr std::string_view TEMP_TAG = ".tessera-";
constexpr std::string_view TEMP_SUFFIX = ".tmp";

// The PID in a temporary's name for `base`, or -1 when `name` is not exactly
// "." base ".tessera-" PID "-" 8 hex digits ".tmp".
long temporary_pid(std::string_view name, const std::string& base) {
  const std::size_t head = 1 + base.size() + TEMP_TAG.size();
  if (name.size() < head + TEMP_SUFFIX.size() || name[0] != '.' || name.substr(1, base.size()) != base ||
      name.substr(1 + base.size(), TEMP_TAG.size()) != TEMP_TAG || !name.ends_with(TEMP_SUFFIX))
    return -1;
  const std::string_view rest = name.substr(head, name.size() - head - TEMP_SUFFIX.size());  // PID-RANDOM
  const auto dash = rest.find('-');
  if (dash == std::string_view::npos || rest.size() - dash - 1 != 8) return -1;
  long pid = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + dash, pid);
  if (ec != std::errc{} || end != rest.data() + dash || pid <= 0) return -1;
  for (char c : rest.substr(dash + 1))
    if (!std::isxdigit(static_cast<unsigned char>(c))) return -1;
  return pid;
}

bool process_gone(long pid) { return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

}  // namespace

std::string temporary_name(const std::string& target_base, long pid, std::uint32_t random) {
  return fmt::format(".{}{}{}-{:08x}{}", target_base, TEMP_TAG, pid, random, TEMP_SUFFIX);
}

std::size_t remove_stale_temporaries(const std::string& target) {
  const std::string dir = dir_of(target), base = base_of(target);
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return 0;  // creating the temporary reports why
  std::size_t removed = 0;
  while (const dirent* e = ::readdir(d)) {
    const long pid = temporary_pid(e->d_name, base);
    if (pid > 0 && process_gone(pid) && ::unlinkat(::dirfd(d), e->d_name, 0) == 0) ++removed;
  }
  ::closedir(d);
  return removed;
}

AtomicFile::AtomicFile(std::string target, StaleTemporaries stale) : target_(std::move(target)) {
  require(!target_.empty() && target_.back() != '/', fmt::format("output path '{}' names no file", target_));
  struct stat st {};
  const bool exists = ::stat(target_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode))
    throw Error(fmt::format("{}: exists and is not a regular file; not replacing it", target_));
  const std::string dir = dir_of(target_);
  if (stale == StaleTemporaries::remove) (void)remove_stale_temporaries(target_);
  // O_EXCL with a random name: never reuses someone else's file. The mode
  // 0666 goes through the umask like any new file's.
  std::random_device rd;
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    temp_ = fmt::format("{}/{}", dir, temporary_name(base_of(target_), ::getpid(), rd()));
    // Registered before it exists, so that no signal finds it unregistered;
    // a name with this process's PID is nobody else's to lose.
    pending_slot_ = register_pending_temporary(temp_);
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) break;
    const int err = errno;
    release_pending_temporary(std::exchange(pending_slot_, -1));
    if (err != EEXIST)
      throw Error(fmt::format("{}: cannot create a temporary file in {}: {}", target_, dir, std::strerror(err)));
  }
  if (fd_ < 0) throw Error(fmt::format("{}: cannot create a temporary file in {}: names exhausted", target_, dir));
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

void AtomicFile::commit(const std::function<void(CommitStep)>& after_step) {
  const auto done = [&](CommitStep step) {
    if (after_step) after_step(step);
  };
  if (::fsync(fd_) != 0) throw Error(fmt::format("{}: fsync failed: {}", target_, std::strerror(errno)));
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) throw Error(fmt::format("{}: close failed: {}", target_, std::strerror(errno)));
  done(CommitStep::synced);
  if (::rename(temp_.c_str(), target_.c_str()) != 0)
    throw Error(fmt::format("{}: cannot rename {} to it: {}", target_, temp_, std::strerror(errno)));
  committed_ = true;
  // After the rename: a signal in between unlinks a name that is gone, where
  // releasing first would leave the temporary behind.
  release_pending_temporary(std::exchange(pending_slot_, -1));
  done(CommitStep::renamed);
  // Make the rename durable; failing here loses nothing already written.
  const int dfd = ::open(dir_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  done(CommitStep::directory_synced);
}

}  // namespace tessera
