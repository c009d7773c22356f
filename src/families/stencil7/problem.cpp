// The stencil7 pattern as the harness sees it: a seeded random grid, the
// reference answer (the same sweeps in double, OpenMP over planes), the check
// of every cell and the cost model.
//
// Check: boundary cells must equal the input bit for bit (they are copied,
// never computed); interior cells within tol * max|input| of the reference,
// tol = eps(T) * (8 + 8 * sweeps). The problems' coefficients (c0 = -1/4,
// c1 = 1/8: 6|c1| + |c0| = 1) keep every sweep's values within the input's
// range, so each sweep adds at most a few roundings of that size.
//
// Cost: the untiled bound, each sweep reading and writing the grid once:
// bytes = 2 * cells * sizeof(T) * sweeps (8 B per cell-sweep in float);
// `flops` holds cells * sweeps, so the table's GFLOP/s column reads as
// G cells/s. A temporally blocked rung moves fewer bytes than this, so its
// "% of copy" can pass 100%: the target is 150% (1.5 x 375 G cells/s).
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "families/register_all.hpp"
#include "families/stencil7/contract.hpp"
#include "families/stencil7/cpu_rungs.hpp"
#include "families/stencil7/policy.hpp"
#include "harness/generate.hpp"
#include "tessera/stencil.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using stencil7_impl::Stencil7Spec;
using stencil7_impl::Stencil7Variant;

constexpr double C0 = -0.25;
constexpr double C1 = 0.125;

struct Shape {
  std::size_t nx, ny, nz;
  int sweeps;
};

// Bench: 512^3 (512 MiB of floats, 10x an H100's L2), one sweep (the copy
// bound) and 8 (temporal blocking's two passes of 4), and double one sweep.
// CPU-only runs: 128^3.
constexpr Shape GPU_BENCH[] = {{512, 512, 512, 1}, {512, 512, 512, 8}};
constexpr Shape CPU_BENCH[] = {{128, 128, 128, 1}, {128, 128, 128, 8}};
// Verify: the smallest grid, odd sizes (no tile multiple), sweep counts that
// are not multiples of temporal blocking's 4 (float) or 2 (double), 0 sweeps
// (a copy), z ranges across temporal blocking's z chunks (32-128 planes), long and
// thin grids; nx a multiple of 4 with a pass of one sweep (temporal
// blocking's 16-byte pass), within one warp's 128 floats and across warps;
// grids with x-y tiles wholly inside them and a steady z range (temporal
// blocking's test-free steps: 180 x 80 has 4 such tiles both for float's 4
// fused sweeps, 56 x 24 interiors, and for double's 2, 60 x 28), one of odd
// sizes.
constexpr Shape VERIFY_SHAPES[] = {
    {3, 3, 3, 0},    {3, 3, 3, 1},     {3, 3, 3, 4},      {37, 19, 23, 1}, {37, 19, 23, 2},
    {37, 19, 23, 5}, {37, 19, 23, 9},  {130, 7, 9, 3},    {130, 7, 9, 4},  {4, 5, 200, 6},
    {3, 70, 3, 2},   {67, 35, 131, 7}, {64, 64, 64, 8},   {200, 150, 10, 1}, {264, 5, 4, 1}, {8, 6, 5, 5},
    {180, 80, 23, 8}, {181, 83, 25, 9}};
constexpr Shape QUICK_SHAPES[] = {{3, 3, 3, 1},    {37, 19, 23, 5}, {130, 7, 9, 3},
                                  {67, 35, 131, 7}, {264, 5, 4, 1},  {180, 80, 23, 8}};
// The serial rung past this many cell-sweeps takes seconds per run.
constexpr double SERIAL_LIMIT = double(1 << 27);

Stencil7Spec spec_of(Dtype t, const Shape& s) { return {t, s.nx, s.ny, s.nz, s.sweeps, C0, C1}; }

std::string spec_label(const Stencil7Spec& s) {
  return fmt::format("{} {}x{}x{} sweeps={}", to_string(s.dtype), s.nx, s.ny, s.nz, s.sweeps);
}

std::vector<Dtype> types_of(const RunOptions& o) {
  if (o.op || o.accum) return {};
  if (o.type) return (*o.type == Dtype::f32 || *o.type == Dtype::f64) ? std::vector<Dtype>{*o.type}
                                                                        : std::vector<Dtype>{};
  return {Dtype::f32, Dtype::f64};
}

// The reference: `sweeps` sweeps in double.
std::vector<double> reference_of(const std::vector<double>& input, const Stencil7Spec& s) {
  std::vector<double> a = input, b(input.size());
  const Stencil7Spec d{Dtype::f64, s.nx, s.ny, s.nz, s.sweeps, s.c0, s.c1};
  const auto nz = static_cast<std::int64_t>(s.nz);
  for (int k = 0; k < s.sweeps; ++k) {
#pragma omp parallel for schedule(static)
    for (std::int64_t z = 0; z < nz; ++z)
      stencil7_impl::cpu::sweep_planes(a.data(), b.data(), d, std::size_t(z), std::size_t(z) + 1);
    a.swap(b);
  }
  return a;
}

