// `tessera mriq IN.bin OUT.bin [--variant NAME]`.
//
// IN.bin, little-endian: int32 numK, int32 numX, then float32 arrays kx,
// ky, kz (numK each), x, y, z (numX each), phiR, phiI (numK each).
// OUT.bin: uint32 numX, then float32 Qr (numX) and Qi (numX).
//
// The whole input is read and checked before anything runs: a file shorter
// than its header, a negative count, a size that disagrees with the counts
// (expected vs actual bytes), a NaN or infinite value (array, index and
// byte offset) are input errors (exit 2) naming the file; OUT.bin is
// written through tessera::AtomicFile, so it appears whole or not at all.
// Prints numK, numX, the variant, the compute time (on a GPU the device
// time of the call alone) with (voxel, sample) pairs/s, the setup (device
// memory, uploads, the first call that loads the kernels, copies back) and
// the end-to-end time with the read and the write.
#include "mriq_cmd.hpp"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/gpu_present.hpp"
#include "exit_codes.hpp"
#include "families/mriq/contract.hpp"
#include "tessera/core/atomic_file.hpp"
#include "tessera/core/pending_files.hpp"
#include "tessera/mriq.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::cli {

namespace {

static_assert(std::endian::native == std::endian::little, "the MRI-Q file layout is little-endian");

constexpr const char* WHO = "tessera mriq";
constexpr const char* ARRAY_NAMES[8] = {"kx", "ky", "kz", "x", "y", "z", "phiR", "phiI"};

// The file's arrays in file order (kx, ky, kz, x, y, z, phiR, phiI).
struct MriqFile {
  std::int32_t num_k = 0, num_x = 0;
  std::vector<float> a[8];
};

std::vector<char> read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw UsageError(fmt::format("{}: cannot open {}: {}", WHO, path, std::strerror(errno)));
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) throw UsageError(fmt::format("{}: {}: read error", WHO, path));
  return bytes;
}

MriqFile parse(const std::string& path, const std::vector<char>& bytes) {
  if (bytes.size() < 8)
    throw UsageError(fmt::format("{}: {}: truncated: {} bytes, the header (int32 numK, int32 numX) needs 8", WHO, path,
                                 bytes.size()));
  MriqFile f;
  std::memcpy(&f.num_k, bytes.data(), 4);
  std::memcpy(&f.num_x, bytes.data() + 4, 4);
  if (f.num_k < 0) throw UsageError(fmt::format("{}: {}: offset 0: numK = {} is negative", WHO, path, f.num_k));
  if (f.num_x < 0) throw UsageError(fmt::format("{}: {}: offset 4: numX = {} is negative", WHO, path, f.num_x));
  const std::uint64_t counts[8] = {std::uint64_t(f.num_k), std::uint64_t(f.num_k), std::uint64_t(f.num_k),
                                   std::uint64_t(f.num_x), std::uint64_t(f.num_x), std::uint64_t(f.num_x),
                                   std::uint64_t(f.num_k), std::uint64_t(f.num_k)};
  const std::uint64_t expected = 8 + 4 * (5 * std::uint64_t(f.num_k) + 3 * std::uint64_t(f.num_x));
  if (bytes.size() != expected)
    throw UsageError(fmt::format("{}: {}: numK = {} and numX = {} need {} bytes (8 + 4 x (5 numK + 3 numX)), the file "
                                 "has {}: {}",
                                 WHO, path, f.num_k, f.num_x, expected, bytes.size(),
                                 bytes.size() < expected ? "truncated" : "extra bytes after the last array"));
  std::size_t offset = 8;
  for (int a = 0; a < 8; ++a) {
    f.a[a].resize(counts[a]);
    std::memcpy(f.a[a].data(), bytes.data() + offset, counts[a] * 4);
    for (std::size_t i = 0; i < counts[a]; ++i)
      if (!std::isfinite(f.a[a][i]))
        throw UsageError(fmt::format("{}: {}: offset {}: {}[{}] is {}", WHO, path, offset + 4 * i, ARRAY_NAMES[a], i,
                                     std::isnan(f.a[a][i]) ? "NaN" : "infinite"));
    offset += counts[a] * 4;
  }
  return f;
}

