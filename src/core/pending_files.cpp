// The temporaries of writes in progress (tessera/core/pending_files.hpp), for
// the SIGINT/SIGTERM/SIGHUP handler that removes them: a ^C must not leave a
// hidden file as large as the output behind. The handler may run at any instruction of any thread, so the paths
// live in static buffers (no allocation) guarded by lock-free atomics, and the
// handler only calls unlink(2) and re-raises (both async-signal-safe).
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <mutex>

#include "tessera/core/pending_files.hpp"

namespace tessera {
namespace {

// Concurrent outputs of one process (library users may run several).
constexpr std::size_t MAX_PENDING = 16;
enum SlotState : int { FREE = 0, FILLING = 1, READY = 2 };

struct PendingSlot {
  std::atomic<int> state{FREE};
  char path[PATH_MAX] = {};
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

std::array<PendingSlot, MAX_PENDING> g_pending;

extern "C" void unlink_pending_and_reraise(int sig) {
  for (PendingSlot& s : g_pending)
    if (s.state.load(std::memory_order_acquire) == READY) (void)::unlink(s.path);
  // SA_RESETHAND restored the default action: the re-raised signal ends the
  // process as it would have without us (exit status, core dumps).
  (void)::raise(sig);
}

}  // namespace

int register_pending_temporary(const std::string& path) noexcept {
  if (path.size() >= PATH_MAX) return -1;
  for (std::size_t i = 0; i < MAX_PENDING; ++i) {
    int expected = FREE;
    if (!g_pending[i].state.compare_exchange_strong(expected, FILLING, std::memory_order_acq_rel)) continue;
    std::memcpy(g_pending[i].path, path.c_str(), path.size() + 1);
    g_pending[i].state.store(READY, std::memory_order_release);
    return static_cast<int>(i);
  }
  return -1;  // more concurrent outputs than slots: that one is not cleaned on a signal
}

void release_pending_temporary(int slot) noexcept {
  if (slot >= 0 && static_cast<std::size_t>(slot) < MAX_PENDING)
    g_pending[static_cast<std::size_t>(slot)].state.store(FREE, std::memory_order_release);
}

void remove_temporaries_on_signals() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_handler = unlink_pending_and_reraise;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      // A signal the caller ignores (nohup, a shell's background job) stays ignored.
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      (void)::sigaction(sig, &sa, nullptr);
    }
  });
}

}  // namespace tessera
