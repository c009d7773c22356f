// The cutoff pattern as the harness sees it: generated systems (a water box,
// uniform and clustered charges), the double cell-list reference with each
// point's sum of |terms|, the check, and the cost model.
//
// Check: at every point |got - ref| <= 2^-24 (16 + 4 sqrt(k)) sum|terms| +
// 2 sum of the pairs' rounding bounds, k the pairs within c of the point (the
// float sum's rounding over k terms, plus the cancellation in 1 - r^2 / c^2
// near the cutoff: cell_list.hpp's PairRounding); max_rel_err is the largest
// |got - ref| / sum|terms|. Points no atom can reach must be exactly 0.
// Lattices past SAMPLE_PAST_POINTS points are checked at a sample: the
// corners and CHECK_SAMPLE seeded random points, each against the double
// cell-list sum there (the whole reference would take tens of seconds); the
// CPU rungs, as slow as that reference, are left out there (OpenMP stays
// up to 2e9 pairs), and so is the
// direct sum past DIRECT_MAX_EVALUATIONS atom-point evaluations (~0.2 s a run
// on an H100 at 4e11: each row runs it 8 times or more).
// Cost: the pairs within the cutoff (counted by the reference, or estimated
// from the sample's mean), one MUFU
// reciprocal square root each (Bound::special), ~10 FP32 operations each.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "families/cutoff/contract.hpp"
#include "families/cutoff/cpu_rungs.hpp"
#include "families/cutoff/policy.hpp"
#include "families/cutoff/water.hpp"
#include "families/register_all.hpp"
#include "harness/bound_instance.hpp"
#include "tessera/cutoff.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using cutoff_impl::CutoffSpec;
using cutoff_impl::CutoffVariant;

// One system: its atoms (made when the problem is built) on a lattice.
struct Scenario {
  std::string label;
  std::size_t n_atoms;
  Lattice lattice;
  float cutoff;
  std::function<std::vector<Atom>(std::uint64_t seed)> atoms;
};

Lattice lattice_at(float ox, float oy, float oz, float spacing, std::size_t nx, std::size_t ny, std::size_t nz) {
  Lattice l;
  l.origin[0] = ox, l.origin[1] = oy, l.origin[2] = oz;
  l.spacing = spacing;
  l.nx = nx, l.ny = ny, l.nz = nz;
  return l;
}

constexpr std::size_t SAMPLE_PAST_POINTS = std::size_t(1) << 20;
constexpr std::size_t CHECK_SAMPLE = 4096;
constexpr double DIRECT_MAX_EVALUATIONS = 5e11;

// The points the check compares: all of them, or the 8 corners and
// CHECK_SAMPLE seeded random points (sorted, distinct).
std::vector<std::size_t> checked_points(const Lattice& l, std::uint64_t seed) {
  const std::size_t n = l.points();
  std::vector<std::size_t> pts;
  if (n <= SAMPLE_PAST_POINTS) {
    pts.resize(n);
    for (std::size_t p = 0; p < n; ++p) pts[p] = p;
    return pts;
  }
  for (std::size_t k : {std::size_t(0), l.nz - 1})
    for (std::size_t j : {std::size_t(0), l.ny - 1})
      for (std::size_t i : {std::size_t(0), l.nx - 1}) pts.push_back(i + l.nx * (j + l.ny * k));
  std::mt19937_64 rng(seed ^ 0xc0ff5eedULL);
  for (std::size_t q = 0; q < CHECK_SAMPLE; ++q) pts.push_back(rng() % n);
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  return pts;
}

constexpr float BENCH_CUTOFF = 12.f;
constexpr float BENCH_SPACING = 0.5f;
// Lattices larger than this per side are cut to it, centred in the box.
constexpr std::size_t MAX_SIDE_POINTS = 200;

// n atoms of water in a cube at water's density, the lattice over the box at
// 0.5 Å (at most 200 points a side, centred).
Scenario water_cube(std::size_t n, float cutoff = BENCH_CUTOFF) {
  const double side = std::cbrt(double(n) / cutoff_impl::WATER_ATOMS_PER_A3);
  const std::size_t full = std::max<std::size_t>(1, std::size_t(side / BENCH_SPACING));
  const std::size_t pts = std::min(full, MAX_SIDE_POINTS);
  const float o = float((side - double(pts - 1) * BENCH_SPACING) / 2);
  const double box[3] = {side, side, side};
  return {fmt::format("water {} atoms ({:.0f} Å box), lattice {}^3{}, c {}", n, side, pts,
                      pts < full ? " at the centre" : "", cutoff),
          n, lattice_at(o, o, o, BENCH_SPACING, pts, pts, pts), cutoff,
          [=](std::uint64_t seed) { return cutoff_impl::water_box(n, box, seed); }};
}

