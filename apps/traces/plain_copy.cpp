// The yardstick of --verbose: how long a plain copy of IN takes on OUT's
// disk, done as `cp IN OUT && sync` does it (copy_file_range, which lets
// the kernel move the bytes or share them where the filesystem can, then
// the data flushed to the disk). The copy goes to a temporary of the same
// kind as a run's (AtomicOutput, never committed): removed when done, on
// error, on SIGINT/SIGTERM/SIGHUP, or by the next run after a crash.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "file_io.hpp"
#include "tessera/apps/traces.hpp"
#include "tessera/core/error.hpp"
#include "trace_io.hpp"

namespace tessera::traces {
namespace {

// copy_file_range where the kernel and filesystems allow it; false (nothing
// copied) where they do not, for the read/write loop to take over.
bool copy_in_kernel(int from, int to, std::uint64_t bytes, const std::string& in) {
  std::uint64_t done = 0;
  while (done < bytes) {
    off_t src = static_cast<off_t>(done), dst = static_cast<off_t>(done);
    const ssize_t n = ::copy_file_range(from, &src, to, &dst, bytes - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && done == 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP))
      return false;
    if (n < 0) throw Error(fmt::format("{}: plain copy failed at byte {}: {}", in, done, std::strerror(errno)));
    if (n == 0) throw Error(fmt::format("{}: plain copy: unexpected end of file at byte {}", in, done));
    done += static_cast<std::uint64_t>(n);
  }
  return true;
}

void copy_by_loop(int from, int to, std::uint64_t bytes, const std::string& in, const std::string& shown) {
  std::vector<char> buf(std::size_t{8} << 20);  // cp's own loop uses buffers of this order
  for (std::uint64_t at = 0; at < bytes;) {
    const std::uint64_t n = std::min<std::uint64_t>(buf.size(), bytes - at);
    read_exactly(from, buf.data(), n, at, in);
    write_exactly(to, buf.data(), n, at, shown);
    at += n;
  }
}

}  // namespace

double time_plain_copy(const std::string& in, const std::string& out) {
  const double t0 = seconds_since_start();
  Fd from(::open(in.c_str(), O_RDONLY | O_CLOEXEC));
  if (from.get() < 0) throw Error(fmt::format("{}: cannot open for the plain copy: {}", in, std::strerror(errno)));
  struct stat st {};
  if (::fstat(from.get(), &st) != 0) throw Error(fmt::format("{}: cannot stat: {}", in, std::strerror(errno)));
  const auto bytes = static_cast<std::uint64_t>(st.st_size);
  AtomicOutput copy(out);  // never committed: its destructor removes it
  if (!copy_in_kernel(from.get(), copy.fd(), bytes, in)) copy_by_loop(from.get(), copy.fd(), bytes, in, out);
  if (::fsync(copy.fd()) != 0)
    throw Error(fmt::format("{}: the plain copy's fsync failed: {}", out, std::strerror(errno)));
  return seconds_since_start() - t0;
}

}  // namespace tessera::traces
