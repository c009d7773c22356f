// The convnet pattern as the harness sees it: seeded x and w, poisoned
// outputs, the check of every output element against the double-precision
// answer within the FP32 rounding bound of its own sum, the cost model and
// the verify / bench layers.
//
// The check: |y - exact| <= sum_tolerance(float, c*k*k terms, sum |w||x|)
// per element, (2^-24 + 2^-24 (16 + 4 sqrt(c k k))) sum |w||x| — the bound
// of harness/check.hpp for a float sum, with the sum of the absolute values of
// that element's own terms as its scale. NaN (the poison) fails.
// winograd_f4x3 and its lab rows: the same bound at the scale of their 4x4
// output tiles (the sum of the scales of the tile's valid outputs; each
// tile comes from one 6x6 input patch: winograd_f4x3.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "families/convnet/contract.hpp"
#include "families/convnet/cpu_rungs.hpp"
#include "families/convnet/policy.hpp"
#include "families/register_all.hpp"
#include "harness/generate.hpp"
#include "tessera/convnet.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "families/convnet/cuda_rungs.hpp"
#include "families/convnet/winograd_f4x3.hpp"
#endif

namespace tessera::harness {

namespace {

using conv_impl::ConvSpec;
using conv_impl::ConvVariant;

struct Layer {
  const char* name;
  ConvShape shape;
};

constexpr ConvShape shape(std::size_t n, std::size_t c, std::size_t hw, std::size_t m, std::size_t k, long long pad = 0,
                          std::size_t stride = 1) {
  return {.n = n, .c = c, .h = hw, .w = hw, .m = m, .k = k, .pad = pad, .stride = stride};
}

// The layers at batch 1 and 64: LeNet-5 conv1 and conv2, AlexNet
// conv1 (stride 4) and conv3, ResNet-50's 3x3 64->64 at 56^2 and 512->512 at
// 7^2. Batch 64 first: the layers a GPU is bought for.
constexpr Layer GPU_BENCH[] = {
    {"lenet5 conv1", shape(64, 1, 32, 6, 5)},        {"lenet5 conv1", shape(1, 1, 32, 6, 5)},
    {"lenet5 conv2", shape(64, 6, 14, 16, 5)},       {"lenet5 conv2", shape(1, 6, 14, 16, 5)},
    {"alexnet conv1", shape(64, 3, 227, 96, 11, 0, 4)}, {"alexnet conv1", shape(1, 3, 227, 96, 11, 0, 4)},
    {"alexnet conv3", shape(64, 256, 13, 384, 3, 1)}, {"alexnet conv3", shape(1, 256, 13, 384, 3, 1)},
    {"resnet50 3x3 64", shape(64, 64, 56, 64, 3, 1)}, {"resnet50 3x3 64", shape(1, 64, 56, 64, 3, 1)},
    {"resnet50 3x3 512", shape(64, 512, 7, 512, 3, 1)}, {"resnet50 3x3 512", shape(1, 512, 7, 512, 3, 1)},
};
// The headline: the largest layer of a batch and the batch-1 layer whose
// grid is smallest (k slices).
constexpr std::size_t GPU_HEADLINE[] = {8, 11};
// Without a GPU (2-core machines): the same layers at batch 1.
constexpr Layer CPU_BENCH[] = {
    {"lenet5 conv1", shape(1, 1, 32, 6, 5)},           {"lenet5 conv2", shape(1, 6, 14, 16, 5)},
    {"alexnet conv1", shape(1, 3, 227, 96, 11, 0, 4)}, {"alexnet conv3", shape(1, 256, 13, 384, 3, 1)},
    {"resnet50 3x3 64", shape(1, 64, 56, 64, 3, 1)},   {"resnet50 3x3 512", shape(1, 512, 7, 512, 3, 1)},
};
constexpr std::size_t CPU_HEADLINE[] = {4, 5};

// Verify: k = 1, k = h (one output pixel), c = 1, m not a multiple of any
// tile (1, 5, 33, 65, 129), n = 3, pad 1 and 2, strides 2 and 4, odd and
// non-square-friendly sizes, a k-sliced grid (large c, tiny image), outputs
// whose ho*wo is and is not a multiple of 4 (the vector stores).
constexpr Layer VERIFY[] = {
    {"k1", shape(2, 3, 9, 5, 1)},
    {"k=h", shape(3, 4, 7, 6, 7)},
    {"k=h pad", shape(1, 2, 5, 3, 7, 1)},
    {"c1", shape(2, 1, 13, 7, 3)},
    {"m1", shape(3, 5, 11, 1, 3, 1)},
    {"m33", shape(3, 7, 10, 33, 3, 1)},
    {"m65", shape(2, 9, 12, 65, 3, 2)},
    {"m129", shape(3, 16, 9, 129, 3, 1)},
    {"pad2", shape(3, 3, 17, 8, 5, 2)},
    {"stride2", shape(2, 5, 15, 12, 3, 1, 2)},
    {"stride4 k11", shape(2, 3, 47, 10, 11, 0, 4)},
    {"odd", shape(3, 13, 23, 37, 5, 2)},
    {"slices", shape(1, 300, 5, 100, 3, 1)},
    {"wide", shape(3, 32, 20, 96, 3, 1)},
    {"tiny", shape(1, 1, 1, 1, 1)},
    {"lenet5 conv1", shape(3, 1, 32, 6, 5)},
    {"resnet 7x7 c64", shape(1, 64, 7, 70, 3, 1)},
    // Winograd's edge tiles: images of 1 to 4 pixels a side with pad 1 (one
    // 4x4 output tile, mostly outside), ho = 9 (a partial last tile) with c
    // and m off every tile size.
    {"winograd 1x1 p1", shape(2, 3, 1, 5, 3, 1)},
    {"winograd 2x2 p1 m1", shape(1, 4, 2, 1, 3, 1)},
    {"winograd 3x3 p1 c1", shape(3, 1, 3, 6, 3, 1)},
    {"winograd 4x4 p1", shape(1, 5, 4, 7, 3, 1)},
    {"winograd 9x9 p1", shape(1, 33, 9, 67, 3, 1)},
    // resident_image's paths: 2 and 1 filters a thread (m 6, m 3), several
    // row bands (a 64x64 image), LeNet-5 conv2, a batch past 64.
    {"lenet5 conv2", shape(3, 6, 14, 16, 5)},
    {"m6 pad2 stride2", shape(2, 3, 19, 6, 5, 2, 2)},
    {"m3 k7 pad3 stride3", shape(2, 2, 21, 3, 7, 3, 3)},
    {"bands", shape(1, 2, 64, 10, 3, 1)},
    {"n65", shape(65, 2, 6, 5, 3, 1)},
};
constexpr std::size_t QUICK[] = {0, 1, 3, 4, 5, 6, 8, 9, 10, 11, 12, 14, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26};

// The CPU rungs are timed on the small layers only (the batch-64 layers are
// 6 to 20 GFLOP: seconds each even on 16 cores): the serial reference up to
// 1 GFLOP, the OpenMP rung up to 4 (every batch-1 layer, LeNet at batch 64).
constexpr double SERIAL_FLOP_LIMIT = 1e9;
constexpr double OPENMP_FLOP_LIMIT = 4e9;

std::string label_of(const char* name, const ConvSpec& s) { return fmt::format("{} {}", name, conv_impl::describe(s)); }

class ConvProblem;

class ConvInstance final : public Instance {
 public:
  ConvInstance(const ConvProblem& p, const ConvVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  const ConvProblem& problem_;
  const ConvVariant& variant_;
  std::vector<float> host_y_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_y_, dev_ws_;
#endif
};

class ConvProblem final : public Problem {
 public:
  ConvProblem(const char* name, const ConvSpec& spec, std::uint64_t seed, bool gpu)
      : spec_(spec), gpu_(gpu), x_(spec.x_elems()), w_(spec.w_elems()) {
    desc_ = {"convnet", label_of(name, spec), "float", "", "", std::string(to_string(Distribution::uniform)),
             {spec.n, spec.c, spec.h, spec.w, spec.m, spec.k}};
    fill_random(x_.data(), x_.size(), seed, Distribution::uniform);
    fill_random(w_.data(), w_.size(), seed ^ 0x9e3779b97f4a7c15ULL, Distribution::uniform);
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_x_ = DeviceBytes(x_.size() * sizeof(float), "convnet x");
      dev_w_ = DeviceBytes(w_.size() * sizeof(float), "convnet w");
      dev_x_.upload(x_.data(), dev_x_.bytes());
      dev_w_.upload(w_.data(), dev_w_.bytes());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    // x, w read once and y written once; 2 c k k flops per output.
    const double bytes = double(spec_.x_elems() + spec_.w_elems() + spec_.y_elems()) * sizeof(float);
    return {bytes, spec_.flops(), Bound::compute};
  }
  bool supports(const VariantInfo& v) const override {
    const ConvVariant* cv = conv_impl::variants_ladder().find(v.name);
    if (cv == nullptr || !(v.backend == Backend::cpu || gpu_) || !cv->supports(spec_)) return false;
    if (v.name == "cpu_reference") return spec_.flops() <= SERIAL_FLOP_LIMIT;
    if (v.name == "cpu_openmp") return spec_.flops() <= OPENMP_FLOP_LIMIT;
    return true;
  }
  std::string why_unsupported(const VariantInfo& v) const override {
    if (v.backend == Backend::cpu)
      return fmt::format("{} skips {}: {:.1f} GFLOP is past its bench limit", v.name, desc_.label,
                         spec_.flops() * 1e-9);
    return fmt::format("{} does not support {}", v.name, desc_.label);
  }
  std::string api_pick(bool gpu) const override { return std::string(conv_impl::policy::pick(spec_, gpu)); }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<ConvInstance>(*this, *conv_impl::variants_ladder().find(v.name));
  }

