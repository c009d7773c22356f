// `tessera conv`: reads the image and the mask, checks everything before any
// work (sizes, the mask's shape and numbers: exit 2, nothing written), runs
// tessera::conv2d (the API's pick, or --variant) once to warm up and
// --repeat times timed, prints the median time and GPixels/s, and writes the
// output through tessera::AtomicFile: it appears whole or not at all.
#include "conv_cmd.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "arguments.hpp"
#include "core/gpu_present.hpp"
#include "exit_codes.hpp"
#include "tessera/convolution.hpp"
#include "tessera/core/atomic_file.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::cli {

namespace {

static_assert(std::endian::native == std::endian::little, "raw images are little-endian float32, read as they lie");

using Clock = std::chrono::steady_clock;

std::vector<float> read_image(const std::string& path, std::size_t width, std::size_t height) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw UsageError(fmt::format("{}: cannot read the image: {}", path, ec.message()));
  const double want = double(width) * double(height) * sizeof(float);
  if (double(size) != want)
    throw UsageError(fmt::format("{}: {} bytes, but --width {} x --height {} float32 pixels are {:.0f} bytes", path,
                                 size, width, height, want));
  std::vector<float> img(width * height);
  std::ifstream f(path, std::ios::binary);
  if (!f.read(reinterpret_cast<char*>(img.data()), std::streamsize(img.size() * sizeof(float))))
    throw UsageError(fmt::format("{}: cannot read its {} bytes", path, size));
  return img;
}

struct Timed {
  std::vector<float> out;
  double median_ms = 0;
  std::string variant;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

Timed run_on_host(const ConvArgs& a, const std::vector<float>& img, const MaskFile& m, const ConvOptions& o) {
  Timed t{std::vector<float>(img.size()), 0, o.variant};
  std::vector<double> times;
  for (int r = 0; r <= a.repeat; ++r) {
    const auto t0 = Clock::now();
    conv2d(img.data(), a.width, a.height, m.taps.data(), m.width, m.height, t.out.data(), o);
    if (r > 0) times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  t.median_ms = median(times);
  return t;
}

#if TESSERA_HAVE_CUDA
Timed run_on_device(const ConvArgs& a, const std::vector<float>& img, const MaskFile& m, const ConvOptions& o) {
  Timed t{std::vector<float>(img.size()), 0, o.variant};
  DeviceBuffer<float> d_in(img.size(), "conv image"), d_out(img.size(), "conv output");
  d_in.upload(img.data(), img.size());
  std::vector<double> times;
  cudaEvent_t start, stop;
  TESSERA_CUDA(cudaEventCreate(&start));
  TESSERA_CUDA(cudaEventCreate(&stop));
  for (int r = 0; r <= a.repeat; ++r) {  // run 0 warms up (cuFFT plans, first launches)
    TESSERA_CUDA(cudaEventRecord(start, o.stream));
    conv2d(d_in.data(), a.width, a.height, m.taps.data(), m.width, m.height, d_out.data(), o);
    TESSERA_CUDA(cudaEventRecord(stop, o.stream));
    TESSERA_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    TESSERA_CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (r > 0) times.push_back(ms);
  }
  (void)cudaEventDestroy(start);
  (void)cudaEventDestroy(stop);
  d_out.download(t.out.data(), t.out.size());
  t.median_ms = median(times);
  return t;
}
#endif

}  // namespace

MaskFile read_mask_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw UsageError(fmt::format("--mask {}: cannot open the file", path));
  MaskFile m;
  std::string line;
  std::size_t line_no = 0, first_row_line = 0;
  while (std::getline(f, line)) {
    ++line_no;
    const auto start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    std::istringstream words(line);
    std::string word;
    std::size_t count = 0;
    while (words >> word) {
      char* end = nullptr;
      errno = 0;
      const float v = std::strtof(word.c_str(), &end);
      if (end == word.c_str() || *end != '\0')
        throw UsageError(fmt::format("--mask {} line {}: '{}' is not a number", path, line_no, word));
      if (!std::isfinite(v) || errno == ERANGE)
        throw UsageError(fmt::format("--mask {} line {}: '{}' is not a finite float", path, line_no, word));
      m.taps.push_back(v);
      ++count;
    }
    if (m.height == 0) {
      m.width = count;
      first_row_line = line_no;
    } else if (count != m.width) {
      throw UsageError(fmt::format("--mask {} line {}: {} numbers, but the first row (line {}) has {}", path, line_no,
                                   count, first_row_line, m.width));
    }
    ++m.height;
  }
  if (m.height == 0) throw UsageError(fmt::format("--mask {}: no rows of numbers", path));
  if (m.width % 2 == 0)
    throw UsageError(fmt::format("--mask {}: {} columns: a mask needs an odd width (a centre tap)", path, m.width));
  if (m.height % 2 == 0)
    throw UsageError(fmt::format("--mask {}: {} rows: a mask needs an odd height (a centre tap)", path, m.height));
  return m;
}

