#include "run_cmd.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <vector>

#include "arguments.hpp"
#include "exit_codes.hpp"
#include "harness/device_info.hpp"
#include "harness/registry.hpp"
#include "harness/runner.hpp"
#include "harness/size_check.hpp"

namespace tessera::cli {

namespace {

using namespace tessera::harness;

RunOptions to_options(const Filters& f) {
  RunOptions o;
  o.seed = f.seed;
  if (f.size) o.size = f.size;
  o.large = f.large;
  o.quick = f.quick;
  o.skip_vendor = f.skip_vendor;
  o.input = f.input;
  if (!f.type.empty()) {
    o.type = parse_dtype(f.type);
    if (!o.type) throw UsageError(fmt::format("--type: unknown element type '{}' (float, double, int32, int64)", f.type));
  }
  if (!f.op.empty()) {
    o.op = parse_op(f.op);
    if (!o.op) throw UsageError(fmt::format("--op: unknown operator '{}' (sum, min, max)", f.op));
  }
  if (!f.accum.empty()) {
    o.accum = parse_accum_option(f.accum);
    if (!o.accum)
      throw UsageError(fmt::format("--accum: unknown accumulator '{}' (native or float, double, kahan, dfloat)", f.accum));
  }
  return o;
}

void say_device(const DeviceInfo& d) {
  if (d.present) {
    fmt::print("device: {} ({} SMs, cc {}.{}), copy {:.0f} GB/s, FP32 {:.0f} GFLOP/s, MUFU {:.0f} G ops/s{}\n",
               d.name, d.sm_count, d.cc_major, d.cc_minor, d.copy_gbps, d.fp32_gflops, d.mufu_gops,
               d.ceilings_cached ? " (cached)" : "");
  } else {
    fmt::print("no GPU found ({}): running the CPU variants only, at CPU sizes; host copy {:.1f} GB/s, {} threads\n",
               d.why_absent, d.host_copy_gbps, d.host_threads);
  }
}

// --size N, before anything is built: what N means to each selected pattern
// (printed), and a refusal naming every pattern that cannot run it here.
void check_size(const std::vector<const Pattern*>& selected, const RunOptions& opt, bool bench, const DeviceInfo& dev) {
  fmt::print("--size {}: {}\n", *opt.size, size_meanings(selected));
  const auto refused = refuse_sizes(selected, opt, bench, dev);
  if (refused.empty()) return;
  std::string text = fmt::format("--size {} cannot run here:", *opt.size);
  for (const auto& r : refused) text += fmt::format("\n  {} ({}): {}", r.pattern, r.problem, r.why);
  std::vector<std::string> fit;
  for (const Pattern* p : selected)
    if (std::none_of(refused.begin(), refused.end(), [&](const Refusal& r) { return r.pattern == p->name(); }))
      fit.emplace_back(p->name());
  if (!fit.empty()) text += fmt::format("\n  the patterns that can: {}", fmt::join(fit, ","));
  throw UsageError(text);
}

// Without a GPU, a selection of CUDA variants only cannot run: say so before
// building any problem's inputs (the runner would find out problem by problem).
void refuse_cuda_only(const Selector& sel) {
  std::vector<std::string> cuda;
  for (const Pattern* p : selected_patterns(sel))
    for (const auto& v : p->variants()) {
      if (!sel.variant.empty() && v.name != sel.variant) continue;
      if (v.backend != Backend::cuda) return;
      cuda.push_back(fmt::format("{}/{}", p->name(), v.name));
    }
  if (cuda.empty()) return;
  const std::string what = cuda.size() == 1 ? cuda.front() + " is a CUDA variant"
                                            : fmt::format("the {} selected variants are CUDA variants", cuda.size());
  throw UsageError(fmt::format("no variant of the selection can run here: {} and no GPU was found", what));
}

// Why a run checked nothing, for the message and exit_usage.
std::string nothing_ran(const Report& report, const Filters& f) {
  if (report.problems == 0)
    return fmt::format("no problem of the selection matches the filters{}{}{} (reduce and scan take --accum other "
                       "than native for float sums only)",
                       f.type.empty() ? "" : " --type " + f.type, f.op.empty() ? "" : " --op " + f.op,
                       f.accum.empty() ? "" : " --accum " + f.accum);
  std::string why;
  for (const auto& n : report.not_run) why += (why.empty() ? "" : "; ") + n.why;
  return "no variant of the selection can run here: " + why;
}

}  // namespace

void add_filters(CLI::App* cmd, Filters& f, bool verify) {
  f.seed = RunOptions{}.seed;
  cmd->add_option("selector", f.selector, "PATTERN, PATTERN/VARIANT or PATTERN,PATTERN,... (default: everything)");
  cmd->add_option("--seed", f.seed, "seed of the input generators")->check(non_negative_integer());
  cmd->add_option("--size", f.size, "problem size instead of the defaults; per pattern: " + size_meanings(selected_patterns({})))
      ->check(positive_integer());
  cmd->add_option("--type", f.type, "only this element type (float, double, int32, int64)");
  cmd->add_option("--op", f.op, "only this operator (sum, min, max)");
  cmd->add_option("--accum", f.accum, "only this accumulator (native, i.e. float for float data; double, kahan, dfloat)");
  cmd->add_option("--json", f.json, "write the results as JSON to this file (checked writable before the run)");
  cmd->add_option("--input", f.input, "byte-stream patterns (histogram, unique) use this file's bytes, repeated to the problem size")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--skip-vendor", f.skip_vendor,
                "leave the vendor baselines out (sanitizer runs: check tessera's kernels only)");
  if (verify) {
    cmd->add_flag("--large", f.large, "also verify sizes past 2^31 elements (GPU memory permitting)");
    cmd->add_flag("--quick", f.quick, "small sizes only (for compute-sanitizer runs)");
  }
}

