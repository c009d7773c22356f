// verify and bench: iterate the registry's patterns, their problems and their
// variants; check every variant, time the verified ones, and report.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "harness/device_info.hpp"
#include "harness/problem.hpp"

namespace tessera::harness {

// "reduce" or "reduce/warp_shuffle_down"; empty pattern = every pattern.
struct Selector {
  std::string pattern;                // one pattern (with `variant`), or empty
  std::string variant;
  std::vector<std::string> patterns;  // PATTERN,PATTERN,...: several whole patterns
};
// Parses PATTERN[/VARIANT] or PATTERN,PATTERN,... (whole patterns); throws
// Error naming an unknown pattern or variant.
Selector parse_selector(const std::string& text);
// The selected patterns, in registry order.
std::vector<const Pattern*> selected_patterns(const Selector& sel);

struct BenchResult {
  ProblemDesc problem;
  VariantInfo variant;
  Bound bound = Bound::memory;  // what limits the problem (the ceiling used)
  bool api_pick = false;  // the variant the public API picks for this problem
  bool skipped = false;   // headline run: not run, the problem's time budget was spent (`error` says so)
  bool verified = false;
  double max_rel_err = 0;
  std::optional<double> rms_rel_err;  // from CheckResult, where the problem reports it
  std::optional<double> max_ulp_err, rms_ulp_err;  // likewise
  std::string error;  // why it failed (check or exception)
  std::string note;   // CheckResult::note
  double time_ms = 0, min_ms = 0;
  int reps = 0;
  bool graph = false;
  bool held = false;  // Timing::held
  double gbps = 0, gflops = 0;
  double special_gops = 0;  // MUFU operations per second (Bound::special problems)
  std::optional<double> pct_ceiling, vs_vendor, vs_naive;
};

// Why problems ran no variant: the reason and how many problems it held back.
struct NotRun {
  std::string why;  // "reduce/single_pass is a CUDA variant and no GPU was found"
  int problems = 0;
};

struct Report {
  DeviceInfo device;
  std::vector<BenchResult> results;
  int failures = 0;
  int problems = 0;             // problems the selection and filters gave
  std::vector<NotRun> not_run;  // problems on which no selected variant could run here
  std::string command;
};

// Checks that `path` can be written (a run's --json) before the run spends
// its time; leaves nothing behind. Throws Error naming the path and why not.
void check_json_path(const std::string& path);

// Checks every selected variant on every verify problem; prints one line per
// problem (and the detail of each failure) to `out`. Returns the report
// (no timings).
Report run_verify(const Selector& sel, const RunOptions& opt, const DeviceInfo& dev, std::ostream& out);

// The whole headline run's budget (`tessera bench` without arguments): its
// problems' inputs and rows; the rest of the two minutes is start-up.
inline constexpr double HEADLINE_SECONDS = 100.0;

// Checks then times every selected variant on every bench problem; prints a
// table per problem to `out`.
Report run_bench(const Selector& sel, const RunOptions& opt, const DeviceInfo& dev, std::ostream& out);

// Writes the report as JSON (schema in docs/json-schema.md): to a temporary
// file next to `path`, renamed over it only once complete.
void write_json(const Report& report, const std::string& path);

// Human-readable table of one problem's results.
void print_problem_table(std::ostream& out, const std::vector<BenchResult>& rows, const DeviceInfo& dev);

}  // namespace tessera::harness
