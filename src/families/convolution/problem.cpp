// The convolution patterns as the harness sees them ("conv1d", "conv2d"):
// seeded images and masks (random, and separable ones built as an outer
// product), the reference in double with each output's sum of |tap x input|
// for its tolerance, poisoned outputs (pitch padding included, which must
// stay poison), the cost model with its bound, and the seed's
// reduction-ratio arithmetic as each row's note.
//
// Tolerance: |got - ref| <= eps * (16 + 4 sqrt(taps)) * sum |mask_j in_j|,
// eps = 2^-24 (float accumulation along the longest chain of any rung, as
// the harness's sum checks); the FFT rungs add a factor 4 log2(nfft) for
// the transforms' rounding. Written !(err <= tol) so NaN fails.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "families/convolution/api_common.hpp"
#include "families/convolution/contract.hpp"
#include "families/convolution/fft_geometry.hpp"
#include "families/convolution/policy.hpp"
#include "families/convolution/separable.hpp"
#include "families/convolution/tiles.hpp"
#include "families/register_all.hpp"
#include "harness/generate.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using convolution_impl::ConvSpec;
using convolution_impl::ConvVariant;

// The H100's balance: 52 TFLOP/s FP32 (cublasSgemm, measured) over 3.0 TB/s
// copy bandwidth (docs/design.md): above ~17 flops per byte moved the FMA
// pipe, not memory, is the bound. 5x5 (6.25 flops/byte) and short 1D masks
// are memory bound; 9x9 (20.25) and 1,025 taps compute bound.
constexpr double MACHINE_BALANCE = 17.3;
// Multiply-adds beyond which the serial reference (minutes) and the OpenMP
// rung are left out; the check's own reference runs in parallel.
constexpr double SERIAL_MACS = 8.6e9;   // 2^33: ~10 s serial
constexpr double OPENMP_MACS = 3.5e10;  // 2^35: seconds on 16 cores

enum class MaskKind { random, separable };

struct Shape {
  std::size_t width, height, mask_w, mask_h;
  MaskKind kind = MaskKind::random;
  std::size_t pad = 0;  // pitch = width + pad (2D)
};

// 2D. Bench: 8192^2 (256 MiB each way, 5x the H100's L2) with 5x5
// (memory bound) and 9x9 (compute bound) random masks, and 9x9 separable.
constexpr Shape GPU_BENCH_2D[] = {{8192, 8192, 5, 5}, {8192, 8192, 9, 9}, {8192, 8192, 9, 9, MaskKind::separable}};
constexpr Shape CPU_BENCH_2D[] = {{2048, 2048, 5, 5}, {2048, 2048, 9, 9}, {2048, 2048, 9, 9, MaskKind::separable}};
// Verify: one pixel, masks as wide and as tall as the image, images smaller
// than one tile, tile edges +- 1, primes, one-row and one-column masks,
// rectangular masks (the runtime-size paths), pitched rows, separable masks.
constexpr Shape VERIFY_2D[] = {
    {1, 1, 1, 1},       {5, 3, 5, 3},        {7, 7, 7, 7},         {9, 9, 9, 9},          {3, 2, 3, 1},
    {33, 17, 3, 3},     {31, 9, 9, 9},       {32, 64, 5, 5},       {65, 63, 7, 7},        {97, 101, 9, 9},
    {100, 1, 5, 1},     {1, 100, 1, 5},      {1000, 3, 3, 3},      {3, 1000, 3, 3},       {513, 517, 11, 7},
    {200, 150, 15, 15}, {129, 131, 1, 9},    {131, 129, 9, 1},     {257, 129, 5, 5, MaskKind::random, 3},
    {40, 40, 9, 9, MaskKind::separable},     {123, 77, 5, 5, MaskKind::separable, 5},
    {300, 200, 31, 31, MaskKind::separable}, {1024, 1024, 5, 5},   {45, 33, 45, 33},
    // pipelined_tiles (128 x 64 tiles copied in 16-byte chunks when the
    // pitch is a multiple of 4 floats): a right-edge chunk 2 floats inside,
    // interior tiles, and more tiles than resident blocks (each block walks
    // several); one-column and one-row images
    {262, 9000, 5, 5, MaskKind::random, 2}, {390, 200, 9, 9, MaskKind::random, 2}, {1, 300, 1, 1}, {300, 1, 1, 1}};