class Stencil7Problem;

class Stencil7Instance final : public Instance {
 public:
  Stencil7Instance(const Stencil7Problem& p, const Stencil7Variant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  const Stencil7Problem& problem_;
  const Stencil7Variant& variant_;
  std::vector<unsigned char> host_out_, host_ws_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_out_, dev_ws_;
#endif
};

class Stencil7Problem final : public Problem {
 public:
  Stencil7Problem(const Stencil7Spec& spec, std::uint64_t seed, bool gpu)
      : spec_(spec), gpu_(gpu), input_(bytes() + 16) {
    desc_ = {"stencil7", spec_label(spec), std::string(to_string(spec.dtype)), "", "",
             std::string(to_string(Distribution::uniform)), {spec.nx, spec.ny, spec.nz}};
    fill_random(input_.data(), spec.dtype, spec.cells(), seed, Distribution::uniform);
    std::vector<double> wide(spec.cells());
    double scale = 0;
    const auto cells = static_cast<std::int64_t>(spec.cells());
#pragma omp parallel for schedule(static) reduction(max : scale)
    for (std::int64_t i = 0; i < cells; ++i) {
      wide[std::size_t(i)] = value(input_.data(), std::size_t(i));
      scale = std::max(scale, std::abs(wide[std::size_t(i)]));
    }
    scale_ = scale;
    reference_ = reference_of(wide, spec);
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_input_ = DeviceBytes(bytes(), "stencil7 input");
      dev_input_.upload(input_.data(), bytes());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    const double cells = double(spec_.cells());
    const double passes = std::max(spec_.sweeps, 1);  // 0 sweeps: one copy
    return {2.0 * cells * double(size_of(spec_.dtype)) * passes, cells * double(spec_.sweeps), Bound::memory};
  }
  bool supports(const VariantInfo& v) const override {
    const Stencil7Variant* sv = stencil7_impl::variants_ladder().find(v.name);
    if (sv == nullptr || !(v.backend == Backend::cpu || gpu_) || !sv->supports(spec_)) return false;
    return !(v.name == "cpu_reference" && double(spec_.cells()) * std::max(spec_.sweeps, 1) > SERIAL_LIMIT);
  }
  std::string api_pick(bool gpu) const override {
    return std::string(stencil7_impl::policy::pick(gpu, spec_.dtype, spec_.sweeps));
  }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<Stencil7Instance>(*this, *stencil7_impl::variants_ladder().find(v.name));
  }

  const Stencil7Spec& spec() const { return spec_; }
  std::size_t bytes() const { return spec_.cells() * size_of(spec_.dtype); }
  const void* host_input() const { return input_.data(); }
#if TESSERA_HAVE_CUDA
  const void* device_input() const { return dev_input_.data(); }
#endif

  // Every cell, planes in parallel; the failure reported is the first in
  // memory order, whatever the thread count.
  CheckResult compare(const unsigned char* out) const {
    const Stencil7Spec& s = spec_;
    const double eps = s.dtype == Dtype::f32 ? 0x1p-24 : 0x1p-53;
    const double tol = eps * (8.0 + 8.0 * s.sweeps) * scale_;
    const std::size_t elem = size_of(s.dtype);
    double worst = 0;
    std::size_t first_bad = SIZE_MAX;
    const auto nz = static_cast<std::int64_t>(s.nz);
#pragma omp parallel for schedule(static) reduction(max : worst) reduction(min : first_bad)
    for (std::int64_t z = 0; z < nz; ++z)
      for (std::size_t y = 0; y < s.ny; ++y)
        for (std::size_t x = 0; x < s.nx; ++x) {
          const std::size_t i = (std::size_t(z) * s.ny + y) * s.nx + x;
          const double err = std::abs(value(out, i) - reference_[i]);
          worst = std::max(worst, std::isnan(err) ? std::numeric_limits<double>::infinity() : err);
          const bool bad = (boundary(x, y, std::size_t(z)) && s.sweeps > 0)
                               ? std::memcmp(out + i * elem, input_.data() + i * elem, elem) != 0
                               : !(err <= tol);
          if (bad) first_bad = std::min(first_bad, i);
        }
    CheckResult r;
    r.ok = first_bad == SIZE_MAX;
    r.max_rel_err = worst / scale_;
    r.note = "GFLOP/s = G cells/s (cells x sweeps / time); bytes = 2 x cells x sizeof(T) x sweeps, the untiled bound";
    if (!r.ok) {
      const std::size_t i = first_bad, x = i % s.nx, y = i / s.nx % s.ny, z = i / (s.nx * s.ny);
      const bool b = boundary(x, y, z);
      r.detail = fmt::format("cell ({}, {}, {}){}: got {} expected {} (tolerance {:.3g})", x, y, z,
                             b ? " (boundary: must keep its input bits)" : "", value(out, i),
                             b ? value(input_.data(), i) : reference_[i], tol);
    }
    return r;
  }