// Where the time went. `compute_s` is the call alone: on a GPU the device
// time between two events around it, after a first call has loaded the
// kernels (CUDA loads a module's kernels on their first launch, milliseconds
// that a kernel of a fraction of a millisecond would otherwise carry) and
// with the workspace allocated beforehand.
struct Timings {
  double setup_s = 0;       // device memory and uploads (GPU)
  double first_call_s = 0;  // the loading call (GPU)
  double compute_s = 0;     // the call whose rate is printed
  double copy_back_s = 0;   // Q back to the host (GPU)
  bool on_gpu = false;
};

// The loading call: the first FIRST_CALL_SAMPLES samples and every voxel
// take the same kernels as the whole call (the sample slicing of the
// global-memory rungs included: two slices or more either way when the
// voxels alone do not fill the GPU) at a small fraction of its work; Q is
// overwritten by the timed call.
constexpr std::size_t FIRST_CALL_SAMPLES = 512;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Runs the API on the host (no GPU) or the device with `variant` (resolved:
// the same one for the loading call and the timed call).
Timings compute(const MriqFile& f, const std::string& variant, std::vector<float>& qr, std::vector<float>& qi) {
  const std::size_t K = std::size_t(f.num_k), X = std::size_t(f.num_x);
  qr.assign(X, 0.f);
  qi.assign(X, 0.f);
  // File order kx, ky, kz, x, y, z, phiR, phiI -> the API's argument order.
  const auto& a = f.a;
  MriqOptions o{.check_inputs = false, .variant = variant};  // parse() has checked every value
  Timings t;
  t.on_gpu = api::gpu_present() && mriq_impl::variants_ladder().at(variant, WHO).info.backend == Backend::cuda;
  if (!t.on_gpu) {
    const auto t0 = Clock::now();
    mri_q(a[0].data(), a[1].data(), a[2].data(), a[6].data(), a[7].data(), K, a[3].data(), a[4].data(), a[5].data(),
          X, qr.data(), qi.data(), o);
    t.compute_s = seconds_since(t0);
    return t;
  }
#if TESSERA_HAVE_CUDA
  const auto setup = Clock::now();
  std::vector<DeviceBuffer<float>> d;
  for (int i = 0; i < 8; ++i) {
    d.emplace_back(std::max<std::size_t>(a[i].size(), 1), "mriq input");
    d.back().upload(a[i].data(), a[i].size());
  }
  DeviceBuffer<float> dqr(std::max<std::size_t>(X, 1), "mriq Qr"), dqi(std::max<std::size_t>(X, 1), "mriq Qi");
  const std::size_t ws_bytes = mri_q_workspace_bytes(K, X, o);
  DeviceBuffer<std::byte> ws(std::max<std::size_t>(ws_bytes, 1), "mriq workspace");
  o.workspace = {ws.data(), ws.bytes()};
  TESSERA_CUDA(cudaDeviceSynchronize());
  t.setup_s = seconds_since(setup);
  const auto call = [&](std::size_t num_k) {
    mri_q(d[0].data(), d[1].data(), d[2].data(), d[6].data(), d[7].data(), num_k, d[3].data(), d[4].data(),
          d[5].data(), X, dqr.data(), dqi.data(), o);
  };
  const auto first = Clock::now();
  call(std::min(K, FIRST_CALL_SAMPLES));
  TESSERA_CUDA(cudaDeviceSynchronize());
  t.first_call_s = seconds_since(first);
  cudaEvent_t ev[2];
  for (auto& e : ev) TESSERA_CUDA(cudaEventCreate(&e));
  TESSERA_CUDA(cudaEventRecord(ev[0], nullptr));
  call(K);
  TESSERA_CUDA(cudaEventRecord(ev[1], nullptr));
  TESSERA_CUDA(cudaEventSynchronize(ev[1]));
  float ms = 0;
  TESSERA_CUDA(cudaEventElapsedTime(&ms, ev[0], ev[1]));
  for (auto& e : ev) TESSERA_CUDA(cudaEventDestroy(e));
  t.compute_s = ms * 1e-3;
  const auto back = Clock::now();
  dqr.download(qr.data(), X);
  dqi.download(qi.data(), X);
  t.copy_back_s = seconds_since(back);
#endif
  return t;
}

}  // namespace

