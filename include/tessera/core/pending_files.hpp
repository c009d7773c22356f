// Temporaries that a ^C must not leave behind. tessera's atomic writers (the
// traces tool's output, the Matrix Market writer) write to a hidden
// temporary beside the target and rename it over the target on success; each
// registers its temporary here while it exists. A program that wants those
// removed when SIGINT, SIGTERM or SIGHUP ends it calls
// remove_temporaries_on_signals() once (the tessera CLI does); the handler
// unlinks every registered temporary and re-raises the signal, so the exit
// status is the signal's. A signal the program ignores stays ignored.
#pragma once

#include <string>

namespace tessera {

// A slot for `path` until release_pending_temporary(slot); -1 when all
// slots are taken (that temporary is then not removed on a signal).
int register_pending_temporary(const std::string& path) noexcept;
void release_pending_temporary(int slot) noexcept;

// Installs the handler (once per process; later calls do nothing).
void remove_temporaries_on_signals();

}  // namespace tessera
