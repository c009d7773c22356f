// The bench/verify JSON (schema: docs/json-schema.md). Field names follow
// design.md; the file is written to a temporary and renamed when complete.
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/runner.hpp"
#include "tessera/core/error.hpp"

namespace tessera::harness {

namespace {

// write_json writes here and renames over `path` once complete.
std::filesystem::path temporary_of(const std::string& path) { return path + ".tmp"; }

nlohmann::json opt_json(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

nlohmann::json result_json(const BenchResult& r) {
  nlohmann::json j = {
      {"pattern", r.problem.pattern},
      {"variant", r.variant.name},
      {"kind", to_string(r.variant.kind())},
      {"backend", to_string(r.variant.backend)},
      {"step", r.variant.step},
      {"adds", r.variant.adds},
      {"role", to_string(r.variant.role)},
      {"api_pick", r.api_pick},
      {"deterministic", r.variant.deterministic},
      {"type", r.problem.type},
      {"op", r.problem.op},
      {"accum", r.problem.accum},
      {"distribution", r.problem.distribution},
      {"shape", r.problem.shape},
      {"bound", r.bound == Bound::memory ? "memory" : r.bound == Bound::compute ? "compute" : "special"},
      {"problem", r.problem.label},
      {"verified", r.verified},
      {"max_rel_err", std::isfinite(r.max_rel_err) ? nlohmann::json(r.max_rel_err) : nlohmann::json(nullptr)},
  };
  auto finite_or_null = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  if (r.rms_rel_err) j["rms_rel_err"] = finite_or_null(*r.rms_rel_err);
  if (r.max_ulp_err) j["max_ulp_err"] = finite_or_null(*r.max_ulp_err);
  if (r.rms_ulp_err) j["rms_ulp_err"] = finite_or_null(*r.rms_ulp_err);
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.note.empty()) j["note"] = r.note;
  if (r.skipped) j["skipped"] = true;
  if (r.time_ms > 0) {
    j["time_ms"] = r.time_ms;
    j["min_ms"] = r.min_ms;
    j["reps"] = r.reps;
    j["graph"] = r.graph;
    j["held"] = r.held;
    j["gbps"] = r.gbps;
    j["gflops"] = r.gflops;
    if (r.special_gops > 0) j["special_gops"] = r.special_gops;
    j["pct_ceiling"] = opt_json(r.pct_ceiling);
    j["vs_vendor"] = opt_json(r.vs_vendor);
    j["vs_naive"] = opt_json(r.vs_naive);
  }
  return j;
}

}  // namespace

// Creating the temporary write_json will write proves the directory exists
// and is writable; the final name is only ever renamed over, so its own
// permissions do not matter, but it must not be a directory.
void check_json_path(const std::string& path) {
  std::error_code ec;
  if (path.empty()) throw Error("--json: the file name is empty");
  if (std::filesystem::is_directory(path, ec)) throw Error(fmt::format("--json {}: is a directory", path));
  const auto tmp = temporary_of(path);
  const bool existed = std::filesystem::exists(tmp, ec);
  {
    std::ofstream probe(tmp, std::ios::app);
    if (!probe)
      throw Error(fmt::format("--json {}: cannot write '{}' ({}); checked before running so that no run is wasted", path,
                              tmp.string(), std::strerror(errno)));
  }
  if (!existed) std::filesystem::remove(tmp, ec);
}

void write_json(const Report& report, const std::string& path) {
  const auto& d = report.device;
  nlohmann::json doc = {
      {"schema", "tessera-bench/1"},
      {"command", report.command},
      {"timestamp_utc", fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::chrono::system_clock::to_time_t(
                                                                 std::chrono::system_clock::now())))},
      {"device",
       d.present ? nlohmann::json{{"name", d.name},
                                  {"uuid", d.uuid},
                                  {"sm_count", d.sm_count},
                                  {"compute_capability", fmt::format("{}.{}", d.cc_major, d.cc_minor)},
                                  {"memory_bytes", d.total_mem},
                                  {"l2_bytes", d.l2_bytes},
                                  {"copy_gbps", d.copy_gbps},
                                  {"fp32_gflops", d.fp32_gflops},
                                  {"mufu_gops", d.mufu_gops}}
                 : nlohmann::json(nullptr)},
      {"host", {{"threads", d.host_threads}, {"copy_gbps", d.host_copy_gbps}}},
      {"failures", report.failures},
  };
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : report.results) results.push_back(result_json(r));
  doc["results"] = std::move(results);

  const std::filesystem::path final_path(path);
  const std::filesystem::path tmp = temporary_of(path);
  {
    std::ofstream out(tmp);
    if (!out) throw Error(fmt::format("cannot open '{}' for writing", tmp.string()));
    out << doc.dump(2) << '\n';
    if (!out) throw Error(fmt::format("error writing '{}'", tmp.string()));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, final_path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw Error(fmt::format("cannot rename '{}' to '{}'", tmp.string(), final_path.string()));
  }
}

}  // namespace tessera::harness
