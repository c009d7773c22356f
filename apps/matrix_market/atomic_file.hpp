// A file that appears whole or not at all: bytes go to a hidden temporary in
// the target's directory (same filesystem, so rename(2) is atomic), which
// commit() fsyncs and renames over the target; destroyed uncommitted (an
// error on the way), it removes the temporary and leaves the target as it
// was. Small and generic on purpose: the traces tool's AtomicOutput adds
// signal-time cleanup that a library call does not need.
#pragma once

#include <string>
#include <string_view>

namespace tessera::mm::detail {

class AtomicFile {
 public:
  explicit AtomicFile(std::string target);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::string_view bytes);
  void commit();

 private:
  std::string target_;
  std::string temp_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace tessera::mm::detail