Scenario uniform(std::string label, std::size_t n, Lattice l, float cutoff, float margin);

// The direct sum's bench itself (coulomb: 100,000 atoms uniform in the box of
// the 256 x 256 x 64 lattice at 0.5 Å plus one spacing, 0.19 atoms/Å^3, about
// twice water's), with c = 12 Å: its row reads against the coulomb bench's
// API pick directly (the cutoff target: 20x its time).
Scenario dcs_bench() {
  return uniform("uniform 100000 atoms, the direct sum's bench (256x256x64 at 0.5, box 128x128x32 Å), c 12", 100000,
                 lattice_at(0, 0, 0, BENCH_SPACING, 256, 256, 64), BENCH_CUTOFF, BENCH_SPACING);
}

// The direct sum's bench lattice (256 x 256 x 64 at 0.5 Å) in 100,000 atoms
// of water: a 128 x 128 x 61 Å box whose lower 32 Å the lattice covers.
Scenario water_dcs_lattice() {
  constexpr std::size_t N = 100000;
  const double z = double(N) / cutoff_impl::WATER_ATOMS_PER_A3 / (128.0 * 128.0);
  const double box[3] = {128.0, 128.0, z};
  return {"water 100000 atoms (128x128x61 Å), DCS lattice 256x256x64, c 12", N,
          lattice_at(0.25f, 0.25f, 0.25f, BENCH_SPACING, 256, 256, 64), BENCH_CUTOFF,
          [=](std::uint64_t seed) { return cutoff_impl::water_box(N, box, seed); }};
}

Scenario uniform(std::string label, std::size_t n, Lattice l, float cutoff, float margin) {
  float lo[3], hi[3];
  const std::size_t dims[3] = {l.nx, l.ny, l.nz};
  for (int a = 0; a < 3; ++a) {
    lo[a] = l.origin[a] - margin;
    hi[a] = l.origin[a] + l.spacing * float(dims[a] - 1) + margin;
  }
  return {std::move(label), n, l, cutoff,
          [=](std::uint64_t seed) { return cutoff_impl::uniform_atoms(n, lo, hi, seed); }};
}

// Many atoms in one 0.8 Å cube (far past a bin's capacity: the overflow
// list) plus a uniform background.
Scenario cluster() {
  const Lattice l = lattice_at(0, 0, 0, 0.5f, 30, 30, 12);
  return {"600 atoms in one bin + 400 uniform (overflow), lattice 30x30x12, c 4", 1000, l, 4.f,
          [=](std::uint64_t seed) {
            const float clo[3] = {5.1f, 5.1f, 2.1f}, chi[3] = {5.9f, 5.9f, 2.9f};
            const float lo[3] = {-3, -3, -3}, hi[3] = {17.5f, 17.5f, 8.5f};
            auto atoms = cutoff_impl::uniform_atoms(600, clo, chi, seed);
            const auto rest = cutoff_impl::uniform_atoms(400, lo, hi, seed + 1);
            atoms.insert(atoms.end(), rest.begin(), rest.end());
            return atoms;
          }};
}

std::vector<Scenario> verify_scenarios(bool quick) {
  std::vector<Scenario> s;
  s.push_back(uniform("uniform 2000 atoms, many outside the lattice 37x23x11, c 5", 2000,
                      lattice_at(0, 0, 0, 0.5f, 37, 23, 11), 5.f, 7.f));
  s.push_back(cluster());
  s.push_back(uniform("slice nz = 1: 3000 atoms, lattice 64x48x1, c 6", 3000, lattice_at(-1, 2, 3, 0.5f, 64, 48, 1),
                      6.f, 6.5f));
  s.push_back(uniform("no atoms, lattice 9x9x9", 0, lattice_at(0, 0, 0, 0.5f, 9, 9, 9), 3.f, 1.f));
  if (quick) return s;
  s.push_back(uniform("sparse 12 atoms (empty bins), lattice 48^3, c 3", 12, lattice_at(0, 0, 0, 0.5f, 48, 48, 48),
                      3.f, 2.f));
  s.push_back(water_cube(3000, 8.f));
  s.push_back(uniform("spacing 0.3, c 12: 1500 atoms, lattice 33x17x9", 1500, lattice_at(0, 0, 0, 0.3f, 33, 17, 9),
                      12.f, 13.f));
  s.push_back(uniform("one point, 100 atoms, c 2.5", 100, lattice_at(1, 1, 1, 0.5f, 1, 1, 1), 2.5f, 3.f));
  s.push_back(uniform("c 40 (past the constant-memory offsets), 800 atoms, lattice 20^3", 800,
                      lattice_at(0, 0, 0, 0.5f, 20, 20, 20), 40.f, 41.f));
  s.push_back(uniform("spacing 1.1, 5000 atoms, lattice 41x7x19, c 9", 5000, lattice_at(-20, 0, 5, 1.1f, 41, 7, 19),
                      9.f, 10.f));
  return s;
}