std::string size_meanings(const std::vector<const harness::Pattern*>& selected) {
  std::map<std::string, std::vector<std::string>> by_meaning;  // meaning -> patterns
  for (const Pattern* p : selected) by_meaning[std::string(p->size_meaning())].emplace_back(p->name());
  std::string out;
  for (const auto& [meaning, names] : by_meaning)
    out += fmt::format("{}{} ({})", out.empty() ? "" : "; ", meaning, fmt::join(names, ", "));
  return out;
}

int run_cmd(const Filters& f, bool bench, const std::string& command_line) {
  // Everything the user asked for is checked before the run spends its time.
  Selector sel;
  try {
    sel = parse_selector(f.selector);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  RunOptions opt = to_options(f);
  if (!f.json.empty()) {
    try {
      check_json_path(f.json);
    } catch (const Error& e) {
      throw UsageError(e.what());
    }
  }
  const DeviceInfo dev = query_device(true);
  say_device(dev);
  opt.gpu = dev.present;
  if (!dev.present) refuse_cuda_only(sel);
  if (opt.size) check_size(selected_patterns(sel), opt, bench, dev);
  opt.headline = bench && f.selector.empty() && !f.size && f.type.empty() && f.op.empty() && f.accum.empty() &&
                 f.input.empty();

  const auto t0 = std::chrono::steady_clock::now();
  Report report = bench ? run_bench(sel, opt, dev, std::cout) : run_verify(sel, opt, dev, std::cout);
  report.command = command_line;
  const auto checked = std::count_if(report.results.begin(), report.results.end(),
                                     [](const BenchResult& r) { return !r.skipped; });
  if (checked == 0) {
    fmt::print(std::cerr, "tessera {}: {}\n", bench ? "bench" : "verify", nothing_ran(report, f));
    return exit_usage;
  }
  if (!f.json.empty()) write_json(report, f.json);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& n : report.not_run)
    fmt::print("not run on {} problem{}: {}\n", n.problems, n.problems == 1 ? "" : "s", n.why);
  fmt::print("\n{}: {} checks, {} failed in {:.1f} s{}{}\n", bench ? "bench" : "verify", checked, report.failures,
             seconds, opt.headline ? " (headline problems of every pattern; `tessera bench PATTERN` for the full ladder)" : "",
             dev.present ? "" : " (no GPU: CPU variants only)");
  return report.failures == 0 ? exit_ok : exit_check_failed;
}

}  // namespace tessera::cli