  const ConvSpec& spec() const { return spec_; }
  const float* host_x() const { return x_.data(); }
  const float* host_w() const { return w_.data(); }
#if TESSERA_HAVE_CUDA
  const float* dev_x() const { return static_cast<const float*>(dev_x_.data()); }
  const float* dev_w() const { return static_cast<const float*>(dev_w_.data()); }
#endif

  // A rung whose outputs mix more terms than their own (winograd_f4x3: each
  // output tile from one 6x6 patch) is checked at the scale of its output
  // tiles: `tile` > 0 replaces each output's sum |w||x| by the sum of those
  // of the valid outputs of its tile x tile block (same image and filter),
  // times `factor` (f4x3::F4X3_ERROR_FACTOR; docs/convnet.md).
  CheckResult compare(const float* y, double factor = 1.0, std::size_t tile = 0) const {
    if (ref_.empty()) {  // the answer, once per problem (the first check)
      ref_.resize(spec_.y_elems());
      abs_.resize(spec_.y_elems());
      conv_impl::cpu::reference_with_bounds(spec_, x_.data(), w_.data(), ref_.data(), abs_.data());
    }
    const std::vector<double> tile_abs = tile > 0 ? tile_sums(tile) : std::vector<double>();
    const std::vector<double>& scale = tile > 0 ? tile_abs : abs_;
    CheckResult r;
    r.ok = true;
    std::size_t bad = 0, first_bad = 0;
    for (std::size_t i = 0; i < ref_.size(); ++i) {
      const double err = std::fabs(double(y[i]) - ref_[i]);
      const double rel = ref_[i] != 0 ? err / std::fabs(ref_[i]) : err;
      r.max_rel_err = std::max(r.max_rel_err, std::isnan(rel) ? std::numeric_limits<double>::infinity() : rel);
      if (!(err <= factor * sum_tolerance(Dtype::f32, Accum::native, spec_.gemm_k(), scale[i]))) {
        if (bad++ == 0) first_bad = i;
      }
    }
    if (bad > 0) {
      r.ok = false;
      const std::size_t P = spec_.pixels(), i = first_bad;
      r.detail = fmt::format("{} of {} outputs outside the FP32 bound; first y[n={}][m={}][{}][{}] = {} (expected {}, "
                             "bound {:.3g})",
                             bad, ref_.size(), i / (spec_.m * P), i / P % spec_.m, i % P / spec_.wo, i % spec_.wo,
                             y[i], ref_[i], factor * sum_tolerance(Dtype::f32, Accum::native, spec_.gemm_k(), scale[i]));
    }
    return r;
  }

