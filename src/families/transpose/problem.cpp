// The transpose pattern as the harness sees it: seeded input matrices (pitch
// padding marked), poisoned outputs, the bitwise check of every output element
// against the definition out(j, i) = in(i, j) — so the CPU reference is
// checked too — and the cost model.
//
// The copy_bound rung (Output::copy) is checked as what it is, a copy: its
// rows x cols output, written densely, must equal the input element for
// element, and the rest of the output buffer must still be poison. It moves
// the same bytes as a transpose, so its GB/s sits in the same table as the
// ceiling the tile rungs approach; its name says it is the bound.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "harness/bound_instance.hpp"
#include "harness/generate.hpp"
#include "harness/matrix.hpp"
#include "families/register_all.hpp"
#include "families/transpose/contract.hpp"
#include "families/transpose/policy.hpp"
#include "tessera/transpose.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using transpose_impl::Output;
using transpose_impl::TransposeSpec;
using transpose_impl::TransposeVariant;

// A problem's shape: rows x cols, and how much each pitch exceeds the dense
// one (ld_in = cols + pad_in, ld_out = rows + pad_out).
struct Shape {
  std::size_t rows, cols, pad_in = 0, pad_out = 0;
};

// Bench: 8192 x 8192 (256 MiB of floats each way, 5x an H100's 50 MB L2) is
// the headline; double, a tall-skinny input, its odd twin (no tile multiple,
// rows not 16-byte aligned) and an odd rectangle complete the full bench.
// CPU-only runs use quarter-size shapes (2 cores).
constexpr Shape GPU_HEADLINE{8192, 8192};
constexpr Shape GPU_BENCH[] = {{8192, 8192}, {65536, 1024}, {65537, 1023}, {5000, 3001}};
constexpr Shape CPU_HEADLINE{4096, 4096};
constexpr Shape CPU_BENCH[] = {{4096, 4096}, {16384, 1024}, {16385, 1023}, {2500, 1501}};

// Verify: empty, single rows and columns, warp and tile boundaries +/- 1
// (16, 32, 64), primes, 16-byte-aligned shapes that are not tile multiples
// (the vec16 rungs' edge tiles), pitched rows on both sides (aligned and
// not), and shapes with more tiles along one side than grid.y could hold.
constexpr Shape VERIFY_SHAPES[] = {
    {0, 0},       {0, 7},        {7, 0},        {1, 1},         {1, 1000},     {1000, 1},    {15, 17},
    {31, 33},     {32, 32},      {33, 65},      {64, 64},       {63, 127},     {65, 63},     {97, 101},
    {100, 200},   {192, 320},    {255, 256},    {256, 255},     {257, 129},    {1000, 1003}, {1024, 1024},
    {2047, 2049}, {3, 100000},   {100000, 3},   {1, 1 << 20},   {1 << 20, 1},  {33, 65, 3, 5},
    {96, 160, 4, 28},            {97, 101, 1, 1},               {2048, 2048, 64, 64},        {640, 4100, 0, 60}};
constexpr Shape QUICK_SHAPES[] = {{1, 1}, {33, 65}, {100, 200}, {97, 101, 3, 5}, {1, 1000}, {1000, 1}, {256, 255}};
// Past 2^31 elements (--large, floats, 8 GiB each way): a square whose rows
// take the 16-byte path with 64-bit offsets, and one column of 2^31 + 17
// elements (2^26 tiles down one tile column).
constexpr Shape LARGE_SHAPES[] = {{46344, 46344}, {(std::size_t(1) << 31) + 17, 1}};
// The serial reference takes minutes past this many elements (strided
// writes, one cache miss each); the check does not need it.
constexpr std::size_t SERIAL_LIMIT = std::size_t(1) << 28;

TransposeSpec spec_of(Dtype t, const Shape& s) {
  return {t, s.rows, s.cols, s.cols + s.pad_in, s.rows + s.pad_out};
}

std::string spec_label(const TransposeSpec& s) {
  std::string label = fmt::format("{} {}x{}", to_string(s.dtype), s.rows, s.cols);
  if (s.ld_in != s.cols || s.ld_out != s.rows) label += fmt::format(" ld {}/{}", s.ld_in, s.ld_out);
  return label;
}

