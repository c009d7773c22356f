// tessera::traces: open IN, size the batches, prepare the compute side, then
// stream through the pipeline into a temporary that replaces OUT on success.
// Order matters for the guarantees: everything that can be refused (input
// headers and size, variant, memory) is checked before the output exists.
#include <chrono>

#include <fmt/format.h>

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
  void prepare(std::size_t, std::size_t) override {}
  void run(float* x, std::size_t rows, std::size_t len, std::size_t first) override { fn_(x, rows, len, first); }

 private:
  const BatchFn& fn_;
};

Report run_file(const std::string& in, const std::string& out, const FileOptions& file, Compute& compute) {
  const auto t0 = std::chrono::steady_clock::now();
  require(!in.empty(), "input path is empty");
  require(!out.empty(), "output path is empty");
  auto reader = open_reader(in, file);
  Report r;
  r.input = reader->info();
  const FileInfo& info = r.input;
  r.out_format = output_format(info, file.out_format, in);
  r.batch_traces = file.batch_traces != 0
                       ? std::min(file.batch_traces, std::max<std::size_t>(info.traces, 1))
                       : default_batch_traces(info, reader->header_bytes(), compute.max_batch_traces(info.samples),
                                              host_memory_available());
  if (info.traces > 0) compute.prepare(r.batch_traces, info.samples);

  AtomicOutput output(out);
  auto writer = info.segy ? open_segy_writer(output.temp_path(), out, *reader, r.out_format)
                          : open_raw_writer(output.temp_path(), out, info.samples);
  const StageTimes times = run_pipeline(*reader, *writer, compute, r.batch_traces);
  writer.reset();
  output.commit();

  r.variant = compute.variant();
  r.on_gpu = compute.on_gpu();
  r.device = compute.device();
  r.batches = times.batches;
  r.read_s = times.read_s;
  r.compute_s = times.compute_s;
  r.write_s = times.write_s;
  r.nonfinite_ibm = times.nonfinite;
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

FileInfo inspect(const std::string& in, const FileOptions& file) { return open_reader(in, file)->info(); }

Report scan_file(const std::string& in, const std::string& out, const TraceScanOptions& scan, const FileOptions& file) {
  auto compute = make_scan_compute(scan);
  return run_file(in, out, file, *compute);
}

Report process_file(const std::string& in, const std::string& out, const FileOptions& file, const BatchFn& fn) {
  require(static_cast<bool>(fn), "process_file: the batch function is empty");
  FunctionCompute compute(fn);
  return run_file(in, out, file, compute);
}

}  // namespace tessera::traces
