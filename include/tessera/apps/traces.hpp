// tessera::traces — batched forward/backward scans over every trace of a
// SEG-Y or raw float32 file, streamed in batches of traces so that memory use
// is bounded whatever the file size. The library behind `tessera traces`.
//
//   // forward then backward cumulative sum of every trace, IBM in, IBM out:
//   tessera::traces::Report r = tessera::traces::scan_file("in.sgy", "out.sgy");
//   // raw float32 (native byte order), 10,000 traces of 10,000 samples:
//   tessera::traces::scan_file("in.f32", "out.f32", {.accum = tessera::Accum::dfloat},
//                              {.raw_traces = 10000, .raw_samples = 10000});
//   // any other per-batch processing on host memory, same I/O guarantees:
//   tessera::traces::process_file("in.sgy", "out.sgy", {}, [](float* x, std::size_t rows, std::size_t len,
//                                                              std::size_t first_trace) { ... });
//
// SEG-Y (in builds with segyio): revisions 0, 1 and 2, big- or little-endian (the
// rev-2 byte-order constant at bytes 3297-3300 decides; without it, the byte
// order in which the sample-format code is valid), samples in IBM float
// (format 1), IEEE float or double (5, 6), signed integers of 4, 2, 1, 8
// bytes (2, 3, 8, 9) or unsigned ones (10, 11, 12, 16), any number of
// extended textual headers (rev 2's variable count, -1, ends at the
// ((SEG: EndText)) stanza). Samples are scanned in float as stored: no
// trace-header scalar applies to sample values (docs/traces.md).
// Formats 4, 7 and 15, rev-2 additional trace headers, trailer stanzas or a
// first-trace offset that disagrees with the textual headers are refused with
// an error naming the file, the bytes and the values.
//
// Guarantees:
// - The output keeps every header byte of the input (textual, extended
//   textual, binary, every trace header) but the binary header's format
//   code (bytes 3225-3226), which names FileOptions::out_format's format;
//   samples keep the input's byte order (IBM output rounds to nearest:
//   tessera/apps/ibm_float.hpp).
// - The output is written to a temporary file in OUT's directory and renamed
//   over OUT only after everything succeeded (and was fsync'ed); on any error
//   (malformed input, I/O failure, exception from a batch function) nothing
//   is left behind and an existing OUT is untouched. IN == OUT is allowed.
// - Errors are tessera::Error exceptions naming the file and the problem.
//
// Scans run on the host (`cpu_openmp`, never touching the CUDA driver) when
// its threads keep up with the file's I/O or the file is too small to repay
// a GPU's start, else on the GPU when one is present (each batch uploaded,
// scanned with tessera::batched_scan in place, downloaded); the choice uses
// IN's sizes, the accumulator and the host's threads only, and
// Report::placement says why. options.variant (cpu_* on the host, the others
// on the GPU) or options.device pins it. Host and GPU results may differ in
// the last bits (different summation orders); each is the same whatever the
// batching. Reading, scanning and writing overlap: a
// few staging buffers of whole traces (tens of MiB, never the whole file)
// cycle through a reader thread, the scan, and a writer thread; the GPU's
// context is created on a thread of its own while the first batches are read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tessera/batched_scan.hpp"
#include "tessera/core/types.hpp"

namespace tessera::traces {

// Whether this build reads and writes SEG-Y (it needs segyio at build time);
// raw float32 works in every build.
bool segy_supported() noexcept;

// Whether this process has a GPU to scan on (a default run may still choose
// the host). Calls start_gpu() (below) and waits for the driver's device
// count only.
bool gpu_present() noexcept;

// Installs SIGINT, SIGTERM and SIGHUP handlers that remove the temporaries of
// the runs in progress, then end the process with the signal's default
// action (signals already ignored stay ignored). For programs that let these
// signals end them (`tessera traces` does); call once, before the runs.
// Without it a signal leaves a hidden ".OUT.tessera-PID-*.tmp" behind, which
// the next run on the same OUT removes.
void remove_temporaries_on_signals();

// A SEG-Y sample format code's name: "4-byte IBM float" etc.; "unassigned"
// for codes SEG-Y does not define.
std::string format_name(int code);

// The sample format of a SEG-Y output (raw output is always float32).
enum class OutFormat {
  automatic,    // `same` for float input (1, 5, 6), `ieee` for integer input
  same,         // the input's format; integer results that do not fit are refused
  ieee,         // format 5, 4-byte IEEE float
  ibm,          // format 1, 4-byte IBM float
  ieee_double,  // format 6, 8-byte IEEE float (the float results, widened)
};

// How to read IN, cut it into batches, and write OUT's samples.
struct FileOptions {
  // Both nonzero: IN is raw float32 in native byte order (little-endian on
  // x86-64 and ARM64), raw_traces rows of raw_samples samples, nothing else;
  // its size must be exactly raw_traces * raw_samples * 4 bytes.
  std::size_t raw_traces = 0;
  std::size_t raw_samples = 0;
  // Traces per batch; 0 sizes batches from the file (one batch for a few MiB,
  // else about 1/16 of it within 4-32 MiB of float samples, whole traces,
  // at least one) and the free host memory.
  std::size_t batch_traces = 0;
  // With batch_traces 0: the bytes of float samples (and headers) a batch
  // aims at instead of the file's sizing (whole traces, at least one).
  std::size_t batch_bytes = 0;
  // Raw input that is SEG-Y by every sign (a textual header of text, a binary
  // header that decodes, traces of its size filling the file) is refused
  // unless this is set: read as raw, its headers would become samples.
  bool force_raw = false;
  OutFormat out_format = OutFormat::automatic;
};

// Where the scan runs: automatic (the host when it keeps up with the I/O,
// see the top of this file), or pinned (gpu without a GPU is an error).
enum class ScanDevice { automatic, host, gpu };

// The scan applied to every trace (semantics of tessera::batched_scan).
struct TraceScanOptions {
  ScanDirection direction = ScanDirection::forward_backward;
  Accum accum = Accum::native;
  bool exclusive = false;
  std::string variant = {};  // empty: cpu_openmp on the host, the API's choice on a GPU
  ScanDevice device = ScanDevice::automatic;  // a named variant decides; a contradicting device is refused
};

// What IN holds.
struct FileInfo {
  bool segy = false;           // false: raw float32
  std::size_t traces = 0;
  std::size_t samples = 0;     // per trace
  std::uint64_t file_bytes = 0;
  // SEG-Y only:
  int format = 0;              // sample format code (bytes 3225-3226): 1 IBM, 5 IEEE, ...
  bool little_endian = false;
  int revision_major = 0, revision_minor = 0;  // bytes 3501, 3502
  std::size_t ext_text_headers = 0;            // resolved count (bytes 3505-3506)
  std::uint64_t first_trace_offset = 0;        // 3600 + 3200 * ext_text_headers

