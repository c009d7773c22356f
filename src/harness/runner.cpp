#include "harness/runner.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <new>
#include <optional>
#include <cstdio>
#include <ostream>

#include "harness/registry.hpp"
#include "harness/size_check.hpp"
#include "harness/timing.hpp"
#include "tessera/core/error.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

// Progress on stderr, only when it is a terminal (kept off logs and pipes).
class Progress {
 public:
  Progress() : tty_(isatty(STDERR_FILENO) != 0) {}
  ~Progress() { clear(); }
  void show(const std::string& text) {
    if (!tty_) return;
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    std::fflush(stderr);
  }
  void clear() {
    if (tty_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  bool tty_;
};

// An owned stream for GPU work (the default stream would serialise with
// everything else in the process).
class Stream {
 public:
  explicit Stream(bool gpu) {
#if TESSERA_HAVE_CUDA
    if (gpu) TESSERA_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
#else
    (void)gpu;
#endif
  }
  ~Stream() {
#if TESSERA_HAVE_CUDA
    if (s_) (void)cudaStreamDestroy(s_);
#endif
  }
  stream_t get() const { return s_; }

 private:
  stream_t s_ = nullptr;
};

// --skip-vendor leaves the vendor rows out: the sanitizer runs check
// tessera's kernels, not the vendor library's (whose own kernels may report
// hazards nobody here can fix).
std::vector<VariantInfo> selected_variants(const Pattern& p, const Selector& sel, const RunOptions& opt) {
  std::vector<VariantInfo> out;
  for (const auto& v : p.variants()) {
    if (opt.skip_vendor && v.role == Role::vendor) continue;
    if (sel.variant.empty() || v.name == sel.variant) out.push_back(v);
  }
  return out;
}

// Checks one variant on one problem; exceptions become failures.
BenchResult check_one(Problem& problem, const VariantInfo& v, stream_t stream, std::unique_ptr<Instance>& inst) {
  BenchResult r;
  r.problem = problem.desc();
  r.variant = v;
  try {
    inst = problem.bind(v);
    const CheckResult c = inst->check(stream);
    r.verified = c.ok;
    r.max_rel_err = c.max_rel_err;
    r.rms_rel_err = c.rms_rel_err;
    r.max_ulp_err = c.max_ulp_err;
    r.rms_ulp_err = c.rms_ulp_err;
    r.error = c.detail;
    r.note = c.note;
  } catch (const std::bad_alloc&) {
    r.verified = false;
    r.error = "out of host memory allocating the variant's output and workspace";
  } catch (const std::exception& e) {
    r.verified = false;
    r.error = e.what();
#if TESSERA_HAVE_CUDA
    (void)cudaGetLastError();
#endif
  }
  return r;
}

double ceiling_of(const BenchResult& r, const Cost& cost, const DeviceInfo& dev) {
  if (r.variant.backend == Backend::cpu) return cost.bound == Bound::memory ? dev.host_copy_gbps : 0.0;
  switch (cost.bound) {
    case Bound::memory: return dev.copy_gbps;
    case Bound::compute: return dev.fp32_gflops;
    case Bound::special: return dev.mufu_gops;
  }
  return 0.0;
}

// The row's rate in the ceiling's unit.
double rate_of(const BenchResult& r, const Cost& cost) {
  switch (cost.bound) {
    case Bound::memory: return r.gbps;
    case Bound::compute: return r.gflops;
    case Bound::special: return r.special_gops;
  }
  return 0.0;
}

// Fills the ratios that need the whole problem's results.
void add_ratios(std::vector<BenchResult>& rows) {
  const BenchResult* vendor = nullptr;
  for (const auto& r : rows)
    if (r.variant.kind() == Kind::vendor && r.verified) vendor = &r;
  for (auto& r : rows) {
    if (!r.verified || r.time_ms <= 0) continue;
    if (vendor) r.vs_vendor = vendor->time_ms / r.time_ms;
    // The naive step: the lowest verified step on the same backend.
    const BenchResult* naive = nullptr;
    for (const auto& o : rows)
      if (o.verified && o.variant.backend == r.variant.backend && o.time_ms > 0 &&
          (!naive || o.variant.step < naive->variant.step))
        naive = &o;
    if (naive) r.vs_naive = naive->time_ms / r.time_ms;
  }
}

// Why no selected variant could run a problem: CUDA variants without a GPU,
// and the problem's own reasons for the others.
std::string why_none_ran(std::string_view pattern, const Problem& problem, const std::vector<VariantInfo>& variants,
                         bool gpu) {
  std::vector<std::string> cuda, other;
  for (const auto& v : variants) {
    if (v.backend == Backend::cuda && !gpu) cuda.push_back(fmt::format("{}/{}", pattern, v.name));
    else other.push_back(problem.why_unsupported(v));
  }
  std::string why;
  if (cuda.size() == 1) why = fmt::format("{} is a CUDA variant and no GPU was found", cuda.front());
  if (cuda.size() > 1) why = fmt::format("{}'s {} CUDA variants need a GPU and none was found", pattern, cuda.size());
  for (const auto& o : other) why += (why.empty() ? "" : "; ") + o;
  return why;
}

void count_not_run(Report& report, std::string why) {
  for (auto& n : report.not_run)
    if (n.why == why) {
      ++n.problems;
      return;
    }
  report.not_run.push_back({std::move(why), 1});
}

// Builds a problem's inputs and reference; running out of host memory names
// the problem and what it was estimated to need instead of a bare bad_alloc.
std::unique_ptr<Problem> make_problem(std::string_view pattern, const ProblemFactory& f, const DeviceInfo& dev) {
  try {
    return f.make();
  } catch (const std::bad_alloc&) {
    throw Error(fmt::format("out of host memory building the inputs and reference of {} {} (about {}; {} was available)",
                            pattern, f.label, format_bytes(f.needs.host_bytes), format_bytes(double(dev.host_available))));
  }
}

std::string fmt_opt(const std::optional<double>& v, const char* spec_fmt) {
  return v ? fmt::format(fmt::runtime(spec_fmt), *v) : std::string("-");
}

}  // namespace

std::vector<const Pattern*> selected_patterns(const Selector& sel) {
  std::vector<const Pattern*> out;
  for (const auto& p : patterns())
    if ((sel.pattern.empty() && sel.patterns.empty()) || p->name() == sel.pattern ||
        std::find(sel.patterns.begin(), sel.patterns.end(), p->name()) != sel.patterns.end())
      out.push_back(p.get());
  return out;
}

Selector parse_selector(const std::string& text) {
  if (text.find(',') != std::string::npos) {
    Selector list;
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      const std::string one = text.substr(start, comma - start);
      if (one.empty() || one.find('/') != std::string::npos)
        throw Error(fmt::format("selector '{}': a list names whole patterns (PATTERN,PATTERN,...)", text));
      list.patterns.push_back(parse_selector(one).pattern);
      start = comma + 1;
    }
    return list;
  }
  Selector sel;
  const auto slash = text.find('/');
  sel.pattern = text.substr(0, slash);
  if (slash != std::string::npos) sel.variant = text.substr(slash + 1);
  if (sel.pattern.empty()) return sel;
  const Pattern* p = find_pattern(sel.pattern);
  if (!p) {
    std::string names;
    for (const auto& q : patterns()) names += fmt::format("{}{}", names.empty() ? "" : ", ", q->name());
    throw Error(fmt::format("unknown pattern '{}' (patterns: {})", sel.pattern, names));
  }
  if (!sel.variant.empty()) {
    bool found = false;
    std::string names;
    for (const auto& v : p->variants()) {
      found = found || v.name == sel.variant;
      names += fmt::format("{}{}", names.empty() ? "" : ", ", v.name);
    }
    if (!found) throw Error(fmt::format("pattern '{}' has no variant '{}' (variants: {})", sel.pattern, sel.variant, names));
  }
  return sel;
}

