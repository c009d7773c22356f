// The coulomb pattern as the harness sees it: random point charges (charges
// of both signs) in and around a lattice, poisoned outputs, the check against
// the double reference, and the cost model.
//
// The check: every point must be written and finite; at the checked points
// (all of them for small problems, a sample of CHECK_SAMPLE for large ones)
// the error is |got - V| / sum_i |q_i| / r_i, the sum's own scale (V itself
// can be near zero where charges of both signs cancel, so |got - V| / |V| has
// no bound); the row's note adds max |got - V| / |V| over the checked points
// whose |V| is at least 1e-3 of that scale.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "families/coulomb/contract.hpp"
#include "families/coulomb/cpu_rungs.hpp"
#include "families/coulomb/policy.hpp"
#include "families/register_all.hpp"
#include "harness/bound_instance.hpp"
#include "tessera/coulomb.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using coulomb_impl::CoulombSpec;
using coulomb_impl::CoulombVariant;

struct Shape {
  std::size_t atoms, nx, ny, nz;
  float origin[3] = {0, 0, 0};
  float spacing = 0.5f;
  bool on_points = false;  // a few atoms placed exactly on lattice points
};

// Bench (issue 27): 100,000 atoms on 256 x 256 x 64 points at 0.5 Å (a 128 x
// 128 x 32 Å box), and the seed's 2D slice: one plane of that lattice (z =
// 16 Å) through the same atoms. CPU-only runs: a 2,000-atom 64 x 64 x 16 box.
constexpr Shape GPU_BENCH[] = {{100000, 256, 256, 64}, {100000, 256, 256, 1, {0, 0, 16}}};
constexpr Shape CPU_BENCH[] = {{2000, 64, 64, 16}, {2000, 64, 64, 1, {0, 0, 4}}};
// The atoms of a slice fill the box of its 3D twin (nz_box layers).
constexpr std::size_t SLICE_BOX_LAYERS_GPU = 64, SLICE_BOX_LAYERS_CPU = 16;

// Verify: one atom and one point; sides that are not multiples of the
// blocks (32, 8 rows), the coarsenings (4, 8 x 32, 8 x 2 x 4 rows) or the
// atom tile (128); nz = 1; atom counts across the constant-memory chunk
// (4000) and the shared tile; offset origins; atoms sitting on lattice points.
constexpr Shape VERIFY_SHAPES[] = {
    {1, 1, 1, 1},
    {1, 33, 7, 5, {-2.5f, 1.25f, 0.75f}},
    {1, 17, 19, 1, {0, 0, 0}, 0.5f, true},
    {3, 1, 1, 9},
    {100, 257, 3, 2},
    {129, 300, 17, 3, {-4, -4, -4}, 0.375f},
    {200, 31, 33, 1},
    {300, 256, 8, 4},
    {257, 255, 9, 2, {1, 2, 3}, 0.25f, true},
    {4001, 65, 9, 3},
    {5000, 40, 11, 1, {-8, -8, 0}, 1.0f},
    {1000, 513, 21, 2},
};
constexpr Shape QUICK_SHAPES[] = {
    {1, 1, 1, 1}, {1, 33, 7, 5, {-2.5f, 1.25f, 0.75f}}, {129, 300, 17, 3, {-4, -4, -4}, 0.375f},
    {257, 255, 9, 2, {1, 2, 3}, 0.25f, true}, {4001, 65, 9, 1},
};

// Past this many points x atoms a problem checks a sample of its points.
constexpr double FULL_CHECK_PAIRS = double(1 << 28);
constexpr std::size_t CHECK_SAMPLE = 4096;
// Serial CPU rungs: 2^30 pairs (seconds); OpenMP: 2^34.
constexpr double SERIAL_PAIRS = double(std::size_t(1) << 30);
constexpr double OPENMP_PAIRS = double(std::size_t(1) << 34);

Lattice lattice_of(const Shape& s) {
  Lattice L;
  std::copy(std::begin(s.origin), std::end(s.origin), L.origin);
  L.spacing = s.spacing;
  L.nx = s.nx;
  L.ny = s.ny;
  L.nz = s.nz;
  return L;
}