  // "SEG-Y rev 1.0, format 1 (4-byte IBM float), big-endian, 2 extended textual headers"
  std::string describe() const;
};

// Reads and checks IN's headers (and size) without processing anything.
FileInfo inspect(const std::string& in, const FileOptions& file = {});

// Seconds since this process started (exec; the part before the program's
// static initialisation comes from /proc, to its 10 ms clock tick).
double seconds_since_start() noexcept;

// One step of a run on the process's clock (seconds_since_start()).
struct Phase {
  std::string name;  // "read", "scan", "write" for a batch's stages; else what was done
  long batch = -1;   // the batch of a read/scan/write, -1 otherwise
  double start_s = 0, end_s = 0;
};

// Starts creating the GPU's context on a thread of its own (no-op without a
// GPU build, and when already started): a run started later finds it ready or
// closer to it. scan_file starts it itself; a program calls it first thing to
// overlap the context with its own start-up. Anyone who started it and exits
// early (an error) calls finish_gpu_start() first: a process must not exit
// while the context is being created.
void start_gpu();
void finish_gpu_start() noexcept;

// Whether this process has loaded the CUDA driver (libcuda), which any CUDA
// runtime call does: a run on the host never does. Asks the dynamic loader
// only (it loads nothing).
bool cuda_driver_loaded() noexcept;

// The wall time of a plain copy of IN to a hidden temporary beside OUT
// (copy_file_range, as cp does, then fsync: what `cp IN OUT && sync` pays),
// removed afterwards, also on SIGINT/SIGTERM/SIGHUP once
// remove_temporaries_on_signals() is installed. For comparing a run with.
double time_plain_copy(const std::string& in, const std::string& out);

// What a run did and how long it took.
struct Report {
  FileInfo input;
  int out_format = 0;           // SEG-Y: the output's sample format code (0: raw float32)
  std::string variant;          // the scan variant that ran ("" for process_file)
  bool on_gpu = false;
  std::string device;           // GPU name, or "host (N threads)"
  std::string placement;        // why there: "--variant X", "--device gpu", the estimate, "no GPU found"
  std::size_t batch_traces = 0; // traces per batch
  std::size_t batches = 0;
  // Busy time of each stage (they overlap) and the wall time of the whole run,
  // opening and committing the output included.
  double read_s = 0, compute_s = 0, write_s = 0, wall_s = 0;
  // IBM output only: samples that were inf/NaN, written as the largest IBM
  // magnitude (IBM has neither).
  std::size_t nonfinite_ibm = 0;
  // Every step on the process's clock: the GPU's start (when it ran), staging
  // buffers, each batch's read, scan and write, fsync, rename, release.
  std::vector<Phase> phases;
  double finished_s = 0;  // seconds_since_start() when OUT was in place

  std::uint64_t sample_bytes() const { return std::uint64_t{input.traces} * input.samples * 4; }
  double traces_per_s() const { return wall_s > 0 ? input.traces / wall_s : 0; }
  double samples_per_s() const { return wall_s > 0 ? static_cast<double>(input.traces) * input.samples / wall_s : 0; }
  // GB/s of float32 sample data processed (traces * samples * 4 bytes / wall).
  double gbps() const { return wall_s > 0 ? sample_bytes() / wall_s / 1e9 : 0; }
};

// Scans every trace of IN into OUT (see the top of this file).
Report scan_file(const std::string& in, const std::string& out, const TraceScanOptions& scan = {},
                 const FileOptions& file = {});

// The streaming engine under scan_file with any per-batch processing: `fn`
// gets each batch as `rows` consecutive traces of `len` float samples (host
// memory, row-major, pitch len), starting at trace `first_trace`, and modifies
// them in place. Called from one thread, batches in file order. An exception
// from `fn` aborts the run (no output left behind) and propagates.
using BatchFn = std::function<void(float* samples, std::size_t rows, std::size_t len, std::size_t first_trace)>;
Report process_file(const std::string& in, const std::string& out, const FileOptions& file, const BatchFn& fn);

}  // namespace tessera::traces
