// Whether a problem fits this machine, judged from its Needs before anything
// is allocated: host memory (MemAvailable), device memory (free on the GPU)
// and the reference answer's arithmetic on the host. A --size that cannot
// run is refused in a second, naming what it would need and what there is,
// instead of ending minutes later in std::bad_alloc.
#pragma once

#include <string>
#include <vector>

#include "harness/device_info.hpp"
#include "harness/problem.hpp"

namespace tessera::harness {

// Past this the host's reference answer would run for many minutes (a
// many-core host does ~10^11 double flops a second; this machine's 2 cores
// far fewer): the sampled check of a GEMM of side 10^6 is 6e13.
inline constexpr double HOST_FLOPS_LIMIT = 1e12;

// Host memory this process may still use: MemAvailable, 0 when unknown.
std::size_t host_memory_available();

// "1.50 GiB", "3.2 PB": sizes too large for size_t are still printed.
std::string format_bytes(double bytes);

// Empty when `needs` fits; otherwise why not, e.g. "needs 1.07 PiB of host
// memory, 11.2 GiB available".
std::string why_it_cannot_run(const Needs& needs, const DeviceInfo& dev);

// --size N: one line per selected pattern whose problems at that size do
// not fit ("gemm: ab m=N n=N k=N needs ..."); empty when every one fits.
struct Refusal {
  std::string pattern, problem, why;
};
std::vector<Refusal> refuse_sizes(const std::vector<const Pattern*>& patterns, const RunOptions& opt, bool bench,
                                  const DeviceInfo& dev);

}  // namespace tessera::harness
