// `tessera spmv A.mtx [--x X] [--out Y] [--format F] [--type T] [--repeat N]`.
// Reads A (and x) with tessera::mm, prints A's shape and row lengths, runs the
// selected variants (spmv_runs.cpp) and prints one row each, names the API's
// pick, and writes y (the API's own call) with --out. Every problem with the
// files or options is found before anything runs or is written (exit 2); a
// wrong y exits 1 and writes nothing.
#include "spmv_cmd.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <span>

#include "arguments.hpp"
#include "exit_codes.hpp"
#include "families/spmv/contract.hpp"
#include "harness/device_info.hpp"
#include "spmv_runs.hpp"
#include "tessera/apps/matrix_market.hpp"
#include "tessera/core/pending_files.hpp"
#include "tessera/spmv.hpp"

namespace tessera::cli {

namespace {

constexpr const char* WHO = "tessera spmv";
constexpr std::string_view FORMATS[] = {"csr", "coo", "ell", "hyb", "jds", "sell"};

// "216 B", "3.46 KB", "805.3 MB": exact for small matrices, short for large.
std::string bytes_text(double b) {
  if (b < 1e3) return fmt::format("{:.0f} B", b);
  if (b < 1e6) return fmt::format("{:.2f} KB", b / 1e3);
  if (b < 1e9) return fmt::format("{:.2f} MB", b / 1e6);
  return fmt::format("{:.2f} GB", b / 1e9);
}

bool is_format(std::string_view f) { return std::find(std::begin(FORMATS), std::end(FORMATS), f) != std::end(FORMATS); }

std::vector<std::string> variant_names() {
  std::vector<std::string> out;
  for (const auto& v : spmv_impl::variants_ladder().all()) out.emplace_back(v.info.name);
  return out;
}

bool is_cpu_variant(std::string_view name) {
  const auto* v = spmv_impl::variants_ladder().find(name);
  return v != nullptr && v->info.backend == Backend::cpu;
}

std::string header_text(const mm::Header& h) {
  const char* field = h.field == mm::Field::real ? "real" : h.field == mm::Field::integer ? "integer" : "pattern";
  const char* sym = h.symmetry == mm::Symmetry::general     ? "general"
                    : h.symmetry == mm::Symmetry::symmetric ? "symmetric"
                                                            : "skew-symmetric";
  return fmt::format("{} {} {}", h.format == mm::Format::coordinate ? "coordinate" : "array", field, sym);
}

// What the user asked for, checked before the run.
struct Plan {
  std::vector<std::string> variants;  // the ladder rows to run
  std::vector<std::string> formats;   // without a GPU: the footprints to show from host conversions
  std::string fallback;               // without a GPU: what was asked and could not run
};

// Before the files are read: a typo costs nothing.
void check_format_name(const std::string& format) {
  const std::vector<std::string> all = variant_names();
  const bool variant = std::find(all.begin(), all.end(), format) != all.end();
  if (format != "all" && format != "auto" && !is_format(format) && !variant)
    throw UsageError(fmt::format("--format: unknown format '{}'; formats: all, auto, {}; or a variant: {}", format,
                                 fmt::join(FORMATS, ", "), fmt::join(all, ", ")));
}

Plan select(const std::string& format, const std::string& auto_pick, bool gpu) {
  const std::vector<std::string> all = variant_names();
  const bool named = std::find(all.begin(), all.end(), format) != all.end();
  Plan p;
  if (format == "all")
    p.formats.assign(std::begin(FORMATS), std::end(FORMATS));
  else if (format == "auto")
    p.formats = {std::string(spmv_runs::format_of(auto_pick))};
  else
    p.formats = {is_format(format) ? format : std::string(spmv_runs::format_of(format))};
  if (named && is_cpu_variant(format)) {
    p.variants = {format};
  } else if (format == "auto") {
    p.variants = {auto_pick};
  } else if (!gpu) {
    p.variants = format == "all" ? std::vector<std::string>{"cpu_reference", "cpu_openmp"}
                                 : std::vector<std::string>{"cpu_openmp"};
    if (format != "all") p.fallback = format;
  } else {
    for (const std::string& v : all)
      if (!is_cpu_variant(v) && (format == "all" || v == format || spmv_runs::format_of(v) == format))
        p.variants.push_back(v);
  }
  return p;
}

// --out must be creatable: its directory exists and is writable (checked
// before the run; the write itself is atomic).
void check_out_path(const std::string& out) {
  if (out.empty()) return;
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(out).has_parent_path() ? fs::path(out).parent_path() : fs::path(".");
  if (::access(dir.c_str(), W_OK) != 0)
    throw UsageError(fmt::format("--out {}: cannot write in '{}': {}", out, dir.string(), std::strerror(errno)));
  if (fs::is_directory(out)) throw UsageError(fmt::format("--out {}: is a directory", out));
}

template <class T>
std::vector<T> load_x(const std::string& path, const std::string& matrix, std::int64_t cols) {
  if (path.empty()) return std::vector<T>(std::size_t(cols), T(1));
  mm::Dense<T> d = mm::read_array<T>(path);
  if (d.rows > 1 && d.cols > 1)
    throw UsageError(fmt::format("--x {}: a {} x {} array, not a vector (n x 1)", path, d.rows, d.cols));
  const auto n = std::int64_t(d.values.size());
  if (n != cols)
    throw UsageError(fmt::format("--x {} holds {} values but {} has {} columns (x needs one value per column)", path,
                                 n, matrix, cols));
  return std::move(d.values);
}

template <class T>
void print_matrix(const SpmvArgs& args, const mm::Header& h, const mm::Csr<T>& a) {
  const bool expanded = h.symmetry != mm::Symmetry::general;
  fmt::print("matrix   {}: {}, {} x {}, {} stored entries{} -> {} nonzeros (duplicates summed); values as {}\n",
             args.matrix, header_text(h), a.rows, a.cols, h.entries, expanded ? " expanded" : "", a.nnz(),
             args.type);
  std::int64_t longest = 0, empty = 0;
  double sum_sq = 0;
  const double mean = a.rows > 0 ? double(a.nnz()) / double(a.rows) : 0.0;
  for (std::int64_t r = 0; r < a.rows; ++r) {
    const std::int64_t len = a.row_offsets[std::size_t(r) + 1] - a.row_offsets[std::size_t(r)];
    longest = std::max(longest, len);
    empty += len == 0;
    sum_sq += (double(len) - mean) * (double(len) - mean);
  }
  const double cv = a.rows > 0 && mean > 0 ? std::sqrt(sum_sq / double(a.rows)) / mean : 0.0;
  fmt::print("rows     length mean {:.2f}, max {}, coefficient of variation {:.3f}, {} empty ({:.2f} %)\n", mean,
             longest, cv, empty, a.rows > 0 ? 100.0 * double(empty) / double(a.rows) : 0.0);
  fmt::print("x        {}\n", args.x.empty() ? std::string("all ones") : args.x);
}

// "ok", "unchecked: ..." or "WRONG: ...".
std::string verdict(const spmv_runs::Row& r) {
  if (!r.ok) return "WRONG: " + r.detail;
  return r.detail.empty() ? "ok" : r.detail;
}

void print_rows(const std::vector<spmv_runs::Row>& rows, double model_bytes, double ceiling_gbps) {
  fmt::print("\n{:<17} {:<6} {:>12} {:>11} {:>10} {:>8} {:>6} {:>12}  {}\n", "variant", "format", "footprint",
             "convert ms", "spmv ms", "GB/s", "% ceil", "max rel err", "check");
  for (const auto& r : rows) {
    if (!r.ran) {
      fmt::print("{:<17} {:<6} not run: {}\n", r.variant, r.format, r.why_not);
      continue;
    }
    const double gbps = r.spmv_ms > 0 ? model_bytes / (r.spmv_ms * 1e6) : 0.0;
    const std::string convert = r.convert_ms < 0 ? std::string("-") : fmt::format("{:.3f}", r.convert_ms);
    const std::string share = ceiling_gbps > 0 ? fmt::format("{:.0f}", 100.0 * gbps / ceiling_gbps) : "-";
    fmt::print("{:<17} {:<6} {:>12} {:>11} {:>10.4g} {:>8.1f} {:>6} {:>12.2e}  {}\n", r.variant, r.format,
               bytes_text(double(r.footprint_bytes)), convert, r.spmv_ms, gbps, share,
               r.max_rel_err, verdict(r));
  }
  for (const auto& r : rows)
    if (r.ran && !r.note.empty()) fmt::print("  {}: {}\n", r.variant, r.note);
}

template <class T>
int spmv_typed(const SpmvArgs& args) {
  // Input: every tessera::Error here is the files' or the options' (exit 2),
  // raised before anything runs or is written.
  mm::Header header;
  mm::Csr<T> a;
  std::vector<T> x;
  try {
    header = mm::read_header(args.matrix);
    a = mm::read_csr<T>(args.matrix);
    x = load_x<T>(args.x, args.matrix, a.cols);
    check_out_path(args.out);
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  const harness::DeviceInfo device = harness::query_device(true);
  const Dtype dtype = sizeof(T) == 8 ? Dtype::f64 : Dtype::f32;
  const SpmvRowStats row_stats = spmv_row_stats_host(Csr<T>{a.rows, a.cols, a.nnz(), a.row_offsets.data(),
                                                             a.col_indices.data(), a.values.data()});
  const std::string pick = spmv_plan_variant(dtype, a.cols, row_stats, device.present);
  const Plan plan = select(args.format, pick, device.present);

  print_matrix(args, header, a);
  double ceiling = 0;
  if (device.present) {
    ceiling = device.copy_gbps;
    fmt::print("device   {} ({} SMs), copy ceiling {:.0f} GB/s\n", device.name, device.sm_count, ceiling);
  } else {
    ceiling = device.host_copy_gbps;
    fmt::print("device   no GPU found ({})\n         the CPU variants run on the host ({} threads, copy ceiling "
               "{:.1f} GB/s); the formats' footprints come from their host conversions\n",
               device.why_absent, device.host_threads, ceiling);
    if (!plan.fallback.empty())
      fmt::print(std::cerr, "{}: no GPU found: --format {} runs on the GPU only; ran cpu_openmp instead\n", WHO,
                 plan.fallback);
  }
  fmt::print("auto     {} (format {}): tessera::spmv_plan's pick for {} {} x {} with {} nonzeros, rows of mean "
             "{:.2f}, cv {:.3f}, max {} (the plan policy: docs/spmv.md)\n",
             pick, spmv_runs::format_of(pick), args.type, a.rows, a.cols, a.nnz(), row_stats.mean, row_stats.cv,
             row_stats.max_length);
  const double s = sizeof(T);
  const double model = (s + 4) * double(a.nnz()) + 8.0 * double(a.rows + 1) + s * double(a.cols + a.rows);
  fmt::print("bytes    {} per SpMV, the bytes model of docs/spmv.md: (s + 4) nnz + 8 (rows + 1) + s (cols + "
             "rows), s = {}\n",
             bytes_text(model), sizeof(T));

  const std::vector<spmv_runs::Row> rows = spmv_runs::run_variants(a, x, plan.variants, device.present, args.repeat);
  print_rows(rows, model, ceiling);
  const bool graphs = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.graph; });
  fmt::print("(convert: the variant's preparation, once, upload included; spmv: the prepared format's median of {} "
             "runs{})\n",
             args.repeat, graphs ? "; runs under 0.05 ms timed as CUDA graph replays of several, as the bench does"
                                 : "");
  if (!device.present) {
    fmt::print("\n{:<26} {:>12} {:>11}  {}\n", "format (host conversion)", "footprint", "convert ms", "layout");
    for (const auto& f : spmv_runs::host_footprints(a, plan.formats))
      fmt::print("{:<26} {:>12} {:>11}  {}\n", f.format, bytes_text(double(f.bytes)),
                 f.refused ? std::string("-") : fmt::format("{:.3f}", f.convert_ms), f.note);
  }