 private:
  bool boundary(std::size_t x, std::size_t y, std::size_t z) const {
    return x == 0 || y == 0 || z == 0 || x == spec_.nx - 1 || y == spec_.ny - 1 || z == spec_.nz - 1;
  }
  double value(const unsigned char* p, std::size_t i) const {
    if (spec_.dtype == Dtype::f32) {
      float f;
      std::memcpy(&f, p + i * sizeof(float), sizeof f);
      return f;
    }
    double d;
    std::memcpy(&d, p + i * sizeof(double), sizeof d);
    return d;
  }

  Stencil7Spec spec_;
  bool gpu_;
  ProblemDesc desc_;
  std::vector<unsigned char> input_;
  std::vector<double> reference_;
  double scale_ = 1;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_input_;
#endif
};

Stencil7Instance::Stencil7Instance(const Stencil7Problem& p, const Stencil7Variant& v) : problem_(p), variant_(v) {
  const std::size_t ws = v.workspace_bytes(p.spec());
  if (v.info.backend == Backend::cpu) {
    host_out_.resize(p.bytes() + 16);
    host_ws_.resize(ws + 16);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_out_ = DeviceBytes(p.bytes(), "stencil7 output");
  if (ws > 0) dev_ws_ = DeviceBytes(ws, "stencil7 workspace");
#endif
}

void Stencil7Instance::run(stream_t stream) {
  const Stencil7Spec& spec = problem_.spec();
  if (variant_.info.backend == Backend::cpu) {
    variant_.run({spec, problem_.host_input(), host_out_.data(), host_ws_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({spec, problem_.device_input(), dev_out_.data(), dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

// The poison: all bits set, a NaN in float and double, which the check fails.
constexpr int POISON = 0xFF;

CheckResult Stencil7Instance::check(stream_t stream) {
  if (variant_.info.backend == Backend::cpu) {
    std::memset(host_out_.data(), POISON, host_out_.size());
    run(stream);
    return problem_.compare(host_out_.data());
  }
  std::vector<unsigned char> got(problem_.bytes() + 16);
#if TESSERA_HAVE_CUDA
  dev_out_.fill_bytes(POISON, stream);
  run(stream);
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  dev_out_.download(got.data(), problem_.bytes());
#endif
  return problem_.compare(got.data());
}

class Stencil7Pattern final : public Pattern {
 public:
  std::string_view name() const override { return "stencil7"; }
  std::string_view size_meaning() const override { return "grid side (N x N x N)"; }

  std::vector<VariantInfo> variants() const override {
    std::vector<VariantInfo> out;
    for (const auto& v : stencil7_impl::variants_ladder().all()) out.push_back(v.info);
    return out;
  }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<Shape> shapes;
    if (o.size) shapes = {{*o.size, *o.size, *o.size, 1}, {*o.size, *o.size, *o.size, 5}};
    else if (o.quick) shapes.assign(std::begin(QUICK_SHAPES), std::end(QUICK_SHAPES));
    else shapes.assign(std::begin(VERIFY_SHAPES), std::end(VERIFY_SHAPES));
    std::vector<ProblemFactory> out;
    for (Dtype t : types_of(o))
      for (std::size_t i = 0; i < shapes.size(); ++i) out.push_back(factory(spec_of(t, shapes[i]), o.seed + i, o.gpu));
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    const std::span<const Shape> base = o.gpu ? std::span<const Shape>(GPU_BENCH) : std::span<const Shape>(CPU_BENCH);
    std::vector<Shape> shapes(base.begin(), base.end());
    if (o.size)
      for (Shape& s : shapes) s.nx = s.ny = s.nz = *o.size;
    std::vector<ProblemFactory> out;
    if (o.headline) {  // float, 1 and 8 sweeps
      for (const Shape& s : shapes) out.push_back(factory(spec_of(Dtype::f32, s), o.seed, o.gpu));
      return out;
    }
    // Float: one sweep and eight; double: one sweep.
    for (Dtype t : types_of(o))
      for (std::size_t i = 0; i < (t == Dtype::f32 ? shapes.size() : 1); ++i)
        out.push_back(factory(spec_of(t, shapes[i]), o.seed, o.gpu));
    return out;
  }

 private:
  static ProblemFactory factory(const Stencil7Spec& s, std::uint64_t seed, bool gpu) {
    // Host: input, the reference (2 double grids while it is computed), a CPU
    // rung's output and workspace and the checked copy; device: input,
    // output, workspace.
    const double cells = double(s.cells()), elem = double(size_of(s.dtype));
    return {spec_label(s), [=] { return std::make_unique<Stencil7Problem>(s, seed, gpu); },
            {.host_bytes = cells * (4 * elem + 3 * 8), .device_bytes = gpu ? 3 * cells * elem : 0,
             .host_flops = 8 * cells * s.sweeps}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_stencil7_pattern() { return std::make_unique<Stencil7Pattern>(); }

}  // namespace tessera::harness
