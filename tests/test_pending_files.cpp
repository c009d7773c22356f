// tessera/core/pending_files.hpp: a registered temporary is removed when a
// signal ends the process, a released one is kept, and the process still
// dies of the signal. Each case runs in a forked child.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tessera/core/pending_files.hpp"

namespace {

namespace fs = std::filesystem;

fs::path make_file(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::ofstream(p) << "partial output";
  return p;
}

// Runs body in a child that then raises sig; returns the child's wait status.
template <class Body>
int in_child_then_raise(int sig, Body body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    body();
    ::raise(sig);
    ::_exit(0);  // reached only if the signal did not end the child
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(PendingFiles, SignalRemovesRegisteredTemporariesOnly) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const fs::path pending = make_file(".pending-" + std::to_string(sig));
    const fs::path released = make_file(".released-" + std::to_string(sig));
    const int status = in_child_then_raise(sig, [&] {
      tessera::remove_temporaries_on_signals();
      const int kept = tessera::register_pending_temporary(released.string());
      tessera::release_pending_temporary(kept);
      (void)tessera::register_pending_temporary(pending.string());
    });
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "signal " << sig;
    EXPECT_FALSE(fs::exists(pending)) << "signal " << sig;
    EXPECT_TRUE(fs::exists(released)) << "signal " << sig;
    fs::remove(pending);
    fs::remove(released);
  }
}

TEST(PendingFiles, WithoutTheHandlerNothingIsRemoved) {
  const fs::path pending = make_file(".no-handler");
  const int status =
      in_child_then_raise(SIGTERM, [&] { (void)tessera::register_pending_temporary(pending.string()); });
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  EXPECT_TRUE(fs::exists(pending));
  fs::remove(pending);
}

TEST(PendingFiles, SlotsAreReusedAndBounded) {
  std::vector<int> slots;
  for (int i = 0; i < 64; ++i) slots.push_back(tessera::register_pending_temporary("/nonexistent/x" + std::to_string(i)));
  int taken = 0;
  for (int s : slots) taken += s >= 0;
  EXPECT_GT(taken, 0);
  EXPECT_LT(taken, 64);  // a fixed number of slots: the rest get -1
  for (int s : slots) tessera::release_pending_temporary(s);
  const int again = tessera::register_pending_temporary("/nonexistent/y");
  EXPECT_GE(again, 0);
  tessera::release_pending_temporary(again);
}

}  // namespace