std::size_t bytes_of(const MatrixLayout& m, Dtype t) { return *m.storage() * size_of(t); }

// Types: float and double by default; --type picks any element type the
// pattern moves (int32, int64, uint32 too).
std::vector<Dtype> types_of(const RunOptions& o) {
  if (o.op || o.accum) return {};  // transpose has no operator or accumulator
  if (o.type) return transpose_impl::word_sized(*o.type) ? std::vector<Dtype>{*o.type} : std::vector<Dtype>{};
  return {Dtype::f32, Dtype::f64};
}

class TransposeProblem;

class TransposeInstance final : public BoundInstance<TransposeProblem, TransposeVariant> {
 public:
  TransposeInstance(const TransposeProblem& p, const TransposeVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  std::vector<unsigned char> host_out_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_out_;
#endif
};

class TransposeProblem final : public Problem {
 public:
  TransposeProblem(const TransposeSpec& spec, std::uint64_t seed, bool gpu)
      : spec_(spec), gpu_(gpu), input_(bytes_of(spec.in_layout(), spec.dtype) + 16) {
    desc_ = {"transpose", spec_label(spec), std::string(to_string(spec.dtype)), "", "",
             std::string(to_string(Distribution::uniform)), {spec.rows, spec.cols}};
    fill_matrix(input_.data(), spec.dtype, spec.in_layout(), seed, Distribution::uniform);
    poison_ = poison_byte_for(input_.data(), spec.dtype, spec.in_layout());
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_input_ = DeviceBytes(bytes_of(spec.in_layout(), spec.dtype), "transpose input");
      dev_input_.upload(input_.data(), dev_input_.bytes());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    // Each element read once and written once; no arithmetic.
    const double bytes = 2.0 * double(spec_.rows) * double(spec_.cols) * double(size_of(spec_.dtype));
    return {bytes, 0.0, Bound::memory};
  }
  bool supports(const VariantInfo& v) const override {
    const TransposeVariant* tv = transpose_impl::variants_ladder().find(v.name);
    if (tv == nullptr || !(v.backend == Backend::cpu || gpu_) || !tv->supports(spec_)) return false;
    return !(v.name == "cpu_reference" && spec_.rows * spec_.cols > SERIAL_LIMIT);
  }
  // Without a GPU the CPU-only policy's rung, as in a CPU-only build.
  std::string api_pick(bool gpu) const override {
    return gpu ? transpose_default_variant(spec_.dtype, spec_.rows, spec_.cols)
               : std::string(transpose_impl::policy::CPU_RULES[0].variant);
  }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<TransposeInstance>(*this, *transpose_impl::variants_ladder().find(v.name));
  }

  const TransposeSpec& spec() const { return spec_; }
  const void* host_input() const { return input_.data(); }
#if TESSERA_HAVE_CUDA
  const void* device_input() const { return dev_input_.data(); }
#endif
  int poison() const { return poison_; }
  // Output buffer: the transpose's whole rows, pitch padding included.
  std::size_t out_bytes() const { return bytes_of(spec_.out_layout(), spec_.dtype); }

  CheckResult compare(const unsigned char* out, Output kind) const {
    const MatrixLayout in = spec_.in_layout();
    if (kind == Output::transpose)
      return check_matrix_exact(out, spec_.out_layout(), spec_.dtype, as_transpose(input_.data(), in), poison_);
    // The copy bound: rows x cols densely, then nothing written after it.
    const MatrixLayout dense = MatrixLayout::dense(spec_.rows, spec_.cols);
    CheckResult r = check_matrix_exact(out, dense, spec_.dtype, as_rows(input_.data(), in), poison_);
    if (!r.ok) return r;
    const std::size_t used = bytes_of(dense, spec_.dtype);
    for (std::size_t b = used; b < out_bytes(); ++b)
      if (out[b] != static_cast<unsigned char>(poison_)) {
        r.ok = false;
        r.max_rel_err = std::numeric_limits<double>::infinity();
        r.detail = fmt::format("copy_bound wrote byte {} past its {} x {} dense copy", b, spec_.rows, spec_.cols);
        break;
      }
    return r;
  }