constexpr Shape QUICK_2D[] = {{1, 1, 1, 1}, {7, 7, 7, 7}, {33, 17, 3, 3}, {97, 101, 9, 9}, {100, 80, 11, 7},
                              {40, 40, 9, 9, MaskKind::separable}, {65, 63, 5, 5, MaskKind::random, 3},
                              // a one-row mask is rank 1: separable with 9 + 1 taps, whose
                              // last row-tap group once read past the taps' shared region
                              // (compute-sanitizer catches it; so does the 1 x 1 above)
                              {131, 129, 9, 1},
                              // pipelined_tiles: see VERIFY_2D
                              {262, 9000, 5, 5, MaskKind::random, 2}, {390, 200, 9, 9, MaskKind::random, 2},
                              {1, 300, 1, 1}, {300, 1, 1, 1}};
// 1D. Bench: 2^26 samples with a 1,025-tap mask (the FFT's case) and a
// 7-tap one (memory bound).
constexpr Shape GPU_BENCH_1D[] = {{std::size_t(1) << 26, 1, 1025, 1}, {std::size_t(1) << 26, 1, 7, 1}};
constexpr Shape CPU_BENCH_1D[] = {{std::size_t(1) << 20, 1, 1025, 1}, {std::size_t(1) << 24, 1, 7, 1}};
constexpr Shape VERIFY_1D[] = {{1, 1, 1, 1},          {7, 1, 7, 1},           {100, 1, 3, 1},        {255, 1, 1, 1},
                               {257, 1, 255, 1},      {1000, 1, 33, 1},       {2047, 1, 9, 1},       {2049, 1, 17, 1},
                               {4097, 1, 101, 1},     {1025, 1, 1025, 1},     {2049, 1, 1025, 1},    {70001, 1, 1025, 1},
                               {100000, 1, 7, 1},     {(1 << 20) + 3, 1, 513, 1}, {6149, 1, 257, 1}, {30000, 1, 4001, 1},
                               // fft_fused's blocking: 3 segments (a lone last one), its 2,049-tap limit
                               {9217, 1, 1025, 1},    {12289, 1, 2049, 1},    {8193, 1, 3, 1}};
constexpr Shape QUICK_1D[] = {{7, 1, 7, 1}, {1000, 1, 33, 1}, {4097, 1, 101, 1}, {2049, 1, 1025, 1}, {100000, 1, 7, 1},
                              {1, 1, 1, 1}, {9217, 1, 1025, 1}, {8193, 1, 3, 1}};

ConvSpec spec_of(const Shape& s) {
  ConvSpec c;
  c.width = s.width;
  c.height = s.height;
  c.pitch = s.width + s.pad;
  c.mask_w = s.mask_w;
  c.mask_h = s.mask_h;
  return c;
}

std::string label_of(const Shape& s, bool one_d) {
  std::string l = one_d ? fmt::format("float n={} mask {}", s.width, s.mask_w)
                        : fmt::format("float {}x{} mask {}x{}", s.width, s.height, s.mask_w, s.mask_h);
  if (s.kind == MaskKind::separable) l += " separable";
  if (s.pad != 0) l += fmt::format(" pitch {}", s.width + s.pad);
  return l;
}

bool is_fft(std::string_view name) {
  return name == "fft_overlap_save" || name == "cufft_whole_signal" || name == "fft_fused";
}

