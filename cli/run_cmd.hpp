// `tessera verify` and `tessera bench`: their options, the checks made before
// a run spends its time (selection, filters, --size against this machine,
// --json writable), the run, and the exit code (exit_codes.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/problem.hpp"

namespace tessera::cli {

struct Filters {
  std::string selector, type, op, accum, json, input;
  std::uint64_t seed = 0;
  std::size_t size = 0;
  bool large = false, quick = false, skip_vendor = false;
};

void add_filters(CLI::App* cmd, Filters& f, bool verify);
int run_cmd(const Filters& f, bool bench, const std::string& command_line);

// "elements (reduce, scan, ...); matrix side (M = N = K) (gemm); ...": what
// --size means to each of `selected`.
std::string size_meanings(const std::vector<const harness::Pattern*>& selected);

}  // namespace tessera::cli