Report run_verify(const Selector& sel, const RunOptions& opt, const DeviceInfo& dev, std::ostream& out) {
  Report report;
  report.device = dev;
  Stream stream(opt.gpu);
  Progress progress;
  for (const Pattern* pattern : selected_patterns(sel)) {
    const auto variants = selected_variants(*pattern, sel, opt);
    const auto problems = pattern->verify_problems(opt);
    for (std::size_t pi = 0; pi < problems.size(); ++pi) {
      progress.show(fmt::format("[{}/{}] {} {}: building inputs", pi + 1, problems.size(), pattern->name(),
                                problems[pi].label));
      auto problem = make_problem(pattern->name(), problems[pi], dev);
      ++report.problems;
      int passed = 0, ran = 0;
      for (const auto& v : variants) {
        if (!problem->supports(v)) continue;
        progress.show(fmt::format("[{}/{}] {} {}: {}", pi + 1, problems.size(), pattern->name(), problems[pi].label, v.name));
        std::unique_ptr<Instance> inst;
        BenchResult r = check_one(*problem, v, stream.get(), inst);
        ++ran;
        if (r.verified) ++passed;
        else {
          ++report.failures;
          progress.clear();
          fmt::print(out, "FAIL {} / {} [{}]: {}\n", pattern->name(), v.name, problem->desc().label, r.error);
        }
        report.results.push_back(std::move(r));
      }
      progress.clear();
      if (ran == 0) {
        fmt::print(out, "{:<4} {:<8} {:<44} no variant can run here\n", "skip", pattern->name(), problem->desc().label);
        count_not_run(report, why_none_ran(pattern->name(), *problem, variants, opt.gpu));
        continue;
      }
      fmt::print(out, "{:<4} {:<8} {:<44} {:>3}/{:<3} variants correct\n", passed == ran ? "ok" : "FAIL",
                 pattern->name(), problem->desc().label, passed, ran);
    }
  }
  return report;
}