// The seed's reduction-ratio arithmetic for the row's tiling: global loads
// per output, and how many fewer than the basic kernel's one per tap.
std::string tiling_note(std::string_view name, const ConvSpec& s, bool one_d) {
  namespace t = convolution_impl::tiles;
  const double taps = double(s.taps());
  t::LoadCount c;
  if (name == "basic" || name == "constant_mask") c.loads_per_output = taps;
  else if (name == "tiled_output_blocks") c = t::tile_loads(s, t::output_tile(one_d));
  else if (name == "tiled_input_blocks") c = t::input_block_loads(s, t::input_block(one_d));
  else if (name == "tiled_interior_l2") c = t::interior_loads(s, t::output_tile(one_d));
  else if (name == "register_blocked" || name == "separable") c = t::tile_loads(s, t::register_tile(one_d));
  else if (name == "fft_fused") {
    const auto f = convolution_impl::fused_blocking_of(s);
    return fmt::format("nfft {} (complex: 2 segments), {} outputs per segment, {} blocks", convolution_impl::FUSED_NFFT,
                       f.valid, f.blocks);
  } else if (is_fft(name)) {
    const auto os = name == "fft_overlap_save" ? convolution_impl::overlap_save_of(s) : convolution_impl::whole_signal_of(s);
    return fmt::format("nfft {}, {} outputs per transform, {} transforms", os.nfft, os.valid, os.blocks);
  } else return {};
  if (c.loads_per_output <= 0) return {};
  std::string note = fmt::format("global loads/output {:.3g} (reduction {:.3g}x of basic's {:.0f})", c.loads_per_output,
                                 taps / c.loads_per_output, taps);
  if (c.l2_halo_per_output > 0) note += fmt::format(" + {:.3g} halo reads/output via L2", c.l2_halo_per_output);
  if (name == "separable") note += fmt::format("; {} FMAs/output instead of {}", s.mask_w + s.mask_h, s.taps());
  return note;
}

class ConvProblem;

class ConvInstance final : public Instance {
 public:
  ConvInstance(const ConvProblem& p, const ConvVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  const ConvProblem& problem_;
  const ConvVariant& variant_;
  std::vector<float> host_out_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_out_, dev_ws_;
#endif
};

class ConvProblem final : public Problem {
 public:
  ConvProblem(const Shape& shape, bool one_d, std::uint64_t seed, bool gpu) : one_d_(one_d), gpu_(gpu) {
    spec_ = spec_of(shape);
    desc_ = {one_d ? "conv1d" : "conv2d", label_of(shape, one_d), "float", "", "",
             std::string(to_string(Distribution::uniform)),
             one_d ? std::vector<std::size_t>{shape.width} : std::vector<std::size_t>{shape.height, shape.width}};
    input_.resize(elements());
    fill_random(input_.data(), input_.size(), seed, Distribution::uniform);
    make_mask(shape, seed);
    reference();
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_in_ = DeviceBytes(input_.size() * sizeof(float), "conv input");
      dev_in_.upload(input_.data(), dev_in_.bytes());
      std::vector<float> taps = mask_;
      taps.insert(taps.end(), row_.begin(), row_.end());
      taps.insert(taps.end(), col_.begin(), col_.end());
      dev_taps_ = DeviceBytes(taps.size() * sizeof(float), "conv mask");
      dev_taps_.upload(taps.data(), dev_taps_.bytes());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    // Each pixel read once and written once; one multiply-add per tap.
    const double px = double(spec_.outputs());
    const double bytes = 2.0 * px * sizeof(float), flops = 2.0 * double(spec_.taps()) * px;
    return {bytes, flops, flops / bytes > MACHINE_BALANCE ? Bound::compute : Bound::memory};
  }
  bool supports(const VariantInfo& v) const override {
    const ConvVariant* cv = convolution_impl::ladder_for(one_d_).find(v.name);
    if (cv == nullptr || !(v.backend == Backend::cpu || gpu_) || !cv->supports(spec_)) return false;
    const double macs = double(spec_.outputs()) * double(spec_.taps());
    if (v.name == "cpu_reference") return macs <= SERIAL_MACS;
    if (v.name == "cpu_openmp") return macs <= OPENMP_MACS;
    return true;
  }
  std::string why_unsupported(const VariantInfo& v) const override {
    if (v.name == "separable" && !spec_.separable) return "separable: the mask is not separable";
    if (v.backend == Backend::cpu) return fmt::format("{}: {} multiply-adds take too long on the CPU", v.name,
                                                      double(spec_.outputs()) * double(spec_.taps()));
    return fmt::format("{} does not support {}", v.name, desc_.label);
  }
  std::string api_pick(bool gpu) const override { return convolution_impl::pick(spec_, one_d_, gpu); }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<ConvInstance>(*this, *convolution_impl::ladder_for(one_d_).find(v.name));
  }