std::string label_of(const Shape& s) {
  return fmt::format("{} atoms on {}x{}x{} at {}", s.atoms, s.nx, s.ny, s.nz, s.spacing);
}

// Atoms uniform in the lattice's box (`box_nz` layers deep: a slice's atoms
// fill its 3D twin's box) plus a 1-spacing margin; charges of both signs,
// |q| in [0.1, 1]; with on_points, every 7th atom sits exactly on a point.
std::vector<Atom> make_atoms(const Shape& s, std::size_t box_nz, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float h = s.spacing;
  const float lo[3] = {s.origin[0] - h, s.origin[1] - h, s.nz == 1 && box_nz > 1 ? -h : s.origin[2] - h};
  const float ext[3] = {h * float(s.nx + 1), h * float(s.ny + 1), h * float(box_nz + 1)};
  std::vector<Atom> atoms(s.atoms);
  for (std::size_t a = 0; a < s.atoms; ++a) {
    Atom& at = atoms[a];
    at.x = lo[0] + ext[0] * unit(rng);
    at.y = lo[1] + ext[1] * unit(rng);
    at.z = lo[2] + ext[2] * unit(rng);
    const float mag = 0.1f + 0.9f * unit(rng);
    at.q = (rng() & 1) ? mag : -mag;
    if (s.on_points && a % 7 == 0) {
      at.x = coulomb_impl::lattice_coord(s.origin[0], h, rng() % s.nx);
      at.y = coulomb_impl::lattice_coord(s.origin[1], h, rng() % s.ny);
      at.z = coulomb_impl::lattice_coord(s.origin[2], h, rng() % s.nz);
    }
  }
  return atoms;
}

// The points the check compares: all of them, or a sample (first, last,
// the corners of the first and last layer, and random points).
std::vector<std::size_t> checked_points(const CoulombSpec& spec, std::uint64_t seed) {
  const std::size_t n = spec.lattice.points();
  std::vector<std::size_t> pts;
  if (spec.pairs() <= FULL_CHECK_PAIRS || n <= CHECK_SAMPLE) {
    pts.resize(n);
    for (std::size_t p = 0; p < n; ++p) pts[p] = p;
    return pts;
  }
  const Lattice& L = spec.lattice;
  for (std::size_t k : {std::size_t(0), L.nz - 1})
    for (std::size_t j : {std::size_t(0), L.ny - 1})
      for (std::size_t i : {std::size_t(0), L.nx - 1}) pts.push_back(i + L.nx * (j + L.ny * k));
  std::mt19937_64 rng(seed ^ 0x5eed);
  while (pts.size() < CHECK_SAMPLE) pts.push_back(rng() % n);
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  return pts;
}

class CoulombProblem;

