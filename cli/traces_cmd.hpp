// `tessera traces`: forward/backward scans over every trace of a SEG-Y or raw
// float32 file (tessera::traces, include/tessera/apps/traces.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

namespace tessera::cli {

struct TracesArgs {
  std::string in, out;
  std::string direction = "forward_backward";
  std::string accum = "native";
  std::string variant;
  std::string device = "auto";  // auto, host, gpu
  std::string out_format;  // empty: the default for the input's format
  bool exclusive = false, force_raw = false, verbose = false;
  std::size_t traces = 0, samples = 0, batch_traces = 0;
};

CLI::App* add_traces_command(CLI::App& app, TracesArgs& args);
int traces_cmd(const TracesArgs& args);

}  // namespace tessera::cli