class CutoffProblem;

class CutoffInstance final : public BoundInstance<CutoffProblem, CutoffVariant> {
 public:
  CutoffInstance(const CutoffProblem& p, const CutoffVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  std::vector<float> host_out_;
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_out_, dev_ws_;
#endif
};

class CutoffProblem final : public Problem {
 public:
  CutoffProblem(const Scenario& sc, std::uint64_t seed, bool gpu)
      : spec_{sc.n_atoms, sc.lattice, sc.cutoff}, gpu_(gpu), atoms_(sc.atoms(seed)) {
    spec_.n_atoms = atoms_.size();
    desc_ = {"cutoff", sc.label, "float", "", "", "water", {sc.lattice.nx, sc.lattice.ny, sc.lattice.nz}};
    sample_ = checked_points(spec_.lattice, seed);
    sampled_ = sample_.size() < spec_.lattice.points();
    ref_ = sampled_ ? cutoff_impl::cpu::reference_at_points(spec_, atoms_.data(), sample_)
                    : cutoff_impl::cpu::reference_potential(spec_, atoms_.data());
    pairs_ = sampled_ ? ref_.pairs / double(sample_.size()) * double(spec_.lattice.points()) : ref_.pairs;
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_atoms_ = DeviceBytes(std::max<std::size_t>(1, atoms_.size()) * sizeof(Atom), "cutoff atoms");
      if (!atoms_.empty()) dev_atoms_.upload(atoms_.data(), atoms_.size() * sizeof(Atom));
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    Cost c;
    c.bytes = double(spec_.n_atoms) * sizeof(Atom) + double(spec_.lattice.points()) * sizeof(float);
    c.flops = 10.0 * pairs_;
    c.bound = Bound::special;
    c.special_ops = pairs_;
    return c;
  }
  bool supports(const VariantInfo& v) const override {
    const CutoffVariant* cv = cutoff_impl::variants_ladder().find(v.name);
    if (cv == nullptr || !(v.backend == Backend::cpu || gpu_) || !cv->supports(spec_)) return false;
    if (v.name == "direct_smoothed" && direct_evaluations() > DIRECT_MAX_EVALUATIONS) return false;
    // The CPU rungs cost what the whole reference does: the serial one not
    // where that is sampled, the OpenMP one not past 2e9 pairs.
    if (v.name == "cpu_reference") return !sampled_;
    return !(v.backend == Backend::cpu && pairs_ > 2e9);
  }
  std::string api_pick(bool gpu) const override { return std::string(cutoff_impl::policy::pick(gpu)); }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<CutoffInstance>(*this, *cutoff_impl::variants_ladder().find(v.name));
  }

  const CutoffSpec& spec() const { return spec_; }
  double direct_evaluations() const { return double(spec_.n_atoms) * double(spec_.lattice.points()); }
  const Atom* host_atoms() const { return atoms_.data(); }
#if TESSERA_HAVE_CUDA
  const Atom* device_atoms() const { return static_cast<const Atom*>(dev_atoms_.data()); }
#endif

  CheckResult compare(const float* got) const {
    CheckResult r;
    r.ok = true;
    const std::size_t points = spec_.lattice.points();
    for (std::size_t q = 0; q < sample_.size(); ++q) {
      const std::size_t p = sample_[q];
      const double err = std::fabs(double(got[p]) - ref_.potential[q]);
      const double scale = ref_.abs_sum[q];
      const double tol = ref_.tolerance(q);
      const double rel = scale > 0 ? err / scale : (err == 0 ? 0 : std::numeric_limits<double>::infinity());
      if (!(rel <= r.max_rel_err)) r.max_rel_err = std::isnan(rel) ? std::numeric_limits<double>::infinity() : rel;
      if (!(err <= tol) && r.ok) {
        const std::size_t nx = spec_.lattice.nx, ny = spec_.lattice.ny;
        r.ok = false;
        r.detail = fmt::format("point ({}, {}, {}): got {}, reference {} (sum |terms| {}, {} atoms within c)", p % nx,
                               (p / nx) % ny, p / (nx * ny), got[p], ref_.potential[q], scale, ref_.near[q]);
      }
    }
    r.note = fmt::format("{:.3g} pairs within c ({:.0f} per point{}); error relative to each point's sum |terms|", pairs_,
                         pairs_ / double(std::max<std::size_t>(1, points)), sampled_ ? ", estimated" : "");
    if (sampled_)
      r.note += fmt::format("; checked at {} sampled points (8 corners + seeded random) of {}{}{}",
                            sample_.size(), points, pairs_ > 2e9 ? ", CPU rungs left out (> 2e9 pairs)" : "",
                            direct_evaluations() > DIRECT_MAX_EVALUATIONS ? ", direct_smoothed left out (> 5e11 atom-point evaluations)" : "");
    return r;
  }