class CoulombInstance final : public BoundInstance<CoulombProblem, CoulombVariant> {
 public:
  CoulombInstance(const CoulombProblem& p, const CoulombVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  std::vector<float> host_out_;
#if TESSERA_HAVE_CUDA
  DeviceBuffer<float> dev_out_;
#endif
};

class CoulombProblem final : public Problem {
 public:
  CoulombProblem(const Shape& s, std::size_t box_nz, std::uint64_t seed, bool gpu)
      : spec_{s.atoms, lattice_of(s)}, gpu_(gpu), atoms_(make_atoms(s, box_nz, seed)) {
    desc_ = {"coulomb", label_of(s), "float", "", "", "uniform", {s.atoms, s.nx, s.ny, s.nz}};
    points_ = checked_points(spec_, seed);
    reference_.resize(points_.size());
    const auto count = static_cast<std::int64_t>(points_.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (std::int64_t c = 0; c < count; ++c)
      reference_[c] = coulomb_impl::cpu::reference_at(atoms_.data(), atoms_.size(), spec_.lattice, points_[c]);
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_atoms_ = DeviceBuffer<Atom>(std::max<std::size_t>(atoms_.size(), 1), "coulomb atoms");
      dev_atoms_.upload(atoms_.data(), atoms_.size());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    // One rsqrt per (atom, point) pair, ~9 flops around it (3 differences, 3
    // squares summed, the charge's multiply-add); atoms read once, points
    // written once.
    const double pairs = spec_.pairs();
    Cost c{double(spec_.n_atoms) * sizeof(Atom) + double(spec_.lattice.points()) * sizeof(float), 9.0 * pairs,
           Bound::special};
    c.special_ops = pairs;
    return c;
  }
  bool supports(const VariantInfo& v) const override {
    const CoulombVariant* cv = coulomb_impl::variants_ladder().find(v.name);
    if (cv == nullptr || !(v.backend == Backend::cpu || gpu_) || !cv->supports(spec_)) return false;
    if (v.backend == Backend::cpu) return spec_.pairs() <= (v.step == 0 ? SERIAL_PAIRS : OPENMP_PAIRS);
    return true;
  }
  std::string why_unsupported(const VariantInfo& v) const override {
    if (v.backend == Backend::cpu)
      return fmt::format("{} skips {} ({:.3g} pairs: past its limit of {:.3g})", v.name, desc_.label, spec_.pairs(),
                         v.step == 0 ? SERIAL_PAIRS : OPENMP_PAIRS);
    return Problem::why_unsupported(v);
  }
  std::string api_pick(bool gpu) const override {
    return gpu ? coulomb_default_variant(spec_.n_atoms, spec_.lattice)
               : std::string(coulomb_impl::policy::CPU_RULES[0].variant);
  }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<CoulombInstance>(*this, *coulomb_impl::variants_ladder().find(v.name));
  }

  const CoulombSpec& spec() const { return spec_; }
  const Atom* host_atoms() const { return atoms_.data(); }
#if TESSERA_HAVE_CUDA
  const Atom* device_atoms() const { return dev_atoms_.data(); }
#endif

  CheckResult compare(const std::vector<float>& got) const {
    CheckResult r;
    r.ok = true;
    const std::size_t n = spec_.lattice.points();
    for (std::size_t p = 0; p < n; ++p)
      if (!std::isfinite(got[p])) {
        r.ok = false;
        r.max_rel_err = std::numeric_limits<double>::infinity();
        r.detail = fmt::format("point {} is {} (not written, or not finite)", p, got[p]);
        return r;
      }
    // Float rsqrt (a few ulp, or 4.7e-6 for 2 Newton steps) plus float
    // accumulation of n terms, the harness's sum tolerance for float.
    const double tol = 1e-5 + std::ldexp(1.0, -24) * (16 + 4 * std::sqrt(double(spec_.n_atoms)));
    double max_err = 0, max_plain = 0;
    for (std::size_t c = 0; c < points_.size(); ++c) {
      const std::size_t p = points_[c];
      const auto [ref, scale] = reference_[c];
      const double diff = std::fabs(double(got[p]) - ref);
      const double err = scale > 0 ? diff / scale : (got[p] == 0 ? 0 : std::numeric_limits<double>::infinity());
      if (std::fabs(ref) >= 1e-3 * scale && scale > 0) max_plain = std::max(max_plain, diff / std::fabs(ref));
      if (!(err <= max_err)) max_err = err;
      if (!(err <= tol) && r.ok) {
        r.ok = false;
        r.detail = fmt::format("point {}: got {:.9g}, reference {:.9g} (error {:.3g} of sum |q|/r = {:.6g}; "
                               "tolerance {:.3g})",
                               p, got[p], ref, err, scale, tol);
      }
    }
    r.max_rel_err = max_err;
    r.note = fmt::format("max err/sum|q|/r {:.2e}, max err/|V| {:.2e}, {} of {} points checked", max_err, max_plain,
                         points_.size(), n);
    return r;
  }