CLI::App* add_mriq_command(CLI::App& app, MriqArgs& a) {
  auto* cmd = app.add_subcommand("mriq", "MRI-Q: Q = sum |phi|^2 exp(i 2 pi k.x) for every voxel of a k-space file in "
                                         "the classic benchmark's binary layout");
  cmd->add_option("IN", a.in, "input: int32 numK, int32 numX, float32 kx, ky, kz (numK), x, y, z (numX), phiR, phiI "
                              "(numK), little-endian")
      ->required();
  cmd->add_option("OUT", a.out, "output: uint32 numX, float32 Qr (numX), Qi (numX); written atomically")->required();
  cmd->add_option("--variant", a.variant, "a variant of `tessera list mriq` (default: the API's pick)");
  return cmd;
}

int mriq_cmd(const MriqArgs& args) {
  if (!args.variant.empty() && mriq_impl::variants_ladder().find(args.variant) == nullptr) {
    try {
      (void)mriq_impl::variants_ladder().at(args.variant, WHO);
    } catch (const Error& e) {
      throw UsageError(e.what());
    }
  }
  if (!args.variant.empty() && !api::gpu_present() &&
      mriq_impl::variants_ladder().at(args.variant, WHO).info.backend == Backend::cuda)
    throw UsageError(fmt::format("{}: --variant {} runs on a GPU and no GPU was found; cpu_openmp runs here", WHO,
                                 args.variant));
  tessera::remove_temporaries_on_signals();  // ^C while OUT is written: its temporary goes too
  const auto start = Clock::now();
  const MriqFile f = parse(args.in, read_all(args.in));
  const double read_s = seconds_since(start);
  std::unique_ptr<AtomicFile> out;
  try {
    out = std::make_unique<AtomicFile>(args.out);
  } catch (const Error& e) {
    throw UsageError(fmt::format("{}: {}", WHO, e.what()));
  }
  const std::string variant =
      args.variant.empty() ? mri_q_default_variant(std::size_t(f.num_k), std::size_t(f.num_x)) : args.variant;
  std::vector<float> qr, qi;
  const Timings t = compute(f, variant, qr, qi);
  const auto write_start = Clock::now();
  const std::uint32_t num_x = std::uint32_t(f.num_x);
  out->write(std::string_view(reinterpret_cast<const char*>(&num_x), 4));
  out->write(std::string_view(reinterpret_cast<const char*>(qr.data()), qr.size() * 4));
  out->write(std::string_view(reinterpret_cast<const char*>(qi.data()), qi.size() * 4));
  out->commit();
  const double write_s = seconds_since(write_start);
  const double pairs = double(f.num_k) * double(f.num_x);
  fmt::print("numK            {}\nnumX            {}\nvariant         {}\n", f.num_k, f.num_x, variant);
  fmt::print("compute         {:.3f} ms ({:.3g} pairs/s; {})\n", t.compute_s * 1e3,
             t.compute_s > 0 ? pairs / t.compute_s : 0.0,
             t.on_gpu ? "device time of the call, kernels loaded by a first call" : "the call on the host");
  if (t.on_gpu)
    fmt::print("setup           {:.3f} ms device memory and uploads, {:.3f} ms first call (kernel loading, "
               "{} samples), {:.3f} ms copies back\n",
               t.setup_s * 1e3, t.first_call_s * 1e3, std::min(std::size_t(f.num_k), FIRST_CALL_SAMPLES), t.copy_back_s * 1e3);
  fmt::print("end to end      {:.3f} ms (read {:.3f} ms, compute and copies, write {} {:.3f} ms)\n",
             seconds_since(start) * 1e3, read_s * 1e3, args.out, write_s * 1e3);
  return exit_ok;
}

}  // namespace tessera::cli
