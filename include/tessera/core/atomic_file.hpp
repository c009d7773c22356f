// A file that appears whole or not at all: bytes go to a hidden temporary in
// the target's directory (same filesystem, so rename(2) is atomic), which
// commit() fsyncs and renames over the target; destroyed uncommitted (an
// error on the way), it removes the temporary and leaves the target as it
// was. While it exists the temporary is registered for removal on SIGINT,
// SIGTERM and SIGHUP (tessera/core/pending_files.hpp: the program installs
// that handler; the tessera CLI does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tessera {

class AtomicFile {
 public:
  // What to do with the temporaries of earlier runs on the same target whose
  // process is gone (a crash, SIGKILL, power loss): see remove_stale_temporaries.
  enum class StaleTemporaries { keep, remove };
  // The steps of commit(), in order, for a caller that times them.
  enum class CommitStep { synced, renamed, directory_synced };

  explicit AtomicFile(std::string target, StaleTemporaries stale = StaleTemporaries::keep);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& target() const { return target_; }
  // For writers that open the temporary themselves or write to fd().
  const std::string& temp_path() const { return temp_; }
  int fd() const { return fd_; }  // open for writing until commit()

  void write(std::string_view bytes);
  // fsync, rename over the target, fsync the target's directory; after_step,
  // when given, is called after each.
  void commit(const std::function<void(CommitStep)>& after_step = {});

 private:
  std::string target_;
  std::string temp_;
  int fd_ = -1;
  int pending_slot_ = -1;  // register_pending_temporary's
  bool committed_ = false;
};

// Temporaries are named ".TARGET.tessera-PID-RANDOM.tmp": PID is the writing
// process, so a later run on the same target can remove those whose process
// is gone and never a live run's, nor another target's.
std::string temporary_name(const std::string& target_base, long pid, std::uint32_t random);
// Removes the stale temporaries of `target` (see above); returns how many.
std::size_t remove_stale_temporaries(const std::string& target);

}  // namespace tessera