  const spmv_runs::Row* fastest = nullptr;
  for (const auto& r : rows)
    if (r.ran && r.ok && (fastest == nullptr || r.spmv_ms < fastest->spmv_ms)) fastest = &r;
  const auto picked = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.variant == pick; });
  if (fastest != nullptr && rows.size() > 1) {
    fmt::print("\nfastest  {} ({:.4g} ms); the API picks {}", fastest->variant, fastest->spmv_ms, pick);
    if (picked != rows.end() && picked->ran && fastest->spmv_ms > 0)
      fmt::print(" ({:.4g} ms, {:.2f}x the fastest)", picked->spmv_ms, picked->spmv_ms / fastest->spmv_ms);
    fmt::print("\n");
  }

  spmv_runs::Row api;
  const std::vector<T> y = spmv_runs::run_api(a, x, device.present, api);
  fmt::print("api      tessera::spmv with default options ran {}: max rel err {:.2e}, {}\n", api.variant,
             api.max_rel_err, verdict(api));
  const bool all_ok = api.ok && std::all_of(rows.begin(), rows.end(), [](const auto& r) { return !r.ran || r.ok; });
  if (!all_ok) {
    fmt::print(std::cerr, "{}: a y is wrong (see above){}\n", WHO, args.out.empty() ? "" : "; --out not written");
    return exit_check_failed;
  }
  if (!args.out.empty()) {
    try {
      mm::write_vector<T>(args.out, std::span<const T>(y));
    } catch (const Error& e) {
      throw UsageError(e.what());
    }
    fmt::print("out      {}: y, {} values (Matrix Market array)\n", args.out, y.size());
  }
  return exit_ok;
}

}  // namespace