 private:
  // abs_ summed over the valid outputs of each tile x tile output block.
  std::vector<double> tile_sums(std::size_t tile) const {
    const std::size_t ho = spec_.ho, wo = spec_.wo;
    std::vector<double> out(abs_.size());
    for (std::size_t plane = 0; plane < spec_.n * spec_.m; ++plane)
      for (std::size_t th = 0; th < ho; th += tile)
        for (std::size_t tw = 0; tw < wo; tw += tile) {
          const std::size_t h_end = std::min(th + tile, ho), w_end = std::min(tw + tile, wo);
          double sum = 0;
          for (std::size_t p = th; p < h_end; ++p)
            for (std::size_t q = tw; q < w_end; ++q) sum += abs_[(plane * ho + p) * wo + q];
          for (std::size_t p = th; p < h_end; ++p)
            for (std::size_t q = tw; q < w_end; ++q) out[(plane * ho + p) * wo + q] = sum;
        }
    return out;
  }

  ConvSpec spec_;
  bool gpu_;
  ProblemDesc desc_;
  std::vector<float> x_, w_;
  mutable std::vector<double> ref_, abs_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_x_, dev_w_;
#endif
};

ConvInstance::ConvInstance(const ConvProblem& p, const ConvVariant& v) : problem_(p), variant_(v) {
  const ConvSpec& s = p.spec();
  if (v.prepare != nullptr) v.prepare(s);  // outside any timed region: cuDNN's algorithm search
  if (v.info.backend == Backend::cpu) {
    host_y_.resize(s.y_elems());
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_y_ = DeviceBytes(s.y_elems() * sizeof(float), "convnet y");
  const std::size_t ws = v.workspace_bytes(s);
  if (ws > 0) dev_ws_ = DeviceBytes(ws, "convnet workspace");
#endif
}

void ConvInstance::run(stream_t stream) {
  const ConvSpec& s = problem_.spec();
  if (variant_.info.backend == Backend::cpu) {
    variant_.run({s, problem_.host_x(), problem_.host_w(), host_y_.data(), nullptr, nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({s, problem_.dev_x(), problem_.dev_w(), static_cast<float*>(dev_y_.data()), dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

CheckResult ConvInstance::check(stream_t stream) {
  const ConvSpec& s = problem_.spec();
  if (variant_.info.backend == Backend::cpu) {
    std::memset(host_y_.data(), 0xFF, host_y_.size() * sizeof(float));  // NaN: an unwritten output fails
    run(stream);
    return problem_.compare(host_y_.data());
  }
  std::vector<float> got(s.y_elems());
#if TESSERA_HAVE_CUDA
  dev_y_.fill_bytes(0xFF, stream);
  run(stream);
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  dev_y_.download(got.data(), got.size() * sizeof(float));
  CheckResult r = variant_.info.name.starts_with("winograd_f4x3")  // the rung and its lab rows
                      ? problem_.compare(got.data(), conv_impl::f4x3::F4X3_ERROR_FACTOR, conv_impl::f4x3::F4X3_ERROR_TILE)
                      : problem_.compare(got.data());
  if (variant_.run == conv_impl::run_cudnn) r.note = conv_impl::cudnn_choice(s);  // which algorithm the row timed
  return r;
#else
  return problem_.compare(got.data());
#endif
}

ProblemFactory factory(const Layer& layer, std::uint64_t seed, bool gpu) {
  const ConvSpec s = conv_impl::make_spec(layer.shape);
  const double tensors = double(s.x_elems() + s.w_elems() + s.y_elems()) * sizeof(float);
  const double y_bytes = double(s.y_elems()) * sizeof(float);
  // Host: x, w, a CPU rung's y, the checked copy, the answer and its error
  // scale in double; its arithmetic twice (the answer and sum |w||x|).
  return {label_of(layer.name, s), [=] { return std::make_unique<ConvProblem>(layer.name, s, seed, gpu); },
          {.host_bytes = tensors + 2 * y_bytes + 4 * y_bytes, .device_bytes = gpu ? tensors : 0,
           .host_flops = 2 * s.flops()}};
}

class ConvPattern final : public Pattern {
 public:
  std::string_view name() const override { return "convnet"; }
  std::string_view size_meaning() const override {
    return "image side of the ResNet-50 3x3 64->64 layer (pad 1), batch 1";
  }

  std::vector<VariantInfo> variants() const override { return conv_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<ProblemFactory> out;
    if (!types_ok(o)) return out;
    if (o.size) {
      out.push_back(factory({"resnet50 3x3 64", shape(1, 64, *o.size, 64, 3, 1)}, o.seed, o.gpu));
      return out;
    }
    if (o.quick) {
      for (std::size_t i : QUICK) out.push_back(factory(VERIFY[i], o.seed + i, o.gpu));
      return out;
    }
    for (std::size_t i = 0; i < std::size(VERIFY); ++i) out.push_back(factory(VERIFY[i], o.seed + i, o.gpu));
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    std::vector<ProblemFactory> out;
    if (!types_ok(o)) return out;
    if (o.size) {
      out.push_back(factory({"resnet50 3x3 64", shape(1, 64, *o.size, 64, 3, 1)}, o.seed, o.gpu));
      return out;
    }
    const std::span<const Layer> layers = o.gpu ? std::span<const Layer>(GPU_BENCH) : std::span<const Layer>(CPU_BENCH);
    if (o.headline) {
      for (std::size_t i : (o.gpu ? std::span<const std::size_t>(GPU_HEADLINE) : std::span<const std::size_t>(CPU_HEADLINE)))
        out.push_back(factory(layers[i], o.seed, o.gpu));
      return out;
    }
    for (const Layer& l : layers) out.push_back(factory(l, o.seed, o.gpu));
    return out;
  }

 private:
  // float only; no operator or accumulator.
  static bool types_ok(const RunOptions& o) { return !(o.op || o.accum) && (!o.type || *o.type == Dtype::f32); }
};

}  // namespace

std::unique_ptr<Pattern> make_convnet_pattern() { return std::make_unique<ConvPattern>(); }

}  // namespace tessera::harness
