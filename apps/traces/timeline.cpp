// The process's clock for --verbose: seconds since exec. The steady clock is
// read once during static initialisation (before main); what came before it
// (the loader, the CUDA runtime's and other libraries' static set-up) is
// taken from /proc/self/stat, whose start time counts in clock ticks (10 ms).
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include "tessera/apps/traces.hpp"

namespace tessera::traces {
namespace {

// Seconds from exec to now, from the kernel's record of the start; 0 when
// /proc is not there.
double seconds_since_exec() {
  std::ifstream f("/proc/self/stat");
  std::string line;
  if (!std::getline(f, line)) return 0;
  // Field 2 (the command) is in parentheses and may hold spaces: skip past it.
  const auto close = line.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream rest(line.substr(close + 1));
  std::string field;
  // Fields 3..21, then 22: starttime, in clock ticks since boot.
  for (int i = 3; i <= 21; ++i)
    if (!(rest >> field)) return 0;
  unsigned long long start_ticks = 0;
  if (!(rest >> start_ticks)) return 0;
  const long hz = ::sysconf(_SC_CLK_TCK);
  timespec now{};
  if (hz <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &now) != 0) return 0;
  const double since = static_cast<double>(now.tv_sec) + now.tv_nsec * 1e-9 - static_cast<double>(start_ticks) / hz;
  return since > 0 && since < 60 ? since : 0;  // a stale or odd clock: no guess
}

struct Origin {
  std::chrono::steady_clock::time_point at = std::chrono::steady_clock::now();
  double before = seconds_since_exec();
};
// Namespace scope: set while the program initialises, before main.
const Origin g_origin;

}  // namespace

double seconds_since_start() noexcept {
  return g_origin.before + std::chrono::duration<double>(std::chrono::steady_clock::now() - g_origin.at).count();
}

}  // namespace tessera::traces
