// tessera::traces: open IN, size the batches, start reading, prepare the
// compute side (the GPU's start overlapping the first reads), then stream
// through the pipeline into a temporary that replaces OUT on success.
// Order matters for the guarantees: everything that can be refused (input
// headers and size, variant, memory) is checked before the output exists.
#include <optional>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "engine.hpp"
#include "tessera/core/error.hpp"

namespace tessera::traces {
namespace {

std::unique_ptr<TraceReader> open_reader(const std::string& in, const FileOptions& f) {
  if (f.raw_traces == 0 && f.raw_samples == 0 && !f.force_raw) return open_segy_reader(in);
  require(f.raw_traces > 0 && f.raw_samples > 0,
          fmt::format("{}: raw float32 input needs both --traces N and --samples M (got --traces {} --samples {})", in,
                      f.raw_traces, f.raw_samples));
  return open_raw_reader(in, f.raw_traces, f.raw_samples, f.force_raw);
}

// The output's sample format code (0: raw float32); refused before any
// output exists when the input cannot be written so.
int output_format(const FileInfo& info, OutFormat want, const std::string& in) {
  if (!info.segy) {
    require(want == OutFormat::automatic || want == OutFormat::same || want == OutFormat::ieee,
            fmt::format("{}: raw float32 input is written as raw float32: --out-format ibm and double need SEG-Y "
                        "input",
                        in));
    return 0;
  }
  switch (want) {
    case OutFormat::automatic: return format_is_integer(info.format) ? 5 : info.format;
    case OutFormat::same: return info.format;
    case OutFormat::ieee: return 5;
    case OutFormat::ibm: return 1;
    case OutFormat::ieee_double: return 6;
  }
  throw Error(fmt::format("{}: unknown output format {}", in, static_cast<int>(want)));
}

class FunctionCompute final : public Compute {
 public:
  explicit FunctionCompute(const BatchFn& fn) : fn_(fn) {}
  void prepare(std::size_t, std::size_t, PhaseLog&) override {}
  void run(float* x, std::size_t rows, std::size_t len, std::size_t first) override { fn_(x, rows, len, first); }

 private:
  const BatchFn& fn_;
};

// `opened` is called once IN's headers are read, before anything else (the
// scan's placement, the GPU's start); `make_compute` once reading has started
// (it may wait for the GPU, in phases of `log`).
Report run_file(const std::string& in, const std::string& out, const FileOptions& file,
                const std::function<void(const FileInfo&)>& opened,
                const std::function<std::unique_ptr<Compute>(PhaseLog&)>& make_compute) {
  const double t0 = seconds_since_start();
  require(!in.empty(), "input path is empty");
  require(!out.empty(), "output path is empty");
  PhaseLog log;
  std::optional<ScopedPhase> opening(std::in_place, log, "open IN, read its headers, size the batches");
  auto reader = open_reader(in, file);
  Report r;
  r.input = reader->info();
  const FileInfo& info = r.input;
  r.out_format = output_format(info, file.out_format, in);
  opened(info);
  r.batch_traces = file.batch_traces != 0
                       ? std::min(file.batch_traces, std::max<std::size_t>(info.traces, 1))
                       : default_batch_traces(info, reader->header_bytes(), SIZE_MAX, host_memory_available(),
                                              file.batch_bytes);
  opening.reset();

  std::unique_ptr<Compute> compute;
  std::optional<AtomicOutput> output;
  std::unique_ptr<TraceWriter> writer;
  const auto start_ends = [&]() -> PipelineEnds {
    compute = make_compute(log);
    if (info.traces > 0) compute->prepare(r.batch_traces, info.samples, log);
    ScopedPhase p(log, "create the output's temporary");
    output.emplace(out);
    writer = info.segy ? open_segy_writer(output->temp_path(), out, *reader, r.out_format)
                       : open_raw_writer(output->temp_path(), out, info.samples);
    return {compute.get(), writer.get()};
  };
  const StageTimes times = run_pipeline(*reader, r.batch_traces, start_ends, log);
  writer.reset();
  {
    std::vector<Phase> committing;
    output->commit(&committing);
    for (Phase& c : committing) log.add(std::move(c.name), -1, c.start_s, c.end_s);
  }
  r.finished_s = seconds_since_start();

  r.variant = compute->variant();
  r.on_gpu = compute->on_gpu();
  r.device = compute->device();
  r.batches = times.batches;
  r.read_s = times.read_s;
  r.compute_s = times.compute_s;
  r.write_s = times.write_s;
  r.nonfinite_ibm = times.nonfinite;
  r.wall_s = r.finished_s - t0;
  r.phases = log.take();
  if (r.on_gpu) {
    std::vector<Phase> gpu = gpu_start_phases();
    r.phases.insert(r.phases.begin(), gpu.begin(), gpu.end());
    std::stable_sort(r.phases.begin(), r.phases.end(),
                     [](const Phase& a, const Phase& b) { return a.start_s < b.start_s; });
  }
  return r;
}

}  // namespace

FileInfo inspect(const std::string& in, const FileOptions& file) { return open_reader(in, file)->info(); }

Report scan_file(const std::string& in, const std::string& out, const TraceScanOptions& scan, const FileOptions& file) {
  check_variant_name(scan);
  Placement placement;
  const auto opened = [&](const FileInfo& info) {
    placement = place_scan(scan, info, host_threads());
    if (placement.gpu) start_gpu();  // overlaps reading the first batches
  };
  const auto make_compute = [&](PhaseLog& log) -> std::unique_ptr<Compute> {
    if (!placement.gpu) return make_scan_compute(scan, placement);  // the driver is never touched
    ScopedPhase p(log, "GPU present? (waits for the driver's device count)");
    return make_scan_compute(scan, placement);
  };
  try {
    Report r = run_file(in, out, file, opened, make_compute);
    r.placement = placement.gpu && !r.on_gpu ? "no GPU found" : placement.why;
    return r;
  } catch (...) {
    // The caller may exit on this error: not while the context is created.
    if (placement.gpu) finish_gpu_start();
    throw;
  }
}

Report process_file(const std::string& in, const std::string& out, const FileOptions& file, const BatchFn& fn) {
  require(static_cast<bool>(fn), "process_file: the batch function is empty");
  return run_file(in, out, file, [](const FileInfo&) {},
                  [&](PhaseLog&) -> std::unique_ptr<Compute> { return std::make_unique<FunctionCompute>(fn); });
}

}  // namespace tessera::traces
