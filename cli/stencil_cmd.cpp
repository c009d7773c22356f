// `tessera stencil IN.raw OUT.raw --nx --ny --nz --sweeps N [--c0 --c1]
// [--type float|double] [--variant V] [--repeat R]`. Every problem with the
// options or the files (a dimension under 3, a coefficient that is not
// finite, negative sweeps, an input whose size is not nx*ny*nz*sizeof(type),
// an output that cannot be created, an unknown variant) is found before
// anything runs or is written: exit 2 and no output file. The grid goes
// through tessera::stencil7 once for the result, then `repeat` more times for
// the timing (the median); the result is written through tessera::AtomicFile.
#include "stencil_cmd.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

#include "arguments.hpp"
#include "core/gpu_present.hpp"
#include "exit_codes.hpp"
#include "families/stencil7/contract.hpp"
#include "harness/timing.hpp"
#include "tessera/core/atomic_file.hpp"
#include "tessera/core/pending_files.hpp"
#include "tessera/stencil.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::cli {

namespace {

static_assert(std::endian::native == std::endian::little, "raw grids are read and written as little-endian");

namespace fs = std::filesystem;

void check_arguments(const StencilArgs& a) {
  const std::pair<const char*, std::size_t> dims[] = {{"--nx", a.nx}, {"--ny", a.ny}, {"--nz", a.nz}};
  for (const auto& [name, n] : dims)
    if (n < 3)
      throw UsageError(fmt::format("{} {}: the grid needs at least 3 cells in every dimension (an interior cell)",
                                   name, n));
  if (a.sweeps < 0) throw UsageError(fmt::format("--sweeps {}: must be 0 or more", a.sweeps));
  if (!std::isfinite(a.c0)) throw UsageError(fmt::format("--c0 {}: the coefficient must be a finite number", a.c0));
  if (!std::isfinite(a.c1)) throw UsageError(fmt::format("--c1 {}: the coefficient must be a finite number", a.c1));
  if (!a.variant.empty() && stencil7_impl::variants_ladder().find(a.variant) == nullptr) {
    std::string names;
    for (const auto& v : stencil7_impl::variants_ladder().all()) names += fmt::format("{}{}", names.empty() ? "" : ", ", v.info.name);
    throw UsageError(fmt::format("--variant {}: no such stencil7 variant ({})", a.variant, names));
  }
}

// IN must hold exactly the grid; OUT must be creatable (checked before the
// run; the write itself is atomic).
void check_files(const StencilArgs& a, std::size_t want_bytes) {
  std::error_code ec;
  const auto size = fs::file_size(a.in, ec);
  if (ec) throw UsageError(fmt::format("{}: cannot read the input grid: {}", a.in, ec.message()));
  if (size != want_bytes)
    throw UsageError(fmt::format("{}: holds {} bytes, but a {} x {} x {} grid of {} needs {} bytes", a.in, size, a.nx,
                                 a.ny, a.nz, a.type, want_bytes));
  const fs::path dir = fs::path(a.out).has_parent_path() ? fs::path(a.out).parent_path() : fs::path(".");
  if (fs::is_directory(a.out)) throw UsageError(fmt::format("{}: the output is a directory", a.out));
  if (::access(dir.c_str(), W_OK) != 0)
    throw UsageError(fmt::format("{}: cannot write in '{}': {}", a.out, dir.string(), std::strerror(errno)));
}

template <class T>
std::vector<T> read_grid(const std::string& path, std::size_t cells) {
  std::vector<T> grid(cells);
  std::ifstream f(path, std::ios::binary);
  if (!f.read(reinterpret_cast<char*>(grid.data()), std::streamsize(cells * sizeof(T))))
    throw UsageError(fmt::format("{}: cannot read {} bytes", path, cells * sizeof(T)));
  return grid;
}

harness::TimingOptions timing(int repeat) { return {.warmup = 0, .min_reps = repeat, .max_reps = repeat, .budget_ms = 0}; }

struct Result {
  std::string variant, where;
  double ms = 0;
};

// The result in `out`, and the median time of `repeat` more calls.
template <class T>
Result run(const StencilArgs& a, const std::vector<T>& in, std::vector<T>& out) {
  const std::size_t cells = in.size();
  const T c0 = T(a.c0), c1 = T(a.c1);
  Stencil7Options o{.variant = a.variant};
  const Dtype dtype = dtype_of<T>();
  Result r{a.variant.empty() ? stencil7_default_variant(dtype, a.nx, a.ny, a.nz, a.sweeps) : a.variant, "", 0};
  const auto* v = stencil7_impl::variants_ladder().find(r.variant);
  const bool on_gpu = v->info.backend == Backend::cuda;
  if (!on_gpu) {
    std::vector<unsigned char> ws(stencil7_workspace_bytes(dtype, a.nx, a.ny, a.nz, a.sweeps, o));
    o.workspace = {ws.data(), ws.size()};
    const auto once = [&] { stencil7(in.data(), out.data(), a.nx, a.ny, a.nz, a.sweeps, c0, c1, o); };
    once();
    r.ms = harness::time_cpu(once, timing(a.repeat)).median_ms;
    r.where = "the host";
    return r;
  }
#if TESSERA_HAVE_CUDA
  DeviceBuffer<T> d_in(cells, "stencil input"), d_out(cells, "stencil output");
  DeviceBytes ws(stencil7_workspace_bytes(dtype, a.nx, a.ny, a.nz, a.sweeps, o), "stencil workspace");
  o.workspace = {ws.data(), ws.bytes()};
  d_in.upload(in.data(), cells);
  cudaStream_t s = nullptr;
  TESSERA_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  o.stream = s;
  // Events around each call, not the harness's graph replays: the public
  // call checks its pointers' memory kind, which a stream capture refuses.
  cudaEvent_t start = nullptr, stop = nullptr;
  try {
    TESSERA_CUDA(cudaEventCreate(&start));
    TESSERA_CUDA(cudaEventCreate(&stop));
    const auto once = [&] { stencil7(d_in.data(), d_out.data(), a.nx, a.ny, a.nz, a.sweeps, c0, c1, o); };
    once();  // the result, and the warm-up
    std::vector<double> times;
    for (int k = 0; k < a.repeat; ++k) {
      TESSERA_CUDA(cudaEventRecord(start, s));
      once();
      TESSERA_CUDA(cudaEventRecord(stop, s));
      TESSERA_CUDA(cudaEventSynchronize(stop));
      float ms = 0;
      TESSERA_CUDA(cudaEventElapsedTime(&ms, start, stop));
      times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    r.ms = times[times.size() / 2];
  } catch (...) {
    if (start != nullptr) (void)cudaEventDestroy(start);
    if (stop != nullptr) (void)cudaEventDestroy(stop);
    (void)cudaStreamDestroy(s);
    throw;
  }
  TESSERA_CUDA(cudaEventDestroy(start));
  TESSERA_CUDA(cudaEventDestroy(stop));
  TESSERA_CUDA(cudaStreamDestroy(s));
  d_out.download(out.data(), cells);
  r.where = "the GPU";
#endif
  return r;
}

template <class T>
int stencil_typed(const StencilArgs& a) {
  const std::size_t cells = a.nx * a.ny * a.nz;
  check_files(a, cells * sizeof(T));
  if (!a.variant.empty()) {
    const auto* v = stencil7_impl::variants_ladder().find(a.variant);
    if (v->info.backend == Backend::cuda && !api::gpu_present())
      throw UsageError(fmt::format("--variant {}: runs on a GPU and no GPU was found (cpu_reference and cpu_openmp "
                                   "run here)",
                                   a.variant));
  }
  const std::vector<T> in = read_grid<T>(a.in, cells);
  std::vector<T> out(cells);
  const Result r = run<T>(a, in, out);
  fmt::print("stencil  {}: {} {} x {} x {}, {} sweeps of out = c1 * (6 neighbours) - c0 * centre, c0 = {}, c1 = {}\n",
             a.in, a.type, a.nx, a.ny, a.nz, a.sweeps, a.c0, a.c1);
  fmt::print("variant  {}{} on {}\n", r.variant, a.variant.empty() ? " (the API's pick)" : "", r.where);
  const double cell_sweeps = double(cells) * double(a.sweeps);
  const double gcells = r.ms > 0 ? cell_sweeps / (r.ms * 1e6) : 0.0;
  fmt::print("time     {:.4g} ms (median of {}), {:.2f} GCells/s (cells x sweeps / time); an untiled sweep moves {} "
             "B per cell: {:.1f} GB/s equivalent\n",
             r.ms, a.repeat, gcells, 2 * sizeof(T), gcells * double(2 * sizeof(T)));
  AtomicFile file(a.out);
  file.write(std::string_view(reinterpret_cast<const char*>(out.data()), cells * sizeof(T)));
  file.commit();
  fmt::print("out      {}: {} bytes\n", a.out, cells * sizeof(T));
  return exit_ok;
}

}  // namespace

CLI::App* add_stencil_command(CLI::App& app, StencilArgs& a) {
  auto* cmd = app.add_subcommand("stencil", "Jacobi sweeps of the 7-point 3D stencil on a raw grid: the result "
                                            "written atomically, time and GCells/s printed");
  cmd->add_option("IN", a.in, "the input grid: raw little-endian float or double, x fastest, nx*ny*nz values")
      ->required();
  cmd->add_option("OUT", a.out, "the result, same layout (written whole or not at all)")->required();
  cmd->add_option("--nx", a.nx, "cells along x (the fastest index), at least 3")->required()->check(non_negative_integer());
  cmd->add_option("--ny", a.ny, "cells along y, at least 3")->required()->check(non_negative_integer());
  cmd->add_option("--nz", a.nz, "cells along z (the slowest index), at least 3")->required()->check(non_negative_integer());
  cmd->add_option("--sweeps", a.sweeps, "Jacobi sweeps (0 copies the grid)")->required();
  cmd->add_option("--c0", a.c0, "centre coefficient: out = c1 * (sum of the 6 neighbours) - c0 * centre")
      ->capture_default_str();
  cmd->add_option("--c1", a.c1, "neighbour coefficient")->capture_default_str();
  cmd->add_option("--type", a.type, "value type: float or double")->capture_default_str();
  cmd->add_option("--variant", a.variant, "a stencil7 variant by name (tessera list stencil7); default: the API's pick");
  cmd->add_option("--repeat", a.repeat, "timed calls after the first; the median is reported")
      ->check(positive_integer())
      ->capture_default_str();
  return cmd;
}

int stencil_cmd(const StencilArgs& args) {
  check_arguments(args);
  tessera::remove_temporaries_on_signals();  // ^C while OUT is written: its temporary goes too
  if (args.type == "float") return stencil_typed<float>(args);
  if (args.type == "double") return stencil_typed<double>(args);
  throw UsageError(fmt::format("--type {}: unknown value type (float, double)", args.type));
}

}  // namespace tessera::cli