  const ConvSpec& spec() const { return spec_; }
  bool one_d() const { return one_d_; }
  std::size_t elements() const { return (spec_.height - 1) * spec_.pitch + spec_.width; }
  const float* host_in() const { return input_.data(); }
  const float* host_mask() const { return mask_.data(); }
  const float* host_row() const { return spec_.separable ? row_.data() : nullptr; }
  const float* host_col() const { return spec_.separable ? col_.data() : nullptr; }
#if TESSERA_HAVE_CUDA
  const float* dev_in() const { return static_cast<const float*>(dev_in_.data()); }
  const float* dev_mask() const { return static_cast<const float*>(dev_taps_.data()); }
  const float* dev_row() const { return spec_.separable ? dev_mask() + spec_.taps() : nullptr; }
  const float* dev_col() const { return spec_.separable ? dev_mask() + spec_.taps() + spec_.mask_w : nullptr; }
#endif

  CheckResult compare(const float* out, std::string_view variant) const {
    CheckResult r;
    double factor = 16.0 + 4.0 * std::sqrt(double(spec_.taps()));
    double floor = 0;  // the fused rung's normwise rounding (fft_geometry.hpp)
    if (variant == "fft_fused") {
      factor *= 4.0 * std::log2(double(convolution_impl::FUSED_NFFT));
      double l2 = 0, max_in = 0;
      for (float m : mask_) l2 += double(m) * double(m);
      for (float x : input_) max_in = std::max(max_in, std::fabs(double(x)));
      floor = convolution_impl::fused_error_floor(std::sqrt(l2), max_in);
    } else if (is_fft(variant)) {
      const auto os = variant == "fft_overlap_save" ? convolution_impl::overlap_save_of(spec_)
                                                    : convolution_impl::whole_signal_of(spec_);
      factor *= 4.0 * std::log2(double(os.nfft));
    }
    const double eps = std::ldexp(1.0, -24);
    double worst = 0;
    for (std::size_t y = 0; y < spec_.height; ++y) {
      for (std::size_t x = 0; x < spec_.width; ++x) {
        const std::size_t i = y * spec_.width + x;
        const double got = out[y * spec_.pitch + x], ref = ref_[i];
        const double err = std::fabs(got - ref), tol = eps * factor * double(absdot_[i]) + floor + 1e-30;
        const double rel = err / std::max(std::fabs(ref), 1e-30);
        if (!(err <= tol)) {
          r.ok = false;
          r.max_rel_err = std::isnan(got) ? std::numeric_limits<double>::infinity() : rel;
          r.detail = fmt::format("out[{}][{}] = {} but the reference is {} (|error| {:.3g} > tolerance {:.3g})", y, x,
                                 got, ref, err, tol);
          return r;
        }
        worst = std::max(worst, rel);
      }
      if (y + 1 < spec_.height)  // the pitch padding: never written
        for (std::size_t x = spec_.width; x < spec_.pitch; ++x) {
          std::uint32_t bits;
          std::memcpy(&bits, out + y * spec_.pitch + x, sizeof bits);
          if (bits != 0xFFFFFFFFu) {
            r.ok = false;
            r.max_rel_err = std::numeric_limits<double>::infinity();
            r.detail = fmt::format("wrote the pitch padding at row {} column {}", y, x);
            return r;
          }
        }
    }
    r.ok = true;
    r.max_rel_err = worst;
    r.note = tiling_note(variant, spec_, one_d_);
    return r;
  }

