// The streaming engine (internal): batch sizing, the read -> compute -> write
// pipeline, and where the scan runs (host or GPU).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tessera/apps/traces.hpp"
#include "trace_io.hpp"

namespace tessera::traces {

// Staging buffers in flight, each one batch of whole traces: one being read,
// one scanned, one written, and one spare so that the reader does not wait on
// a slow write. Host memory is SLOTS x one batch: tens of MiB, never the file.
inline constexpr std::size_t SLOTS = 4;
// Batches are about 1/PIPELINE_BATCHES of the file within [BATCH_MIN_BYTES,
// BATCH_MAX_BYTES]: the stages overlap on all but the first read and the last
// write (one batch each: under ~10 ms at 4-32 MiB against disk and page-cache
// speeds of 3-5 GB/s), and per-batch costs (a thread hand-off, a launch, a
// stream sync, a sync_file_range: tens of microseconds) stay below 1%.
// Pinning SLOTS x 32 MiB takes a few ms, where pinning three quarter-file
// batches of a 400 MB file took ~0.1 s and unpinning them as much again.
inline constexpr std::size_t BATCH_MIN_BYTES = std::size_t{4} << 20;
inline constexpr std::size_t BATCH_MAX_BYTES = std::size_t{32} << 20;
inline constexpr std::size_t PIPELINE_BATCHES = 16;
// Files of at most this many bytes run as one batch: overlapping stages of a
// few milliseconds buys less than the hand-offs cost.
inline constexpr std::size_t ONE_BATCH_BYTES = 2 * BATCH_MIN_BYTES;

// The steps of one run, from any thread (engine stages, the GPU's start).
class PhaseLog {
 public:
  void add(std::string name, long batch, double start_s, double end_s);
  std::vector<Phase> take();

 private:
  std::mutex m_;
  std::vector<Phase> phases_;
};

// Records [construction, destruction) as one phase.
class ScopedPhase {
 public:
  ScopedPhase(PhaseLog& log, std::string name, long batch = -1)
      : log_(log), name_(std::move(name)), batch_(batch), t0_(seconds_since_start()) {}
  ~ScopedPhase() { log_.add(std::move(name_), batch_, t0_, seconds_since_start()); }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;
  double started() const { return t0_; }

 private:
  PhaseLog& log_;
  std::string name_;
  long batch_;
  double t0_;
};

// What runs on each batch. The pipeline owns the staging buffers (plain,
// page-aligned host memory, so that reading starts before any GPU exists);
// the compute side may pin them for its copies.
class Compute {
 public:
  virtual ~Compute() = default;
  // Called once the batch size is known, before any output exists, while
  // the first batches are being read: waits for the device, allocates and
  // validates (an unknown variant fails here). Phases go to `log`.
  virtual void prepare(std::size_t batch_traces, std::size_t len, PhaseLog& log) = 0;
  // A staging buffer of `count` floats, on the compute thread before its
  // first run(); unpin() is called for each before it is freed.
  virtual void pin(float*, std::size_t) {}
  virtual void unpin(float*) {}
  virtual void run(float* samples, std::size_t rows, std::size_t len, std::size_t first_trace) = 0;
  virtual bool on_gpu() const { return false; }
  virtual std::string device() const;
  virtual std::string variant() const { return {}; }
};

// Where the scan runs and why (placement.cpp): from the options, IN's sizes,
// the accumulator and the host's threads only, never by asking the driver.
struct Placement {
  bool gpu = false;
  std::string why;
};
Placement place_scan(const TraceScanOptions& scan, const FileInfo& info, std::size_t host_threads);
std::size_t host_threads();  // OpenMP's threads for the host scan

// The scan, where `placement` put it (a GPU placement without a GPU falls
// back to the host unless a GPU variant or device was asked for).
// check_variant_name refuses a name no variant has (before anything else is
// done); make_scan_compute waits for the driver's device count when the
// placement is the GPU, and never touches the driver otherwise.
void check_variant_name(const TraceScanOptions& scan);
std::unique_ptr<Compute> make_scan_compute(const TraceScanOptions& scan, const Placement& placement);
// On the host: batched_scan_host, which never touches the GPU (compute_host.cpp).
std::unique_ptr<Compute> make_host_scan(const TraceScanOptions& scan);
// Null when this build has no CUDA or no device is present.
std::unique_ptr<Compute> make_device_scan(const TraceScanOptions& scan);
bool device_present() noexcept;
// The GPU start's phases (cuInit and device count, context), once it is done.
std::vector<Phase> gpu_start_phases();

// Host memory available to this process (MemAvailable), 0 when unknown.
std::size_t host_memory_available();

// Traces per batch for `info` (whole traces, at least 1): `target_bytes` of
// float samples and headers when nonzero, else the whole file up to
// ONE_BATCH_BYTES, else 1/PIPELINE_BATCHES of it within [BATCH_MIN_BYTES,
// BATCH_MAX_BYTES]; capped so that SLOTS batches take at most a quarter of
// the available host memory, and by `compute_max_traces` (SIZE_MAX: none;
// batches of tens of MiB fit any GPU, whose start the sizing does not wait
// for).
std::size_t default_batch_traces(const FileInfo& info, std::size_t header_bytes, std::size_t compute_max_traces,
                                 std::size_t host_available, std::size_t target_bytes = 0);

struct StageTimes {
  double read_s = 0, compute_s = 0, write_s = 0;
  std::size_t batches = 0;
  std::size_t nonfinite = 0;
};

// The compute side and the writer, made once the reader has started.
struct PipelineEnds {
  Compute* compute = nullptr;
  TraceWriter* writer = nullptr;
};

// Streams every trace of `reader` in batches of `batch_traces` through a
// compute side into a writer, overlapping the three stages (a reader thread,
// the calling thread, a writer thread); calls writer->finish(). The reader
// starts first; then `start_ends` (calling thread) prepares the compute side
// and opens the output, so that the GPU's start and the output's creation
// overlap the first reads. The first exception from any stage (start_ends
// included) stops all three and is rethrown.
StageTimes run_pipeline(TraceReader& reader, std::size_t batch_traces, const std::function<PipelineEnds()>& start_ends,
                        PhaseLog& log);

}  // namespace tessera::traces
