// The `tessera` command line: list, verify, bench, device, traces. Shared by
// the `tessera` executable (main.cpp) and the lab's `tessera-lab` (lab/main.cpp).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "harness/registry.hpp"
#include "harness/device_info.hpp"
#include "harness/runner.hpp"
#include "tessera/core/error.hpp"
#include "cli.hpp"
#include "traces_cmd.hpp"

namespace {

using namespace tessera;
using namespace tessera::harness;

struct Filters {
  std::string selector, type, op, accum, json, input;
  std::uint64_t seed = RunOptions{}.seed;
  std::size_t size = 0;
  bool large = false, quick = false;
};

void add_filters(CLI::App* cmd, Filters& f, bool verify) {
  cmd->add_option("selector", f.selector, "PATTERN, PATTERN/VARIANT or PATTERN,PATTERN,... (default: everything)");
  cmd->add_option("--seed", f.seed, "seed of the input generators");
  cmd->add_option("--size", f.size, "problem size (elements) instead of the defaults")->check(CLI::PositiveNumber);
  cmd->add_option("--type", f.type, "only this element type (float, double, int32, int64)");
  cmd->add_option("--op", f.op, "only this operator (sum, min, max)");
  cmd->add_option("--accum", f.accum, "only this accumulator (native, double, kahan, dfloat)");
  cmd->add_option("--json", f.json, "write the results as JSON to this file");
  cmd->add_option("--input", f.input, "byte-stream patterns (histogram, unique) use this file's bytes, repeated to the problem size")
      ->check(CLI::ExistingFile);
  if (verify) {
    cmd->add_flag("--large", f.large, "also verify sizes past 2^31 elements (GPU memory permitting)");
    cmd->add_flag("--quick", f.quick, "small sizes only (for compute-sanitizer runs)");
  }
}

RunOptions to_options(const Filters& f, bool gpu) {
  RunOptions o;
  o.seed = f.seed;
  if (f.size) o.size = f.size;
  o.large = f.large;
  o.quick = f.quick;
  o.input = f.input;
  o.gpu = gpu;
  if (!f.type.empty()) {
    o.type = parse_dtype(f.type);
    require(o.type.has_value(), fmt::format("--type: unknown element type '{}' (float, double, int32, int64)", f.type));
  }
  if (!f.op.empty()) {
    o.op = parse_op(f.op);
    require(o.op.has_value(), fmt::format("--op: unknown operator '{}' (sum, min, max)", f.op));
  }
  if (!f.accum.empty()) {
    o.accum = parse_accum(f.accum);
    require(o.accum.has_value(), fmt::format("--accum: unknown accumulator '{}' (native, double, kahan, dfloat)", f.accum));
  }
  return o;
}

void say_device(const DeviceInfo& d) {
  if (d.present) {
    fmt::print("device: {} ({} SMs, cc {}.{}), copy {:.0f} GB/s, FP32 {:.0f} GFLOP/s{}\n", d.name, d.sm_count,
               d.cc_major, d.cc_minor, d.copy_gbps, d.fp32_gflops, d.ceilings_cached ? " (cached)" : "");
  } else {
    fmt::print("no GPU found ({}): running the CPU variants only, at CPU sizes; host copy {:.1f} GB/s, {} threads\n",
               d.why_absent, d.host_copy_gbps, d.host_threads);
  }
}

int list_cmd(const std::string& pattern) {
  bool any = false;
  for (const auto& p : patterns()) {
    if (!pattern.empty() && p->name() != pattern) continue;
    any = true;
    fmt::print("{}\n", p->name());
    for (const auto& v : p->variants())
      fmt::print("  {:>2}  {:<26} {:<5} {:<9} {:<3}  {}\n", v.step, v.name, to_string(v.backend), to_string(v.role),
                 v.deterministic ? "det" : "nd", v.adds);
  }
  if (!any) throw Error(fmt::format("unknown pattern '{}'", pattern));
  fmt::print("(det: bitwise-identical results run after run; nd: not)\n");
  return 0;
}

int device_cmd(bool remeasure) {
  const DeviceInfo d = query_device(true, remeasure);
  if (!d.present) {
    say_device(d);
    return 0;
  }
  fmt::print("name            {}\nuuid            {}\nSMs             {}\ncompute cap.    {}.{}\n", d.name, d.uuid,
             d.sm_count, d.cc_major, d.cc_minor);
  fmt::print("memory          {:.1f} GiB ({:.1f} GiB free)\nL2              {:.1f} MiB\n",
             d.total_mem / 1073741824.0, d.free_mem / 1073741824.0, d.l2_bytes / 1048576.0);
  fmt::print("copy bandwidth  {:.1f} GB/s (device-to-device, read + write){}\n", d.copy_gbps,
             d.ceilings_cached ? " [cached]" : "");
  fmt::print("FP32 FMA rate   {:.1f} GFLOP/s{}\n", d.fp32_gflops, d.ceilings_cached ? " [cached]" : "");
  return 0;
}

int run_cmd(const Filters& f, bool bench, const std::string& command_line) {
  const Selector sel = parse_selector(f.selector);
  const DeviceInfo dev = query_device(true);
  say_device(dev);
  RunOptions opt = to_options(f, dev.present);
  opt.headline = bench && f.selector.empty() && !f.size && f.type.empty() && f.op.empty() && f.accum.empty() &&
                 f.input.empty();
  const auto t0 = std::chrono::steady_clock::now();
  Report report = bench ? run_bench(sel, opt, dev, std::cout) : run_verify(sel, opt, dev, std::cout);
  report.command = command_line;
  if (!f.json.empty()) write_json(report, f.json);
  const auto checked = std::count_if(report.results.begin(), report.results.end(),
                                     [](const BenchResult& r) { return !r.skipped; });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("\n{}: {} checks, {} failed in {:.1f} s{}{}\n", bench ? "bench" : "verify", checked, report.failures,
             seconds, opt.headline ? " (headline problems of every pattern; `tessera bench PATTERN` for the full ladder)" : "",
             dev.present ? "" : " (no GPU: CPU variants only)");
  return report.failures == 0 ? 0 : 1;
}

}  // namespace