CLI::App* add_conv_command(CLI::App& app, ConvArgs& a) {
  auto* cmd = app.add_subcommand("conv", "2D convolution of a raw float32 image with a mask from a text file "
                                         "(zero outside the image); writes the result atomically");
  cmd->add_option("IN", a.in, "the image: raw little-endian float32, --height rows of --width pixels")->required();
  cmd->add_option("OUT", a.out, "the result, same layout (written only when everything succeeded)")->required();
  cmd->add_option("--width", a.width, "pixels per row")->required()->check(positive_integer());
  cmd->add_option("--height", a.height, "rows")->required()->check(positive_integer());
  cmd->add_option("--mask", a.mask, "text file: rows of whitespace-separated numbers, odd width and height; "
                                    "'#' lines are comments")
      ->required();
  cmd->add_option("--variant", a.variant, "a conv2d variant (tessera list conv2d); default: the API's pick");
  cmd->add_option("--repeat", a.repeat, "timed repetitions after one warm-up; the median is reported")
      ->check(positive_integer())
      ->capture_default_str();
  return cmd;
}

int conv_cmd(const ConvArgs& a) {
  // Everything the user gave is checked before any work.
  const MaskFile m = read_mask_file(a.mask);
  if (m.width > a.width)
    throw UsageError(fmt::format("--mask {}: {} columns, wider than the image (--width {})", a.mask, m.width, a.width));
  if (m.height > a.height)
    throw UsageError(fmt::format("--mask {}: {} rows, taller than the image (--height {})", a.mask, m.height, a.height));
  if (a.width > SIZE_MAX / sizeof(float) / a.height)
    throw UsageError(fmt::format("--width {} x --height {} overflows", a.width, a.height));
  const std::vector<float> img = read_image(a.in, a.width, a.height);
  const bool gpu = api::gpu_present();
  ConvOptions o;
  o.variant = a.variant;
  try {
    o.variant = a.variant.empty()
                    ? conv2d_default_variant(a.width, a.height, m.taps.data(), m.width, m.height)
                    : a.variant;
    // The workspace query resolves and checks the variant (name, support) without running anything, so that a
    // bad --variant is a usage error.
    (void)conv2d_workspace_bytes(a.width, a.height, m.taps.data(), m.width, m.height, o);
  } catch (const Error& e) {
    throw UsageError(fmt::format("--variant: {}", e.what()));
  }
  if (!gpu && o.variant.rfind("cpu_", 0) != 0)
    throw UsageError(fmt::format("--variant {}: runs on a GPU and no GPU was found (the cpu_ variants run here)",
                                 o.variant));
  const bool separable = conv_mask_separable(m.taps.data(), m.width, m.height);
  Timed t;
#if TESSERA_HAVE_CUDA
  if (gpu && o.variant.rfind("cpu_", 0) != 0) t = run_on_device(a, img, m, o);
  else t = run_on_host(a, img, m, o);
#else
  t = run_on_host(a, img, m, o);
#endif
  const double px = double(a.width) * double(a.height);
  fmt::print("tessera conv: {} x {} image, {} x {} mask{}, variant {} ({}): {:.3f} ms, {:.3g} GPixels/s (median of {})\n",
             a.width, a.height, m.width, m.height, separable ? " (separable)" : "", t.variant,
             gpu ? "GPU" : "CPU, no GPU found", t.median_ms, px / (t.median_ms * 1e-3) / 1e9, a.repeat);
  AtomicFile out(a.out);
  out.write(std::string_view(reinterpret_cast<const char*>(t.out.data()), t.out.size() * sizeof(float)));
  out.commit();
  fmt::print("wrote {} ({} bytes)\n", a.out, t.out.size() * sizeof(float));
  return exit_ok;
}

}  // namespace tessera::cli
