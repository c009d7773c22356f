// The `tessera` command line: list, verify, bench, device, traces, spmv, stencil, conv, potential, mriq. Shared by
// the `tessera` executable (main.cpp) and the lab's `tessera-lab` (lab/main.cpp).
// Every way out goes through one exit-code scheme (exit_codes.hpp, docs/cli.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cstring>
#include <iostream>
#include <new>

#include "cli.hpp"
#include "conv_cmd.hpp"
#include "exit_codes.hpp"
#include "harness/device_info.hpp"
#include "list_cmd.hpp"
#include "mriq_cmd.hpp"
#include "potential_cmd.hpp"
#include "run_cmd.hpp"
#include "spmv_cmd.hpp"
#include "stencil_cmd.hpp"
#include "traces_cmd.hpp"

namespace {

using namespace tessera;
using namespace tessera::cli;

constexpr const char* COMMANDS = "list, verify, bench, device, traces, spmv, stencil, conv, potential, mriq";

// Exits 3 without a GPU, so that scripts can test for one.
int device_cmd(bool remeasure) {
  const harness::DeviceInfo d = harness::query_device(true, remeasure);
  if (!d.present) {
    fmt::print(std::cerr, "tessera device: no GPU found: {}\n", d.why_absent);
    return exit_runtime;
  }
  fmt::print("name            {}\nuuid            {}\nSMs             {}\ncompute cap.    {}.{}\n", d.name, d.uuid,
             d.sm_count, d.cc_major, d.cc_minor);
  fmt::print("memory          {:.1f} GiB ({:.1f} GiB free)\nL2              {:.1f} MiB\n",
             d.total_mem / 1073741824.0, d.free_mem / 1073741824.0, d.l2_bytes / 1048576.0);
  fmt::print("copy bandwidth  {:.1f} GB/s (device-to-device, read + write){}\n", d.copy_gbps,
             d.ceilings_cached ? " [cached]" : "");
  fmt::print("FP32 FMA rate   {:.1f} GFLOP/s{}\n", d.fp32_gflops, d.ceilings_cached ? " [cached]" : "");
  fmt::print("MUFU rate       {:.1f} G ops/s (rsqrtf; sin, cos and exp2 share the unit){}\n", d.mufu_gops,
             d.ceilings_cached ? " [cached]" : "");
  return exit_ok;
}

// CLI11 says "The following arguments were not expected: foo" for a mistyped
// command and "A subcommand is required" for none; name the command instead.
std::string command_mistake(const CLI::App& app, int argc, char** argv) {
  if (argc < 2) return fmt::format("a command is required; commands: {}", COMMANDS);
  const std::string first = argv[1];
  if (first == "-h" || first == "--help") return {};
  if (first.starts_with("-"))
    return fmt::format("'{}' comes before the command: options follow it (tessera COMMAND [OPTIONS]); commands: {}",
                       first, COMMANDS);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->get_name() == first) return {};
  return fmt::format("unknown command '{}'; commands: {}", first, COMMANDS);
}

int usage_error(const std::string& message) {
  fmt::print(std::cerr, "tessera: error: {}\nRun 'tessera --help' (or 'tessera COMMAND --help') for more.\n", message);
  return exit_usage;
}

}  // namespace

namespace tessera::cli {

int main(int argc, char** argv) {
  CLI::App app{"tessera: GPU parallel patterns, each as a verified, measured ladder of variants.\n"
               "Exit codes: 0 ok, 1 a check failed, 2 usage or input error (or nothing could run), 3 runtime or GPU "
               "error (docs/cli.md)"};
  app.require_subcommand(1);
  std::string list_selector;
  bool list_long = false;
  auto* list = app.add_subcommand("list", "print the registry of variants (`adds` cut to the terminal width)");
  list->add_option("selector", list_selector, "only this PATTERN, or PATTERN/VARIANT in full");
  list->add_flag("--long", list_long, "print `adds` in full");
  Filters verify_f, bench_f;
  auto* verify = app.add_subcommand("verify", "check every variant against the reference (exit 1 on any failure)");
  add_filters(verify, verify_f, true);
  auto* bench = app.add_subcommand("bench", "check and time every variant; print the ladder tables");
  add_filters(bench, bench_f, false);
  bool remeasure = false;
  auto* device = app.add_subcommand("device", "GPU name, SMs, memory and measured ceilings (exit 3 without a GPU)");
  device->add_flag("--remeasure", remeasure, "measure the ceilings again instead of reading the cache");
  TracesArgs traces_args;
  auto* traces = add_traces_command(app, traces_args);
  SpmvArgs spmv_args;
  auto* spmv = add_spmv_command(app, spmv_args);
  StencilArgs stencil_args;
  auto* stencil = add_stencil_command(app, stencil_args);
  MriqArgs mriq_args;
  auto* mriq = add_mriq_command(app, mriq_args);
  ConvArgs conv_args;
  auto* conv = add_conv_command(app, conv_args);
  PotentialArgs potential_args;
  auto* potential = add_potential_command(app, potential_args);

  if (const std::string mistake = command_mistake(app, argc, argv); !mistake.empty()) return usage_error(mistake);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }

  std::string command_line = "tessera";
  for (int i = 1; i < argc; ++i) command_line += fmt::format(" {}", argv[i]);
  try {
    if (*list) return list_cmd(list_selector, list_long);
    if (*device) return device_cmd(remeasure);
    if (*verify) return run_cmd(verify_f, false, command_line);
    if (*bench) return run_cmd(bench_f, true, command_line);
    if (*spmv) return spmv_cmd(spmv_args);  // input errors are UsageErrors; the rest is the run's (exit 3)
    if (*stencil) return stencil_cmd(stencil_args);  // the same
    if (*mriq) return mriq_cmd(mriq_args);  // likewise
    if (*conv) return conv_cmd(conv_args);  // likewise
    if (*potential) return potential_cmd(potential_args);  // the same
    if (*traces) {
      try {
        return traces_cmd(traces_args);
      } catch (const Error& e) {  // its files and options: input errors
        throw UsageError(e.what());
      }
    }
  } catch (const UsageError& e) {
    return usage_error(e.what());
  } catch (const std::bad_alloc&) {
    fmt::print(std::cerr, "tessera: error: out of host memory\n");
    return exit_runtime;
  } catch (const std::exception& e) {
    fmt::print(std::cerr, "tessera: error: {}\n", e.what());
    return exit_runtime;
  }
  return exit_ok;
}

}  // namespace tessera::cli