namespace tessera::cli {

int main(int argc, char** argv) {
  CLI::App app{"tessera: GPU parallel patterns, each as a verified, measured ladder of variants"};
  app.require_subcommand(1);
  std::string list_pattern;
  auto* list = app.add_subcommand("list", "print the registry of variants");
  list->add_option("pattern", list_pattern, "only this pattern");
  Filters verify_f, bench_f;
  auto* verify = app.add_subcommand("verify", "check every variant against the reference (exit 1 on any failure)");
  add_filters(verify, verify_f, true);
  auto* bench = app.add_subcommand("bench", "check and time every variant; print the ladder tables");
  add_filters(bench, bench_f, false);
  bool remeasure = false;
  auto* device = app.add_subcommand("device", "GPU name, SMs, memory and measured ceilings");
  device->add_flag("--remeasure", remeasure, "measure the ceilings again instead of reading the cache");
  tessera::cli::TracesArgs traces_args;
  auto* traces = tessera::cli::add_traces_command(app, traces_args);
  CLI11_PARSE(app, argc, argv);

  std::string command_line = "tessera";
  for (int i = 1; i < argc; ++i) command_line += fmt::format(" {}", argv[i]);
  try {
    if (*list) return list_cmd(list_pattern);
    if (*device) return device_cmd(remeasure);
    if (*verify) return run_cmd(verify_f, false, command_line);
    if (*bench) return run_cmd(bench_f, true, command_line);
    if (*traces) return tessera::cli::traces_cmd(traces_args);
  } catch (const std::exception& e) {
    fmt::print(std::cerr, "tessera: error: {}\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace tessera::cli
