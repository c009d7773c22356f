// Runs the built `tessera` binary (beside the test binary, else
// TESSERA_CLI_PATH, set by tests/CMakeLists.txt) from the tests: the CLI's
// exit codes, messages and signal handling are behaviour of the binary, so
// they are tested on the binary itself.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace traces_test {

struct CliResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;      // the signal that ended it, 0 when it exited
  std::string output;  // stdout and stderr together
};

// The `tessera` beside this test binary (both in bin/, in the build tree
// and in the GPU machine's carried copy), else the build's TESSERA_CLI_PATH.
inline std::string cli_path() {
  char self[4096];
  const ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (len > 0) {
    std::string beside(self, static_cast<std::size_t>(len));
    beside = beside.substr(0, beside.rfind('/') + 1) + "tessera";
    if (::access(beside.c_str(), X_OK) == 0) return beside;
  }
  return TESSERA_CLI_PATH;
}

// Starts `tessera ARGS...` with stdout and stderr going to `log`, with this
// process's environment plus `env` ("NAME=value" each).
inline pid_t spawn_cli(const std::vector<std::string>& args, const std::string& log,
                       const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv_s{cli_path()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<std::string> env_s(env);
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + argv_s[0]);
  return pid;
}

inline CliResult wait_cli(pid_t pid, const std::string& log) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  CliResult r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  std::ifstream f(log);
  std::stringstream ss;
  ss << f.rdbuf();
  r.output = ss.str();
  return r;
}

// Runs `tessera ARGS...` to completion; `log` is a scratch file outside the
// directory under test.
inline CliResult run_cli(const std::vector<std::string>& args, const std::string& log,
                         const std::vector<std::string>& env = {}) {
  return wait_cli(spawn_cli(args, log, env), log);
}

}  // namespace traces_test