Report run_bench(const Selector& sel, const RunOptions& opt, const DeviceInfo& dev, std::ostream& out) {
  Report report;
  report.device = dev;
  Stream stream(opt.gpu);
  Progress progress;
  // Full ladders: the median of 5..100 repetitions, ~250 ms a variant. The
  // headline run of every pattern: 5..50 repetitions in ~30 ms, one CPU run.
  const TimingOptions gpu_timing = opt.headline ? TimingOptions{.warmup = 1, .min_reps = 5, .max_reps = 50, .budget_ms = 30}
                                                : TimingOptions{};
  const TimingOptions cpu_timing{.warmup = 0, .min_reps = 1, .max_reps = opt.headline ? 1 : 5, .budget_ms = 1000};
  // The headline run (`tessera bench`, no arguments) shares HEADLINE_SECONDS
  // among every pattern's headline problems, so that it stays under two
  // minutes however many families there are.
  std::size_t headline_problems = 0;
  if (opt.headline)
    for (const Pattern* pattern : selected_patterns(sel)) headline_problems += pattern->bench_problems(opt).size();
  // Each problem gets an equal share of what is left, so time a quick
  // problem leaves unused passes on to the later ones.
  std::size_t problems_left = std::max<std::size_t>(headline_problems, 1);
  const auto headline_start = std::chrono::steady_clock::now();
  for (const Pattern* pattern : selected_patterns(sel)) {
    const auto variants = selected_variants(*pattern, sel, opt);
    const auto problems = pattern->bench_problems(opt);
    for (std::size_t pi = 0; pi < problems.size(); ++pi) {
      progress.show(fmt::format("[{}/{}] {} {}: building inputs", pi + 1, problems.size(), pattern->name(),
                                problems[pi].label));
      auto problem = make_problem(pattern->name(), problems[pi], dev);
      ++report.problems;
      const Cost cost = problem->cost();
      std::vector<BenchResult> rows;
      // The headline run shows what a user weighs: the parallel CPU rung, the
      // first seed rung (the "naive" of vs-naive), the variant the API picks
      // and the vendor's. `tessera bench PATTERN` runs the whole ladder.
      // Without a GPU, the CPU rungs are all there is.
      const std::string pick = problem->api_pick(opt.gpu);
      int first_seed_step = std::numeric_limits<int>::max();
      for (const auto& v : variants)
        if (v.role == Role::taught && problem->supports(v)) first_seed_step = std::min(first_seed_step, v.step);
      const auto shown = [&](const VariantInfo& v) {
        if (!opt.headline || !opt.gpu) return true;
        switch (v.role) {
          case Role::taught: return v.step == first_seed_step;
          case Role::reference: return v.step > 0;  // the OpenMP rung, not the serial reference
          case Role::vendor: return true;
          default: return v.name == pick;
        }
      };
      // The headline's time budget: rows run in the order a user needs them
      // (the API's pick, the vendor, the seed rung, OpenMP) and a row that
      // would start past the problem's share of HEADLINE_SECONDS is skipped
      // and said so. Tables print in ladder order.
      std::vector<VariantInfo> to_run;
      for (const auto& v : variants)
        if (problem->supports(v) && shown(v)) to_run.push_back(v);
      if (to_run.empty()) {
        progress.clear();
        fmt::print(out, "\n{} · {}: no variant can run here\n", pattern->name(), problem->desc().label);
        count_not_run(report, why_none_ran(pattern->name(), *problem, variants, opt.gpu));
        if (problems_left > 1) --problems_left;  // its share of the headline budget passes on
        continue;
      }
      const auto priority = [&](const VariantInfo& v) {
        if (v.name == pick) return 0;
        return v.role == Role::vendor ? 1 : v.role == Role::taught ? 2 : 3;
      };
      if (opt.headline) std::stable_sort(to_run.begin(), to_run.end(), [&](const auto& a, const auto& b) {
        return priority(a) < priority(b);
      });
      const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - headline_start).count();
      const double headline_budget_s = std::max(HEADLINE_SECONDS - elapsed_s, 0.0) / double(problems_left);
      if (problems_left > 1) --problems_left;
      // The clock starts after the first row's check: building the inputs
      // and the reference answer is the problem's, not a row's.
      std::optional<std::chrono::steady_clock::time_point> problem_start;
      for (const auto& v : to_run) {
        const double spent =
            problem_start ? std::chrono::duration<double>(std::chrono::steady_clock::now() - *problem_start).count() : 0.0;
        if (opt.headline && spent > headline_budget_s) {
          BenchResult skipped;
          skipped.problem = problem->desc();
          skipped.variant = v;
          skipped.skipped = true;
          skipped.error = fmt::format("skipped: the problem's headline budget of {:.1f} s was spent", headline_budget_s);
          rows.push_back(std::move(skipped));
          continue;
        }
        progress.show(fmt::format("[{}/{}] {} {}: {}", pi + 1, problems.size(), pattern->name(), problems[pi].label, v.name));
        std::unique_ptr<Instance> inst;
        BenchResult r = check_one(*problem, v, stream.get(), inst);
        if (!problem_start) problem_start = std::chrono::steady_clock::now();
        r.bound = cost.bound;
        r.api_pick = v.name == pick;
        if (r.verified) {
          try {
            const Timing t = v.backend == Backend::cpu
                                 ? time_cpu([&] { inst->run(nullptr); }, cpu_timing)
                                 : time_gpu([&](stream_t s) { inst->run(s); }, stream.get(), gpu_timing);
            r.time_ms = t.median_ms;
            r.min_ms = t.min_ms;
            r.reps = t.reps;
            r.graph = t.graph;
            r.held = t.held;
            const double sec = t.median_ms * 1e-3;
            r.gbps = cost.bytes / sec / 1e9;
            r.gflops = cost.flops / sec / 1e9;
            r.special_gops = cost.special_ops / sec / 1e9;
            const double ceiling = ceiling_of(r, cost, dev);
            if (ceiling > 0) r.pct_ceiling = 100.0 * rate_of(r, cost) / ceiling;
          } catch (const std::exception& e) {
            r.verified = false;
            r.error = fmt::format("while timing: {}", e.what());
          }
        }
        if (!r.verified) ++report.failures;
        rows.push_back(std::move(r));
      }
      const auto ladder_index = [&](const BenchResult& r) {
        for (std::size_t i = 0; i < variants.size(); ++i)
          if (variants[i].name == r.variant.name) return i;
        return variants.size();
      };
      std::stable_sort(rows.begin(), rows.end(),
                       [&](const auto& a, const auto& b) { return ladder_index(a) < ladder_index(b); });
      progress.clear();
      add_ratios(rows);
      print_problem_table(out, rows, dev);
      out.flush();  // each table as it completes, also into a pipe or a file
      report.results.insert(report.results.end(), rows.begin(), rows.end());
    }
  }
  return report;
}

