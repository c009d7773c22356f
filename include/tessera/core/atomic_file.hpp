// A file that appears whole or not at all: bytes go to a hidden temporary in
// the target's directory (same filesystem, so rename(2) is atomic), which
// commit() fsyncs and renames over the target; destroyed uncommitted (an
// error on the way), it removes the temporary and leaves the target as it
// was. While it exists the temporary is registered for removal on SIGINT,
// SIGTERM and SIGHUP (tessera/core/pending_files.hpp: the program installs
// that handler; the tessera CLI does).
#pragma once

#include <string>
#include <string_view>

namespace tessera {

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
  int pending_slot_ = -1;  // register_pending_temporary's
  bool committed_ = false;
};

}  // namespace tessera