 private:
  CoulombSpec spec_;
  bool gpu_;
  ProblemDesc desc_;
  std::vector<Atom> atoms_;
  std::vector<std::size_t> points_;
  std::vector<coulomb_impl::cpu::ReferenceValue> reference_;
#if TESSERA_HAVE_CUDA
  DeviceBuffer<Atom> dev_atoms_;
#endif
};

CoulombInstance::CoulombInstance(const CoulombProblem& p, const CoulombVariant& v) : BoundInstance(p, v) {
  const std::size_t n = p.spec().lattice.points();
  if (on_host()) {
    host_out_.resize(n);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_out_ = DeviceBuffer<float>(n, "coulomb potential");
#endif
}

void CoulombInstance::run(stream_t stream) {
  const CoulombSpec& spec = problem_.spec();
  if (on_host()) {
    variant_.run({spec, problem_.host_atoms(), host_out_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({spec, problem_.device_atoms(), dev_out_.data(), stream});
#else
  (void)stream;
#endif
}

CheckResult CoulombInstance::check(stream_t stream) {
  const std::size_t n = problem_.spec().lattice.points();
  if (on_host()) {
    std::memset(host_out_.data(), 0xFF, n * sizeof(float));  // NaN poison
    run(stream);
    return problem_.compare(host_out_);
  }
  std::vector<float> got(n);
#if TESSERA_HAVE_CUDA
  dev_out_.fill_bytes(0xFF, stream);
  run(stream);
  wait_for_run(stream);
  dev_out_.download(got.data(), n);
#endif
  return problem_.compare(got);
}

class CoulombPattern final : public Pattern {
 public:
  std::string_view name() const override { return "coulomb"; }
  std::string_view size_meaning() const override {
    return "lattice side N: N x N x N/4 points at 0.5, atoms at the bench's density (100,000 per 256x256x64)";
  }

  std::vector<VariantInfo> variants() const override { return coulomb_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    if (!types_ok(o)) return {};
    std::vector<ProblemFactory> out;
    if (o.size) {
      out.push_back(factory(sized(*o.size), 0, o.seed, o.gpu));
      return out;
    }
    const std::span<const Shape> shapes =
        o.quick ? std::span<const Shape>(QUICK_SHAPES) : std::span<const Shape>(VERIFY_SHAPES);
    for (std::size_t i = 0; i < shapes.size(); ++i) out.push_back(factory(shapes[i], 0, o.seed + i, o.gpu));
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    if (!types_ok(o)) return {};
    std::vector<ProblemFactory> out;
    if (o.size) {
      out.push_back(factory(sized(*o.size), 0, o.seed, o.gpu));
      return out;
    }
    const std::span<const Shape> shapes = o.gpu ? std::span<const Shape>(GPU_BENCH) : std::span<const Shape>(CPU_BENCH);
    const std::size_t box = o.gpu ? SLICE_BOX_LAYERS_GPU : SLICE_BOX_LAYERS_CPU;
    for (const Shape& s : shapes) out.push_back(factory(s, s.nz == 1 ? box : 0, o.seed, o.gpu));
    return out;
  }

 private:
  // float only; no operator or accumulator.
  static bool types_ok(const RunOptions& o) { return !o.op && !o.accum && (!o.type || *o.type == Dtype::f32); }

  static Shape sized(std::size_t n) {
    const std::size_t side = std::max<std::size_t>(n, 1), depth = std::max<std::size_t>(n / 4, 1);
    const double density = 100000.0 / (256.0 * 256.0 * 64.0);
    const auto atoms = std::max<std::size_t>(1, std::size_t(density * double(side * side * depth)));
    return {atoms, side, side, depth};
  }

  // box_nz: 0 for the lattice's own box, else the layers of the box the atoms fill.
  static ProblemFactory factory(const Shape& s, std::size_t box_nz, std::uint64_t seed, bool gpu) {
    const double points = double(s.nx) * double(s.ny) * double(s.nz);
    const double checked = std::min(points, double(CHECK_SAMPLE));
    const double pairs = points * double(s.atoms);
    return {label_of(s),
            [=] { return std::make_unique<CoulombProblem>(s, box_nz == 0 ? s.nz : box_nz, seed, gpu); },
            {.host_bytes = double(s.atoms) * sizeof(Atom) + 2 * points * sizeof(float) + checked * 16,
             .device_bytes = gpu ? double(s.atoms) * sizeof(Atom) + points * sizeof(float) : 0,
             .host_flops = (pairs <= FULL_CHECK_PAIRS ? points : checked) * double(s.atoms) * 12}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_coulomb_pattern() { return std::make_unique<CoulombPattern>(); }

}  // namespace tessera::harness
