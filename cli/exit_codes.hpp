// The exit codes of `tessera` (docs/cli.md), one scheme for every command:
// scripts test `$? -eq 1` for a wrong answer and `$? -eq 3` for "no GPU".
#pragma once

#include "tessera/core/error.hpp"

namespace tessera::cli {

enum Exit : int {
  exit_ok = 0,
  exit_check_failed = 1,  // a variant gave a wrong answer (verify, bench)
  exit_usage = 2,         // arguments, selection, sizes, paths, input files; also "nothing could run"
  exit_runtime = 3,       // the run itself failed: CUDA errors, out of memory, no GPU for `device`
};

// What the user asked for cannot be done as asked: exit_usage. Thrown before
// a run spends its time, so that the mistake costs nothing.
class UsageError : public Error {
 public:
  using Error::Error;
};

}  // namespace tessera::cli
