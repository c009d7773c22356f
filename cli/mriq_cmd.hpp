// `tessera mriq IN.bin OUT.bin`: the MRI-Q Q vector of a k-space file in the
// classic benchmark's binary layout, through tessera::mri_q. docs/cli.md
// ("tessera mriq").
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace tessera::cli {

struct MriqArgs {
  std::string in, out;
  std::string variant;  // empty: the API's pick
};

CLI::App* add_mriq_command(CLI::App& app, MriqArgs& args);
int mriq_cmd(const MriqArgs& args);

}  // namespace tessera::cli
