// The output appears only on success (tessera::AtomicFile): everything is
// written to a hidden temporary in OUT's directory, fsync'ed, then renamed
// over OUT; the destructor removes the temporary of a run that did not
// commit, the signal handler of tessera/core/pending_files.hpp that of an
// interrupted one, and the next run on the same OUT those of a crashed one.
#include <utility>

#include "trace_io.hpp"

namespace tessera::traces {

AtomicOutput::AtomicOutput(std::string final_path)
    : file_(std::move(final_path), AtomicFile::StaleTemporaries::remove) {}

void AtomicOutput::commit(std::vector<Phase>* phases) {
  double t = seconds_since_start();
  file_.commit([&](AtomicFile::CommitStep step) {
    const double now = seconds_since_start();
    if (phases != nullptr) phases->push_back({phase_name(step), -1, t, now});
    t = now;
  });
}

const char* AtomicOutput::phase_name(AtomicFile::CommitStep step) {
  switch (step) {
    case AtomicFile::CommitStep::synced: return "fsync the output";
    case AtomicFile::CommitStep::renamed: return "rename over OUT";
    case AtomicFile::CommitStep::directory_synced: return "fsync OUT's directory";
  }
  return "commit";
}

void remove_temporaries_on_signals() { tessera::remove_temporaries_on_signals(); }

}  // namespace tessera::traces