 private:
  TransposeSpec spec_;
  bool gpu_;
  ProblemDesc desc_;
  std::vector<unsigned char> input_;  // +16 bytes: a valid, aligned pointer even when empty
  int poison_ = 0xFF;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_input_;
#endif
};

TransposeInstance::TransposeInstance(const TransposeProblem& p, const TransposeVariant& v) : BoundInstance(p, v) {
  if (v.prepare != nullptr) v.prepare();  // outside any timed region
  if (on_host()) {
    host_out_.resize(p.out_bytes() + 16);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_out_ = DeviceBytes(p.out_bytes(), "transpose output");
#endif
}

void TransposeInstance::run(stream_t stream) {
  const TransposeSpec& spec = problem_.spec();
  if (on_host()) {
    variant_.run({spec, problem_.host_input(), host_out_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({spec, problem_.device_input(), dev_out_.data(), stream});
#else
  (void)stream;
#endif
}

CheckResult TransposeInstance::check(stream_t stream) {
  if (on_host()) {
    std::memset(host_out_.data(), problem_.poison(), host_out_.size());
    run(stream);
    return problem_.compare(host_out_.data(), variant_.output);
  }
  std::vector<unsigned char> got(problem_.out_bytes() + 16);
#if TESSERA_HAVE_CUDA
  dev_out_.fill_bytes(problem_.poison(), stream);
  run(stream);
  wait_for_run(stream);
  dev_out_.download(got.data(), problem_.out_bytes());
#endif
  return problem_.compare(got.data(), variant_.output);
}

class TransposePattern final : public Pattern {
 public:
  std::string_view name() const override { return "transpose"; }
  std::string_view size_meaning() const override { return "matrix side (N x N)"; }

  std::vector<VariantInfo> variants() const override { return transpose_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<Shape> shapes;
    if (o.size) shapes = {{*o.size, *o.size}};
    else if (o.quick) shapes.assign(std::begin(QUICK_SHAPES), std::end(QUICK_SHAPES));
    else shapes.assign(std::begin(VERIFY_SHAPES), std::end(VERIFY_SHAPES));
    std::vector<ProblemFactory> out;
    for (Dtype t : types_of(o)) {
      for (std::size_t i = 0; i < shapes.size(); ++i) out.push_back(factory(spec_of(t, shapes[i]), o.seed + i, o.gpu));
      if (o.large && t == Dtype::f32 && !o.size)
        for (const Shape& s : LARGE_SHAPES) out.push_back(factory(spec_of(t, s), o.seed, o.gpu));
    }
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    std::vector<ProblemFactory> out;
    if (o.headline) {  // one problem: float 8192 x 8192 (4096 x 4096 without a GPU)
      out.push_back(factory(spec_of(Dtype::f32, o.gpu ? GPU_HEADLINE : CPU_HEADLINE), o.seed, o.gpu));
      return out;
    }
    const auto types = types_of(o);
    if (o.size) {
      for (Dtype t : types) out.push_back(factory(spec_of(t, {*o.size, *o.size}), o.seed, o.gpu));
      return out;
    }
    const std::span<const Shape> shapes = o.gpu ? std::span<const Shape>(GPU_BENCH) : std::span<const Shape>(CPU_BENCH);
    // Every shape for the first type (float by default); the square one for
    // the others (double).
    for (std::size_t k = 0; k < types.size(); ++k)
      for (std::size_t i = 0; i < (k == 0 ? shapes.size() : 1); ++i)
        out.push_back(factory(spec_of(types[k], shapes[i]), o.seed, o.gpu));
    return out;
  }

 private:
  static ProblemFactory factory(const TransposeSpec& s, std::uint64_t seed, bool gpu) {
    // Host: input, a CPU rung's output and the checked copy; device: input
    // and output. In double: a side past 2^32 overflows the size_t product.
    const double bytes = double(s.rows) * double(std::max(s.ld_in, s.cols)) * double(size_of(s.dtype));
    return {spec_label(s), [=] { return std::make_unique<TransposeProblem>(s, seed, gpu); },
            {.host_bytes = 3 * bytes, .device_bytes = gpu ? 2 * bytes : 0, .host_flops = 0}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_transpose_pattern() { return std::make_unique<TransposePattern>(); }

}  // namespace tessera::harness