void print_problem_table(std::ostream& out, const std::vector<BenchResult>& rows, const DeviceInfo& dev) {
  if (rows.empty()) return;
  const auto& p = rows.front().problem;
  const bool marked = std::any_of(rows.begin(), rows.end(), [](const BenchResult& r) { return r.api_pick; });
  fmt::print(out, "\n{} · {} · {} data{}\n", p.pattern, p.label, p.distribution, marked ? "  (* the API's pick)" : "");
  // Problems that report error statistics get two more columns, and two
  // more where they report ulps from the correctly rounded result.
  bool errors = false, ulps = false;
  std::size_t w = 24;  // the variant column: as wide as the longest name
  for (const auto& r : rows) {
    errors = errors || r.rms_rel_err.has_value();
    ulps = ulps || r.rms_ulp_err.has_value();
    w = std::max(w, r.variant.name.size() + 2);
  }
  fmt::print(out, "{:>4}  {:<{}} {:<9} {:>10} {:>9} {:>8} {:>8} {:>9} {:>9}{}{}\n", "step", "variant", w, "kind",
             "time ms", "GB/s", "GFLOP/s", "% ceil", "vs naive", "vs vendor",
             errors ? fmt::format(" {:>11} {:>11}", "max rel err", "rms rel err") : std::string(),
             ulps ? fmt::format(" {:>9} {:>9}", "max ulp", "rms ulp") : std::string());
  // The API's pick is starred: "single_pass *".
  const auto name_of = [](const BenchResult& r) {
    return r.api_pick ? fmt::format("{} *", r.variant.name) : std::string(r.variant.name);
  };
  for (const auto& r : rows) {
    if (r.skipped) {
      fmt::print(out, "{:>4}  {:<{}} {:<9} {}\n", r.variant.step, name_of(r), w, to_string(r.variant.kind()), r.error);
      continue;
    }
    if (!r.verified) {
      fmt::print(out, "{:>4}  {:<{}} {:<9} FAILED: {}\n", r.variant.step, name_of(r), w,
                 to_string(r.variant.kind()), r.error);
      continue;
    }
    fmt::print(out, "{:>4}  {:<{}} {:<9} {:>10.4f} {:>9.1f} {:>8.1f} {:>8} {:>9} {:>9}{}{}\n", r.variant.step,
               name_of(r), w, to_string(r.variant.kind()), r.time_ms, r.gbps, r.gflops, fmt_opt(r.pct_ceiling, "{:.1f}"),
               fmt_opt(r.vs_naive, "{:.2f}x"), fmt_opt(r.vs_vendor, "{:.2f}x"),
               errors ? fmt::format(" {:>11.3g} {:>11}", r.max_rel_err, fmt_opt(r.rms_rel_err, "{:.3g}"))
                      : std::string(),
               ulps ? fmt::format(" {:>9} {:>9}", fmt_opt(r.max_ulp_err, "{:.3g}"), fmt_opt(r.rms_ulp_err, "{:.3g}"))
                    : std::string());
  }
  (void)dev;
}

}  // namespace tessera::harness
