// `tessera traces IN OUT ...`: parses the options, runs tessera::traces, and
// prints what it read, where the scan ran and the throughput. Notices (no
// GPU, non-finite IBM output) go to stderr; errors propagate to main().
#include "traces_cmd.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>

#include "arguments.hpp"
#include "tessera/apps/traces.hpp"
#include "tessera/core/error.hpp"

namespace tessera::cli {
namespace {

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
  cmd->add_option("--variant", a.variant, "batched_scan variant by name (cpu_* run on the host; default: the best "
                                          "GPU variant, or cpu_openmp without a GPU)");
  return cmd;
}

int traces_cmd(const TracesArgs& a) {
  traces::TraceScanOptions scan;
  scan.direction = parse_direction(a.direction);
  const auto accum = parse_accum_option(a.accum);
  require(accum.has_value(), fmt::format("--accum: unknown accumulator '{}' (native, double, kahan, dfloat)", a.accum));
  scan.accum = *accum;
  scan.exclusive = a.exclusive;
  scan.variant = a.variant;
  const traces::FileOptions file{.raw_traces = a.traces, .raw_samples = a.samples, .batch_traces = a.batch_traces,
                                     .force_raw = a.force_raw,
                                     .out_format = parse_out_format(a.out_format)};

  // ^C or a kill mid-run: remove the temporary (as large as OUT), then die of the signal.
  traces::remove_temporaries_on_signals();
  if (a.variant.empty() && !traces::gpu_present())
    fmt::print(std::cerr, "tessera traces: no GPU found: scanning on the host with cpu_openmp\n");
  const traces::Report r = traces::scan_file(a.in, a.out, scan, file);

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
  return 0;
}

}  // namespace tessera::cli
