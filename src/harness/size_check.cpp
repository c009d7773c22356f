#include "harness/size_check.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>

namespace tessera::harness {

std::size_t host_memory_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::size_t kib = 0;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 6) {
    bytes /= 1024.0;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.2f} {}", bytes, units[u]);
}

std::string why_it_cannot_run(const Needs& needs, const DeviceInfo& dev) {
  std::vector<std::string> why;
  if (dev.host_available > 0 && needs.host_bytes > double(dev.host_available))
    why.push_back(fmt::format("needs {} of host memory, {} available", format_bytes(needs.host_bytes),
                              format_bytes(double(dev.host_available))));
  if (dev.present && needs.device_bytes > double(dev.free_mem))
    why.push_back(fmt::format("needs {} of GPU memory, {} free", format_bytes(needs.device_bytes),
                              format_bytes(double(dev.free_mem))));
  if (needs.host_flops > HOST_FLOPS_LIMIT)
    why.push_back(fmt::format("its reference answer is {:.2g} flops on the host (the limit is {:.0g})", needs.host_flops,
                              HOST_FLOPS_LIMIT));
  std::string out;
  for (const auto& w : why) out += (out.empty() ? "" : "; ") + w;
  return out;
}

std::vector<Refusal> refuse_sizes(const std::vector<const Pattern*>& patterns, const RunOptions& opt, bool bench,
                                  const DeviceInfo& dev) {
  std::vector<Refusal> out;
  for (const Pattern* p : patterns)
    for (const ProblemFactory& f : bench ? p->bench_problems(opt) : p->verify_problems(opt))
      if (std::string why = why_it_cannot_run(f.needs, dev); !why.empty()) {
        out.push_back({std::string(p->name()), f.label, std::move(why)});
        break;  // the first problem that cannot run says enough for its pattern
      }
  return out;
}

}  // namespace tessera::harness
