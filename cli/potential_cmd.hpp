// `tessera potential MOL.pqr OUT.dx`: the electrostatic potential of a PQR
// file's charges on a lattice around them, written as OpenDX. docs/cli.md
// ("tessera potential").
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace tessera::cli {

struct PotentialArgs {
  std::string pqr, dx;
  float spacing = 0.5f;
  float padding = 5.0f;
  std::optional<float> cutoff;  // Å; none: the direct sum
};

CLI::App* add_potential_command(CLI::App& app, PotentialArgs& args);
int potential_cmd(const PotentialArgs& args);

}  // namespace tessera::cli
