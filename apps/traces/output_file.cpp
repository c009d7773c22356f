// The output appears only on success: everything is written to a hidden
// temporary in OUT's directory (same filesystem, so rename(2) is atomic),
// fsync'ed, then renamed over OUT; the destructor removes the temporary of a
// run that did not commit, the signal handler of interrupt_cleanup.cpp that
// of an interrupted one, and the next run on the same OUT those of a crashed
// one.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cctype>
#include <charconv>
#include <cstring>
#include <random>
#include <string_view>
#include <utility>

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

std::string temporary_name(const std::string& final_base, long pid, std::uint32_t random) {
  return fmt::format(".{}{}{}-{:08x}{}", final_base, TEMP_TAG, pid, random, TEMP_SUFFIX);
}

std::size_t remove_stale_temporaries(const std::string& final_path) {
  const std::string dir = dir_of(final_path), base = base_of(final_path);
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

AtomicOutput::AtomicOutput(std::string final_path) : final_(std::move(final_path)) {
  require(!final_.empty() && final_.back() != '/', fmt::format("output path '{}' names no file", final_));
  struct stat st {};
  const bool exists = ::stat(final_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode))
    throw Error(fmt::format("{}: exists and is not a regular file; not replacing it", final_));
  const std::string dir = dir_of(final_);
  (void)remove_stale_temporaries(final_);
  // O_EXCL with a random name: never reuses someone else's file. The mode
  // 0666 goes through the umask like any new file's; an existing OUT's mode
  // is kept.
  std::random_device rd;
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    temp_ = fmt::format("{}/{}", dir, temporary_name(base_of(final_), ::getpid(), rd()));
    // Registered before it exists, so that no signal finds it unregistered;
    // a name with this process's PID is nobody else's to lose.
    pending_slot_ = register_pending_temporary(temp_);
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) break;
    const int err = errno;
    release_pending_temporary(std::exchange(pending_slot_, -1));
    if (err != EEXIST)
      throw Error(fmt::format("{}: cannot create a temporary file in {}: {}", final_, dir, std::strerror(err)));
  }
  if (fd_ < 0) throw Error(fmt::format("{}: cannot create a temporary file in {}: names exhausted", final_, dir));
  if (exists) (void)::fchmod(fd_, st.st_mode & 07777);
}

AtomicOutput::~AtomicOutput() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
  release_pending_temporary(pending_slot_);
}

void AtomicOutput::commit(std::vector<Phase>* phases) {
  double t = seconds_since_start();
  const auto step = [&](const char* name) {
    const double now = seconds_since_start();
    if (phases != nullptr) phases->push_back({name, -1, t, now});
    t = now;
  };
  if (::fsync(fd_) != 0)
    throw Error(fmt::format("{}: writing to disk failed (fsync): {}", final_, std::strerror(errno)));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw Error(fmt::format("{}: closing failed: {}", final_, std::strerror(errno)));
  step("fsync the output");
  if (::rename(temp_.c_str(), final_.c_str()) != 0)
    throw Error(fmt::format("{}: cannot rename {} to it: {}", final_, temp_, std::strerror(errno)));
  committed_ = true;
  release_pending_temporary(std::exchange(pending_slot_, -1));  // the name is OUT's now: a signal must not unlink it
  step("rename over OUT");
  // Make the rename itself durable; failure here loses nothing already written.
  const int dfd = ::open(dir_of(final_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  step("fsync OUT's directory");
}

void remove_temporaries_on_signals() { tessera::remove_temporaries_on_signals(); }

}  // namespace tessera::traces
