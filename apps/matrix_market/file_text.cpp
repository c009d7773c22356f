// A file's bytes for the parser: regular files are mapped (no copy; the
// parsing threads fault their own chunks in), anything else (a pipe,
// /dev/stdin) is read into memory.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "mm_detail.hpp"
#include "tessera/core/error.hpp"

namespace tessera::mm::detail {
namespace {

struct Descriptor {
  int fd;
  ~Descriptor() { ::close(fd); }
};

}  // namespace

FileText::FileText(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  Descriptor guard{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw Error(fmt::format("{}: cannot stat: {}", path, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw Error(fmt::format("{}: is a directory", path));
  if (S_ISREG(st.st_mode)) {
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ == 0) return;
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      (void)::madvise(p, size_, MADV_SEQUENTIAL);
      data_ = static_cast<const char*>(p);
      mapped_ = true;
      return;
    }
  }
  // Not mappable: read it all.
  char buf[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error(fmt::format("{}: read failed: {}", path, std::strerror(errno)));
    if (got == 0) break;
    owned_.append(buf, static_cast<std::size_t>(got));
  }
  data_ = owned_.data();
  size_ = owned_.size();
}

FileText::~FileText() {
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace tessera::mm::detail