 private:
  void make_mask(const Shape& shape, std::uint64_t seed) {
    mask_.resize(spec_.taps());
    if (shape.kind == MaskKind::random) {
      fill_random(mask_.data(), mask_.size(), seed + 1, Distribution::uniform);
    } else {  // an outer product, rounded to float: rank 1 within the detection's tolerance
      std::vector<float> c(spec_.mask_h), w(spec_.mask_w);
      fill_random(c.data(), c.size(), seed + 2, Distribution::uniform);
      fill_random(w.data(), w.size(), seed + 3, Distribution::uniform);
      for (std::size_t y = 0; y < spec_.mask_h; ++y)
        for (std::size_t x = 0; x < spec_.mask_w; ++x) mask_[y * spec_.mask_w + x] = c[y] * w[x];
    }
    if (!one_d_) {
      if (auto f = convolution_impl::find_separable(mask_.data(), spec_.mask_w, spec_.mask_h, 1e-6)) {
        spec_.separable = true;
        row_ = std::move(f->row);
        col_ = std::move(f->col);
      }
    }
  }

  // In double, in parallel: the answer and each output's sum of |tap x input|.
  void reference() {
    const ConvSpec& s = spec_;
    ref_.resize(s.outputs());
    absdot_.resize(s.outputs());
    const auto rx = std::ptrdiff_t(s.rx()), ry = std::ptrdiff_t(s.ry());
    const auto w = std::ptrdiff_t(s.width), h = std::ptrdiff_t(s.height), p = std::ptrdiff_t(s.pitch);
    const auto mw = std::ptrdiff_t(s.mask_w), mh = std::ptrdiff_t(s.mask_h);
    const std::int64_t n = std::int64_t(s.outputs());
#pragma omp parallel for schedule(static, 4096)
    for (std::int64_t i = 0; i < n; ++i) {
      const std::ptrdiff_t y = i / w, x = i % w;
      double acc = 0, mag = 0;
      const std::ptrdiff_t kx0 = std::max<std::ptrdiff_t>(0, rx - x), kx1 = std::min(mw, w - x + rx);
      for (std::ptrdiff_t ky = std::max<std::ptrdiff_t>(0, ry - y); ky < std::min(mh, h - y + ry); ++ky) {
        const float* m = mask_.data() + ky * mw;
        const float* in = input_.data() + (y - ry + ky) * p + (x - rx);
        // Vectorised in double (the order of a double sum of <= 2^13 float
        // products changes nothing the float tolerance can see): the
        // reference of 2^26 samples x 1,025 taps takes seconds, not minutes.
#pragma omp simd reduction(+ : acc, mag)
        for (std::ptrdiff_t kx = kx0; kx < kx1; ++kx) {
          const double v = double(m[kx]) * double(in[kx]);
          acc += v;
          mag += std::fabs(v);
        }
      }
      ref_[i] = acc;
      absdot_[i] = static_cast<float>(mag);
    }
  }

  ConvSpec spec_;
  bool one_d_, gpu_;
  ProblemDesc desc_;
  std::vector<float> input_, mask_, row_, col_;
  std::vector<double> ref_;
  std::vector<float> absdot_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_in_, dev_taps_;
#endif
};

