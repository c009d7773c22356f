// `tessera traces IN OUT ...`: parses the options, runs tessera::traces, and
// prints what it read, where the scan ran and the throughput; with --verbose,
// every phase on the process's clock and the run against a plain copy.
// Notices (no GPU, non-finite IBM output) go to stderr; errors propagate to
// main(). A successful run ends the process at once (see exit_now).
#include "traces_cmd.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>

#include "arguments.hpp"
#include "tessera/apps/traces.hpp"
#include "tessera/core/error.hpp"

namespace tessera::cli {
namespace {

double started_s = 0;  // when this command began, on the process's clock

ScanDirection parse_direction(const std::string& s) {
  if (s == "forward") return ScanDirection::forward;
  if (s == "backward") return ScanDirection::backward;
  if (s == "forward_backward") return ScanDirection::forward_backward;
  throw Error(fmt::format("--direction: unknown direction '{}' (forward, backward, forward_backward)", s));
}

traces::OutFormat parse_out_format(const std::string& s) {
  if (s.empty()) return traces::OutFormat::automatic;
  if (s == "same") return traces::OutFormat::same;
  if (s == "ieee") return traces::OutFormat::ieee;
  if (s == "ibm") return traces::OutFormat::ibm;
  if (s == "double") return traces::OutFormat::ieee_double;
  throw Error(fmt::format("--out-format: unknown format '{}' (same, ieee, ibm, double)", s));
}

traces::ScanDevice parse_device(const std::string& s) {
  if (s == "auto") return traces::ScanDevice::automatic;
  if (s == "host") return traces::ScanDevice::host;
  if (s == "gpu") return traces::ScanDevice::gpu;
  throw Error(fmt::format("--device: unknown device '{}' (auto, host, gpu)", s));
}

// Where the scan ran and why: the user's choice (--variant, --device) or the
// placement's estimate from IN's sizes and the host's threads (never from
// asking the driver).
std::string where_and_why(const traces::Report& r) {
  return fmt::format("{}{} ({})", r.on_gpu ? "GPU " : "", r.device, r.placement);
}

// The run's own steps in order of start, then each batch's read, scan and
// write (the first and last batches: the middle ones look alike).
void print_phases(const traces::Report& r) {
  fmt::print("phases  seconds since the process started (exec; before main to 10 ms):\n");
  fmt::print("  {:6.3f} - {:6.3f}  {:6.3f} s  exec to this command (loader, the libraries' static set-up, options)\n",
             0.0, started_s, started_s);
  std::map<long, std::map<std::string, const traces::Phase*>> batches;
  for (const traces::Phase& p : r.phases) {
    if (p.batch >= 0)
      batches[p.batch][p.name] = &p;
    else
      fmt::print("  {:6.3f} - {:6.3f}  {:6.3f} s  {}\n", p.start_s, p.end_s, p.end_s - p.start_s, p.name);
  }
  if (batches.empty()) return;
  const auto span = [](const traces::Phase* p) {
    return p == nullptr ? std::string(13, ' ') : fmt::format("{:6.3f}-{:6.3f}", p->start_s, p->end_s);
  };
  constexpr long SHOWN = 12;
  const long n = static_cast<long>(batches.size());
  fmt::print("  batch  read           scan           write\n");
  for (const auto& [b, stages] : batches) {
    if (n > SHOWN && b == SHOWN / 2) fmt::print("  ... {} batches ...\n", n - SHOWN);
    if (n > SHOWN && b >= SHOWN / 2 && b < n - SHOWN / 2) continue;
    const auto get = [&](const char* k) -> const traces::Phase* {
      const auto it = stages.find(k);
      return it == stages.end() ? nullptr : it->second;
    };
    fmt::print("  {:5}  {}  {}  {}\n", b, span(get("read")), span(get("scan")), span(get("write")));
  }
}

// The GPU's start against the run: what it cost and how much of it the run
// waited for (the rest was hidden behind opening IN and the first reads).
void print_gpu_start(const traces::Report& r) {
  double driver = -1, context = -1, waited = -1;
  for (const traces::Phase& p : r.phases) {
    const double d = p.end_s - p.start_s;
    if (p.name.starts_with("GPU start: driver")) driver = d;
    if (p.name.starts_with("GPU start: context")) context = d;
    if (p.name == "wait for the GPU's context" || p.name.starts_with("GPU present?"))
      waited = std::max(waited, 0.0) + d;
  }
  if (driver < 0 || context < 0 || waited < 0) {
    if (!r.on_gpu)
      fmt::print("gpu     {}\n", traces::cuda_driver_loaded()
                                    ? "not used; the CUDA driver was loaded all the same"
                                    : "not started: the CUDA driver was never loaded (the host path does not touch it)");
    return;
  }
  fmt::print("gpu     start {:.3f} s in the background (driver {:.3f} s, context {:.3f} s); the run waited {:.3f} s "
             "of it\n",
             driver + context, driver, context, waited);
}

// Everything the run had to do is done and on disk: skip the teardown that
// exit() would do (the CUDA runtime's context and the pinned pages: tens of
// ms that change nothing at exit). Output streams are flushed first.
[[noreturn]] void exit_now(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

}  // namespace

CLI::App* add_traces_command(CLI::App& app, TracesArgs& a) {
  auto* cmd = app.add_subcommand(
      "traces", "forward/backward cumulative sums over every trace of a SEG-Y (or raw float32) file, headers kept");
  cmd->add_option("IN", a.in, "input: SEG-Y (rev 0/1/2; IBM, IEEE float/double or integer samples) or raw float32")
      ->required();
  cmd->add_option("OUT", a.out, "output, same layout as IN (may be IN: written to a temporary, renamed on success)")
      ->required();
  cmd->add_option("--direction", a.direction, "forward, backward or forward_backward (the backward pass scans the "
                                              "forward result)")
      ->capture_default_str();
  cmd->add_flag("--exclusive", a.exclusive, "exclusive scans (each output leaves its own sample out)");
  cmd->add_option("--accum", a.accum, "accumulator: native (float), double, kahan, dfloat")->capture_default_str();
  cmd->add_option("--traces", a.traces, "raw float32 input: number of traces (with --samples)")
      ->check(positive_integer());
  cmd->add_option("--samples", a.samples, "raw float32 input: samples per trace (native byte order: little-endian "
                                          "on x86-64/ARM64)")
      ->check(positive_integer());
  cmd->add_flag("--raw", a.force_raw, "with --traces/--samples: read IN as raw float32 even when it looks like "
                                      "SEG-Y (refused otherwise)");
  cmd->add_option("--out-format", a.out_format, "SEG-Y output samples: same (the input's), ieee, ibm or double "
                                                "(default: same for float input, ieee for integer input)");
  cmd->add_option("--batch-traces", a.batch_traces, "traces per batch (default: sized from free host/GPU memory)")
      ->check(positive_integer());
  cmd->add_option("--variant", a.variant, "batched_scan variant by name (cpu_* run on the host, the others on the "
                                          "GPU; default: cpu_openmp on the host, the best variant on a GPU)");
  cmd->add_option("--device", a.device, "auto (the host when its threads keep up with the file's I/O, else the "
                                        "GPU), host or gpu")
      ->capture_default_str();
  cmd->add_flag("--verbose", a.verbose, "print every phase on the process's clock, then time a plain copy of IN "
                                        "beside OUT (removed after) and print the run against it (costs that copy)");
  return cmd;
}

namespace {
int traces_run(const TracesArgs& a);
}  // namespace

// The GPU, when the run places the scan there, is started by scan_file once
// IN's headers are read (the placement needs its sizes), in the background
// while the first batches are read.
int traces_cmd(const TracesArgs& a) {
  started_s = traces::seconds_since_start();
  return traces_run(a);
}

namespace {

int traces_run(const TracesArgs& a) {
  traces::TraceScanOptions scan;
  scan.direction = parse_direction(a.direction);
  const auto accum = parse_accum_option(a.accum);
  require(accum.has_value(), fmt::format("--accum: unknown accumulator '{}' (native, double, kahan, dfloat)", a.accum));
  scan.accum = *accum;
  scan.exclusive = a.exclusive;
  scan.variant = a.variant;
  scan.device = parse_device(a.device);
  const traces::FileOptions file{.raw_traces = a.traces, .raw_samples = a.samples, .batch_traces = a.batch_traces,
                                     .force_raw = a.force_raw,
                                     .out_format = parse_out_format(a.out_format)};

  // ^C or a kill mid-run: remove the temporary (as large as OUT), then die of the signal.
  traces::remove_temporaries_on_signals();
  const traces::Report r = traces::scan_file(a.in, a.out, scan, file);
  // After the run: asking before would wait for the driver's start, which
  // the run overlaps with opening and reading IN.
  if (r.placement == "no GPU found")
    fmt::print(std::cerr, "tessera traces: no GPU found: scanned on the host with cpu_openmp\n");

  fmt::print("input   {}: {}\n", a.in, r.input.describe());
  fmt::print("scan    {}, {}, accumulator {}, variant {} on {}, {} batch{} of up to {} traces\n",
             to_string(scan.direction), scan.exclusive ? "exclusive" : "inclusive", to_string(scan.accum), r.variant,
             r.on_gpu ? "GPU " + r.device : r.device, r.batches, r.batches == 1 ? "" : "es", r.batch_traces);
  fmt::print("time    {:.3f} s: read {:.3f} s, scan {:.3f} s, write {:.3f} s (the three overlap)\n", r.wall_s,
             r.read_s, r.compute_s, r.write_s);
  fmt::print("rate    {:.0f} traces/s, {:.1f} M samples/s, {:.3f} GB/s of float32 sample data ({:.1f} MB)\n",
             r.traces_per_s(), r.samples_per_s() / 1e6, r.gbps(), r.sample_bytes() / 1e6);
  if (r.input.segy)
    fmt::print("output  {}: format {} ({})\n", a.out, r.out_format, traces::format_name(r.out_format));
  else
    fmt::print("output  {}\n", a.out);
  if (r.nonfinite_ibm > 0)
    fmt::print(std::cerr,
               "tessera traces: warning: {} output samples were inf or NaN, which IBM float cannot hold: written as "
               "the largest IBM magnitude (+-7.2e75)\n",
               r.nonfinite_ibm);
  if (a.verbose) {
    fmt::print("where   {}\n", where_and_why(r));
    print_gpu_start(r);
    print_phases(r);
    fmt::print("  teardown skipped: the process ends at once (_Exit) once OUT is in place and this is printed\n");
    std::fflush(stdout);
    // OUT is in place: a failing yardstick is a warning, not a failed run.
    try {
      const double copy_s = traces::time_plain_copy(a.in, a.out);
      fmt::print("run {:.2f} s, plain copy {:.2f} s: {:.2f}\u00d7 copy\n", r.finished_s, copy_s,
                 copy_s > 0 ? r.finished_s / copy_s : 0.0);
    } catch (const Error& e) {
      fmt::print(std::cerr, "tessera traces: warning: no plain copy to compare with: {}\n", e.what());
    }
  }
  exit_now(0);
}

}  // namespace

}  // namespace tessera::cli
