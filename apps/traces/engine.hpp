// The streaming engine (internal): batch sizing, the read -> compute -> write
// pipeline, and where the scan runs (host or GPU).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "tessera/apps/traces.hpp"
#include "trace_io.hpp"

namespace tessera::traces {

// Batch buffers in flight: one being read, one being scanned, one being
// written; host memory is SLOTS x one batch.
inline constexpr std::size_t SLOTS = 3;
// Default batch: 256 MiB of samples. Per-batch costs (thread hand-off, a
// launch, a stream sync, segyio's seeks: well under a millisecond) are then
// below 0.1% of moving the batch through disk and PCIe, and SLOTS batches stay
// under 1 GiB of host memory.
inline constexpr std::size_t TARGET_BATCH_BYTES = std::size_t{256} << 20;

// Files smaller than a few default batches are still cut into this many, so
// that reading, scanning and writing overlap (one batch would serialise them).
inline constexpr std::size_t MIN_PIPELINE_BATCHES = 4;

// Host memory for one batch of samples, with its own release (pinned memory
// for GPU copies, plain memory otherwise).
class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(float* data, std::function<void(float*)> release) : data_(data), release_(std::move(release)) {}
  HostBuffer(HostBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), release_(std::move(o.release_)) {}
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = std::exchange(o.data_, nullptr);
      release_ = std::move(o.release_);
    }
    return *this;
  }
  HostBuffer(const HostBuffer&) = delete;
  ~HostBuffer() { reset(); }
  void reset() noexcept {
    if (data_ != nullptr && release_) release_(data_);
    data_ = nullptr;
  }
  float* data() const { return data_; }

 private:
  float* data_ = nullptr;
  std::function<void(float*)> release_;
};

HostBuffer allocate_pageable(std::size_t count);

// What runs on each batch, and where its memory comes from.
class Compute {
 public:
  virtual ~Compute() = default;
  virtual HostBuffer allocate_host(std::size_t count) { return allocate_pageable(count); }
  // Most traces of `len` samples one batch may hold on the compute side
  // (GPU: half its free memory); SIZE_MAX when unbounded.
  virtual std::size_t max_batch_traces(std::size_t len) const;
  // Called once the batch size is known, before any output exists: allocates
  // and validates (an unknown variant fails here).
  virtual void prepare(std::size_t batch_traces, std::size_t len) = 0;
  virtual void run(float* samples, std::size_t rows, std::size_t len, std::size_t first_trace) = 0;
  virtual bool on_gpu() const { return false; }
  virtual std::string device() const;
  virtual std::string variant() const { return {}; }
};

// The scan: on the GPU when one is present and the variant is not cpu_*, on
// the host otherwise (see traces.hpp).
std::unique_ptr<Compute> make_scan_compute(const TraceScanOptions& scan);
// Without a GPU build or device (compute_host.cpp / compute_device.cpp).
std::unique_ptr<Compute> make_host_scan(const TraceScanOptions& scan);
// Null when this build has no CUDA or no device is present.
std::unique_ptr<Compute> make_device_scan(const TraceScanOptions& scan);
bool device_present() noexcept;

// Host memory available to this process (MemAvailable), 0 when unknown.
std::size_t host_memory_available();

// Traces per batch for `info`: TARGET_BATCH_BYTES, capped so that SLOTS
// batches take at most a quarter of the available host memory, by the
// compute side's limit, and so that there are MIN_PIPELINE_BATCHES batches
// where the file has that many traces; at least 1.
std::size_t default_batch_traces(const FileInfo& info, std::size_t header_bytes, std::size_t compute_max_traces,
                                 std::size_t host_available);

struct StageTimes {
  double read_s = 0, compute_s = 0, write_s = 0;
  std::size_t batches = 0;
  std::size_t nonfinite = 0;
};

// Streams every trace of `reader` through `compute` into `writer` in batches
// of `batch_traces`, overlapping the three stages (a reader thread, the
// calling thread, a writer thread); calls writer.finish(). The first
// exception from any stage stops all three and is rethrown.
StageTimes run_pipeline(TraceReader& reader, TraceWriter& writer, Compute& compute, std::size_t batch_traces);

}  // namespace tessera::traces
