// SEG-Y without segyio: this build was configured without libsegyio-dev, so
// SEG-Y files get a clear error; raw float32 works as in every build.
#include "tessera/core/error.hpp"
#include "trace_io.hpp"

namespace tessera::traces {
namespace {
[[noreturn]] void no_segyio(const std::string& path) {
  throw Error(path + ": SEG-Y needs segyio, and this build of tessera has none (install libsegyio-dev, "
                     "tools/setup-debian does, and rebuild); raw float32 input works without it: "
                     "--traces N --samples M");
}
}  // namespace

bool segy_supported() noexcept { return false; }

std::unique_ptr<TraceReader> open_segy_reader(const std::string& path) { no_segyio(path); }

std::unique_ptr<TraceWriter> open_segy_writer(const std::string&, const std::string& shown_as, const TraceReader&,
                                              int) {
  no_segyio(shown_as);
}

}  // namespace tessera::traces
