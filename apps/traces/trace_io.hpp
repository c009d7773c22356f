// The pieces behind tessera::traces (internal): a reader and a writer of
// batches of traces for each file kind, the output file that appears only on
// success, and the SEG-Y binary-header parsing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/apps/traces.hpp"
#include "tessera/core/atomic_file.hpp"
#include "tessera/core/pending_files.hpp"

namespace tessera::traces {

// Reads batches of traces; used from one thread at a time.
class TraceReader {
 public:
  virtual ~TraceReader() = default;
  virtual const FileInfo& info() const = 0;
  // Bytes of header per trace carried from input to output (240 for SEG-Y).
  virtual std::size_t header_bytes() const = 0;
  // Traces [first, first + count): their headers into `headers`
  // (count * header_bytes()) and their samples as native floats into
  // `samples` (count * info().samples, row-major).
  virtual void read(std::size_t first, std::size_t count, unsigned char* headers, float* samples) = 0;
};

// Writes batches of traces into a file that already exists (the temporary
// of an AtomicOutput); used from one thread at a time.
class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  // Traces [first, first + count). `samples` may be clobbered (encoded in
  // place). Returns how many samples had no exact kind of value in the output
  // format (IBM: inf/NaN).
  virtual std::size_t write(std::size_t first, std::size_t count, const unsigned char* headers, float* samples) = 0;
  // Flushes and closes; throws if anything failed to reach the file.
  virtual void finish() = 0;
};

// Refuses a file that is SEG-Y by every sign (segy_evidence) unless force_raw.
std::unique_ptr<TraceReader> open_raw_reader(const std::string& path, std::size_t traces, std::size_t samples,
                                             bool force_raw = false);
// `path` is where to write (the temporary); errors name `shown_as` (OUT).
std::unique_ptr<TraceWriter> open_raw_writer(const std::string& path, const std::string& shown_as, std::size_t samples);

// SEG-Y (segy_file.cpp, needs segyio); without segyio both throw Error.
std::unique_ptr<TraceReader> open_segy_reader(const std::string& path);
// The writer copies the file-level headers of `source` (a SEG-Y reader),
// the format code changed to `out_format` (a supported format), and writes
// samples in out_format, in the input's byte order.
std::unique_ptr<TraceWriter> open_segy_writer(const std::string& path, const std::string& shown_as,
                                              const TraceReader& source, int out_format);

// A new file next to `final_path` that replaces it on commit() and is removed
// otherwise (destructor): a tessera::AtomicFile that first removes the stale
// temporaries of crashed runs on the same OUT (remove_stale_temporaries) and
// reports its commit's steps as phases. Keeps the mode bits of an existing
// final_path.
class AtomicOutput {
 public:
  explicit AtomicOutput(std::string final_path);
  const std::string& temp_path() const { return file_.temp_path(); }
  const std::string& final_path() const { return file_.target(); }
  int fd() const { return file_.fd(); }  // open for writing until commit()
  // fsync, rename over final_path, fsync the directory; each step's times
  // appended to `phases` when given.
  void commit(std::vector<Phase>* phases = nullptr);

 private:
  static const char* phase_name(AtomicFile::CommitStep step);
  AtomicFile file_;
};

// The temporaries a signal handler removes: tessera/core/pending_files.hpp.

// ---- SEG-Y binary header (segy_layout.cpp) ----------------------------------

inline constexpr std::size_t TEXT_HEADER_BYTES = 3200;
inline constexpr std::size_t BINARY_HEADER_BYTES = 400;
inline constexpr std::size_t TRACE_HEADER_BYTES = 240;
inline constexpr std::uint64_t FILE_HEADER_BYTES = TEXT_HEADER_BYTES + BINARY_HEADER_BYTES;

// What the 400 bytes of a binary header say (in the file's byte order).
struct BinaryHeader {
  bool little_endian = false;
  bool byte_order_from_constant = false;  // rev-2 constant 0x01020304 at 3297
  int format = 0;
  int revision_major = 0, revision_minor = 0;
  std::size_t samples = 0;
  long ext_text_headers = 0;              // -1: variable, ends at ((SEG: EndText))
  std::uint64_t rev2_traces = 0;          // bytes 3513-3520 (rev 2; 0: not given)
  std::uint64_t rev2_first_trace = 0;     // bytes 3521-3528 (rev 2; 0: not given)
};

// Bytes per sample of a SEG-Y format code; 0 for codes SEG-Y does not define.
int format_bytes(int code);
// The formats tessera reads: all but 4 (fixed point with gain) and the
// 3-byte integers 7 and 15.
bool format_supported(int code);
bool format_is_integer(int code);  // supported and not 1, 5 or 6

// Decodes and checks a binary header; errors name `path` and the bytes.
// Refuses unsupported sample formats unless !supported_only (SEG-Y detection).
BinaryHeader parse_binary_header(const unsigned char* raw400, const std::string& path, bool supported_only = true);

// The traces after the headers: fills info (traces, offsets) from the header,
// the resolved count of extended textual headers and the file size; throws
// when the file is truncated or its size is not whole traces.
FileInfo layout_traces(const BinaryHeader& h, std::size_t ext_text_headers, std::uint64_t file_bytes,
                       const std::string& path);

// What makes a file given as raw float32 SEG-Y (segy_detect.cpp): a
// sentence for the error, or "" when it does not look like SEG-Y. `head` is
// the file's first head_bytes bytes (3600 + 240 to see the first trace header).
inline constexpr std::size_t SEGY_DETECT_BYTES = FILE_HEADER_BYTES + TRACE_HEADER_BYTES;
std::string segy_evidence(const unsigned char* head, std::size_t head_bytes, std::uint64_t file_bytes);

// Whether a 3200-byte record holds the rev-2 ((SEG: EndText)) stanza marker,
// in EBCDIC or ASCII.
bool is_end_text_stanza(const unsigned char* record3200);

}  // namespace tessera::traces
