// `tessera spmv A.mtx`: y = A x for a Matrix Market matrix, in every sparse
// format of the spmv ladder (or one): footprint, conversion time, SpMV time
// and GB/s, each y checked against the long-double reference, and the
// format the API picks. docs/cli.md ("tessera spmv").
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace tessera::cli {

struct SpmvArgs {
  std::string matrix, x, out;
  std::string format = "all";
  std::string type = "float";
  int repeat = 10;
};

CLI::App* add_spmv_command(CLI::App& app, SpmvArgs& args);
int spmv_cmd(const SpmvArgs& args);

}  // namespace tessera::cli