 private:
  CutoffSpec spec_;
  bool gpu_;
  ProblemDesc desc_;
  std::vector<Atom> atoms_;
  std::vector<std::size_t> sample_;  // the checked points (all, or a sample)
  bool sampled_ = false;
  cutoff_impl::cpu::Reference ref_;  // at sample_
  double pairs_ = 0;                 // within c, over the whole lattice
#if TESSERA_HAVE_CUDA
  DeviceBytes dev_atoms_;
#endif
};

CutoffInstance::CutoffInstance(const CutoffProblem& p, const CutoffVariant& v) : BoundInstance(p, v) {
  const std::size_t points = p.spec().lattice.points();
  if (on_host()) {
    host_out_.resize(points);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_out_ = DeviceBytes(points * sizeof(float), "cutoff potential");
  dev_ws_ = DeviceBytes(std::max<std::size_t>(256, v.workspace_bytes(p.spec())), "cutoff workspace");
#endif
}

void CutoffInstance::run(stream_t stream) {
  if (on_host()) {
    variant_.run({problem_.spec(), problem_.host_atoms(), host_out_.data(), nullptr, nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({problem_.spec(), problem_.device_atoms(), static_cast<float*>(dev_out_.data()), stream, dev_ws_.data()});
#else
  (void)stream;
#endif
}

CheckResult CutoffInstance::check(stream_t stream) {
  if (on_host()) {
    std::fill(host_out_.begin(), host_out_.end(), std::numeric_limits<float>::quiet_NaN());
    run(stream);
    return problem_.compare(host_out_.data());
  }
  std::vector<float> got(problem_.spec().lattice.points());
#if TESSERA_HAVE_CUDA
  dev_out_.fill_bytes(0xFF, stream);  // NaN: an unwritten point fails
  run(stream);
  wait_for_run(stream);
  dev_out_.download(got.data(), got.size() * sizeof(float));
#endif
  return problem_.compare(got.data());
}

class CutoffPattern final : public Pattern {
 public:
  std::string_view name() const override { return "cutoff"; }
  std::string_view size_meaning() const override { return "atoms (a water cube, lattice over it at 0.5 Å, <= 200^3)"; }

  std::vector<VariantInfo> variants() const override { return cutoff_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    if (o.type || o.op || o.accum) return {};
    std::vector<ProblemFactory> out;
    if (o.size) {
      out.push_back(factory(water_cube(*o.size), o.seed, o.gpu));
      return out;
    }
    const auto scenarios = verify_scenarios(o.quick);
    for (std::size_t i = 0; i < scenarios.size(); ++i) out.push_back(factory(scenarios[i], o.seed + i, o.gpu));
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    if (o.type || o.op || o.accum) return {};
    std::vector<ProblemFactory> out;
    if (o.size) {
      out.push_back(factory(water_cube(*o.size), o.seed, o.gpu));
      return out;
    }
    if (!o.gpu) {  // 2 cores: a small box
      out.push_back(factory(water_cube(5000), o.seed, o.gpu));
      return out;
    }
    out.push_back(factory(dcs_bench(), o.seed, o.gpu));
    if (!o.headline) {
      out.push_back(factory(water_dcs_lattice(), o.seed, o.gpu));
      out.push_back(factory(water_cube(100000), o.seed, o.gpu));
    }
    out.push_back(factory(water_cube(1000000), o.seed, o.gpu));
    return out;
  }

 private:
  static ProblemFactory factory(const Scenario& s, std::uint64_t seed, bool gpu) {
    const double points = double(s.lattice.points());
    const double atoms = double(s.n_atoms) * sizeof(Atom);
    // Host: atoms, the reference (value, |terms|: doubles), counts, a CPU
    // rung's output and the checked copy. Device: atoms, output, workspace
    // (sorted atoms and bins, a few times the atoms).
    const double near = cutoff_impl::WATER_ATOMS_PER_A3 * 4.0 / 3.0 * 3.14159 * double(s.cutoff) * s.cutoff * s.cutoff;
    return {s.label, [=] { return std::make_unique<CutoffProblem>(s, seed, gpu); },
            {.host_bytes = 2 * atoms + points * (8 + 8 + 4 + 4 + 4),
             .device_bytes = gpu ? 6 * atoms + points * 4 + 64e6 : 0,
             .host_flops = std::min(points, double(points > double(SAMPLE_PAST_POINTS) ? CHECK_SAMPLE + 8 : points)) *
                           near * 20}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_cutoff_pattern() { return std::make_unique<CutoffPattern>(); }

}  // namespace tessera::harness