CLI::App* add_spmv_command(CLI::App& app, SpmvArgs& a) {
  auto* cmd = app.add_subcommand("spmv", "y = A x for a Matrix Market matrix in each sparse format: footprint, "
                                         "conversion, time and GB/s, every y checked");
  cmd->add_option("A", a.matrix, "the matrix: Matrix Market coordinate (real, integer or pattern; general, "
                                 "symmetric or skew-symmetric; symmetric files expanded)")
      ->required();
  cmd->add_option("--x", a.x, "x as a Matrix Market array (n x 1, n = columns of A); default all ones");
  cmd->add_option("--out", a.out, "write y here as a Matrix Market array (atomically; only when every y is right)");
  cmd->add_option("--format", a.format, "all, auto (the API's pick), csr, coo, ell, hyb, jds, sell, or a variant "
                                        "name (tessera list spmv)")
      ->capture_default_str();
  cmd->add_option("--type", a.type, "value type: float or double")->capture_default_str();
  cmd->add_option("--repeat", a.repeat, "timed repetitions; the median is reported")
      ->check(positive_integer())
      ->capture_default_str();
  return cmd;
}

int spmv_cmd(const SpmvArgs& args) {
  check_format_name(args.format);
  tessera::remove_temporaries_on_signals();  // ^C while --out is written: its temporary goes too
  if (args.type == "float") return spmv_typed<float>(args);
  if (args.type == "double") return spmv_typed<double>(args);
  throw UsageError(fmt::format("--type: unknown value type '{}' (float, double)", args.type));
}

}  // namespace tessera::cli