ConvInstance::ConvInstance(const ConvProblem& p, const ConvVariant& v) : problem_(p), variant_(v) {
  if (v.prepare != nullptr) v.prepare(p.spec());  // outside any timed region or capture
  if (v.info.backend == Backend::cpu) {
    host_out_.resize(p.elements());
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_out_ = DeviceBytes(p.elements() * sizeof(float), "conv output");
  if (const std::size_t ws = v.workspace_bytes(p.spec()); ws > 0) dev_ws_ = DeviceBytes(ws, "conv workspace");
#endif
}

void ConvInstance::run(stream_t stream) {
  const ConvProblem& p = problem_;
  if (variant_.info.backend == Backend::cpu) {
    variant_.run({p.spec(), p.host_in(), host_out_.data(), p.host_mask(), p.host_mask(), p.host_row(), p.host_col(),
                  nullptr, nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({p.spec(), p.dev_in(), static_cast<float*>(dev_out_.data()), p.dev_mask(), p.host_mask(), p.dev_row(),
                p.dev_col(), dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

CheckResult ConvInstance::check(stream_t stream) {
  if (variant_.info.backend == Backend::cpu) {
    std::memset(host_out_.data(), 0xFF, host_out_.size() * sizeof(float));
    run(stream);
    return problem_.compare(host_out_.data(), variant_.info.name);
  }
  std::vector<float> got(problem_.elements());
#if TESSERA_HAVE_CUDA
  dev_out_.fill_bytes(0xFF, stream);
  run(stream);
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  dev_out_.download(got.data(), got.size() * sizeof(float));
#endif
  return problem_.compare(got.data(), variant_.info.name);
}

class ConvPattern final : public Pattern {
 public:
  explicit ConvPattern(bool one_d) : one_d_(one_d) {}
  std::string_view name() const override { return one_d_ ? "conv1d" : "conv2d"; }
  std::string_view size_meaning() const override { return one_d_ ? "samples" : "image side (N x N)"; }

  std::vector<VariantInfo> variants() const override { return convolution_impl::ladder_for(one_d_).infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    if (!types_ok(o)) return {};
    std::vector<Shape> shapes;
    if (o.size) shapes = sized(*o.size);
    else if (o.quick) shapes = one_d_ ? list(QUICK_1D) : list(QUICK_2D);
    else shapes = one_d_ ? list(VERIFY_1D) : list(VERIFY_2D);
    std::vector<ProblemFactory> out;
    for (std::size_t i = 0; i < shapes.size(); ++i) out.push_back(factory(shapes[i], o.seed + i, o.gpu));
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    if (!types_ok(o)) return {};
    std::vector<Shape> shapes;
    if (o.size) shapes = sized(*o.size);
    else if (one_d_) shapes = o.gpu ? list(GPU_BENCH_1D) : list(CPU_BENCH_1D);
    else shapes = o.gpu ? list(GPU_BENCH_2D) : list(CPU_BENCH_2D);
    if (o.headline && shapes.size() > 2) shapes.resize(2);
    std::vector<ProblemFactory> out;
    for (const Shape& s : shapes) out.push_back(factory(s, o.seed, o.gpu));
    return out;
  }

 private:
  static bool types_ok(const RunOptions& o) { return !o.op && !o.accum && (!o.type || *o.type == Dtype::f32); }
  template <std::size_t N>
  static std::vector<Shape> list(const Shape (&a)[N]) {
    return {std::begin(a), std::end(a)};
  }
  // --size N: conv2d N x N with 5x5 and 9x9; conv1d n = N with 1,025 taps
  // (when they fit) and 7.
  std::vector<Shape> sized(std::size_t n) const {
    std::vector<Shape> out;
    if (one_d_) {
      if (n >= 1025) out.push_back({n, 1, 1025, 1});
      if (n >= 7) out.push_back({n, 1, 7, 1});
      if (out.empty()) out.push_back({n, 1, n % 2 == 1 ? n : n - 1, 1});
    } else {
      if (n >= 5) out.push_back({n, n, 5, 5});
      if (n >= 9) out.push_back({n, n, 9, 9});
      if (out.empty()) out.push_back({n, n, n % 2 == 1 ? n : n - 1, n % 2 == 1 ? n : n - 1});
    }
    return out;
  }

  ProblemFactory factory(const Shape& s, std::uint64_t seed, bool gpu) const {
    const bool one_d = one_d_;
    const double px = double(s.width) * double(s.height), elems = double(s.width + s.pad) * double(s.height);
    // Host: input, reference (double) and its magnitudes, an output and the
    // checked copy; device: input, output and (1D) the FFT's ~3 signals.
    return {label_of(s, one_d), [=] { return std::make_unique<ConvProblem>(s, one_d, seed, gpu); },
            {.host_bytes = elems * 12 + px * 12,
             .device_bytes = gpu ? elems * 8 + (one_d ? px * 16 : 0) : 0,
             .host_flops = 2 * px * double(s.mask_w) * double(s.mask_h)}};
  }

  bool one_d_;
};

}  // namespace

std::unique_ptr<Pattern> make_conv1d_pattern() { return std::make_unique<ConvPattern>(true); }
std::unique_ptr<Pattern> make_conv2d_pattern() { return std::make_unique<ConvPattern>(false); }

}  // namespace tessera::harness
