// The MRI-Q pattern as the harness sees it: seeded k-space samples and
// voxels, outputs poisoned with NaN, every output checked finite and the
// checked voxels compared with the double evaluation (cpu::voxel_q), and
// the cost model: Bound::special, two MUFU operations (a sin and a cos)
// per (voxel, sample) pair.
//
// The check: err = max over checked voxels of |got - ref| (real and
// imaginary parts), relative to max|Q_ref| over the same voxels; it passes
// when err <= 1e-4 max|Q_ref| (written !(err <= tol): NaN fails). Every
// problem puts a voxel at the origin, where Q = sum |phi|^2 is the largest
// |Q| anywhere (|Q(x)| <= sum |phi|^2), and that voxel is always checked,
// so max|Q_ref| is the true max|Q| even when the check is sampled.
//
// Sampled check: the double reference costs num_k evaluations per voxel;
// past REFERENCE_PAIRS (2^28) pairs, a seeded random subset of voxels is
// checked (the origin plus enough others to fill REFERENCE_PAIRS, at least
// 64), well under the harness's HOST_FLOPS_LIMIT. The 64^3 x 262,144 bench
// problem is 6.9e10 pairs: 1,024 of its voxels are checked.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "families/mriq/contract.hpp"
#include "families/mriq/cpu_rungs.hpp"
#include "families/mriq/policy.hpp"
#include "families/register_all.hpp"
#include "harness/bound_instance.hpp"
#include "tessera/mriq.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using mriq_impl::KSpace;
using mriq_impl::MriqCall;
using mriq_impl::MriqSpec;
using mriq_impl::MriqVariant;
using mriq_impl::Voxels;

// The tolerance, relative to max|Q| of the double reference.
constexpr double TOLERANCE = 1e-4;
// Pairs the double reference evaluates at most (sampled check past this).
constexpr double REFERENCE_PAIRS = double(1 << 28);
// Host arithmetic of one reference pair (a double sin and cos, ~20 flops
// each, plus the argument and the sums), for Needs::host_flops.
constexpr double REFERENCE_FLOPS_PER_PAIR = 50;
// Arithmetic of one pair as the definition writes it: k.x (5), 2 pi (1),
// two multiply-adds into Q (4); sin and cos are counted as special ops.
constexpr double FLOPS_PER_PAIR = 10;
// CPU rungs and the atomic scatter take minutes past these (serial double
// sincos ~30 ns a pair; the scatter's contended atomics).
constexpr double SERIAL_PAIRS = double(1 << 25);
constexpr double OPENMP_PAIRS = double(1 << 30);
constexpr double SCATTER_PAIRS = double(1 << 27);

// side > 0: a side^3 grid of voxels (num_x = side^3) at (i - side/2) / side,
// k uniform in [-side/2, side/2) (the grid's Nyquist box). side = 0: random
// voxels in [-0.5, 0.5)^3, k in [-8, 8).
struct Shape {
  std::size_t num_k, num_x, side = 0;
};

constexpr Shape grid(std::size_t side, std::size_t num_k) { return {num_k, side * side * side, side}; }

// Bench: the 64^3 voxels x 262,144 samples (the headline, 6.9e10
// pairs), and 32^3 voxels with 2,048 samples (tessera's choice of count for
// the small grid: one constant-memory chunk). CPU-only runs: 16^3 x 2,048.
constexpr Shape GPU_BENCH[] = {grid(64, 262144), grid(32, 2048)};
constexpr Shape CPU_BENCH[] = {grid(16, 2048)};
// Verify: num_k = 0, 1, 2, 3, one chunk +/- 1, several chunks with a
// remainder; num_x = 0, 1, not a multiple of the block (256) or of the
// coarsened block (1024), and a grid.
constexpr Shape VERIFY_SHAPES[] = {{0, 100},    {5, 0},       {1, 1},      {1, 1000},   {2, 257},
                                   {3, 4099},   {2047, 333},  {2048, 1024}, {2049, 1025}, {4097, 257},
                                   {5000, 3001}, {100, 32773}, grid(16, 1000)};
constexpr Shape QUICK_SHAPES[] = {{0, 100}, {1, 1}, {3, 1025}, {2049, 333}, grid(8, 300)};

std::string shape_label(const Shape& s) {
  if (s.side > 0) return fmt::format("{}^3 voxels x {} samples", s.side, s.num_k);
  return fmt::format("{} voxels x {} samples", s.num_x, s.num_k);
}

// Voxels whose Q the check compares with the double reference.
std::size_t checked_count(const Shape& s) {
  if (double(s.num_k) * double(s.num_x) <= REFERENCE_PAIRS) return s.num_x;
  const auto fit = static_cast<std::size_t>(REFERENCE_PAIRS / double(std::max<std::size_t>(s.num_k, 1)));
  return std::min(s.num_x, std::max<std::size_t>(fit, 64));
}

class MriqProblem;

class MriqInstance final : public BoundInstance<MriqProblem, MriqVariant> {
 public:
  MriqInstance(const MriqProblem& p, const MriqVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  std::vector<float> host_qr_, host_qi_;
#if TESSERA_HAVE_CUDA
  DeviceBuffer<float> dev_qr_, dev_qi_;
  DeviceBytes workspace_;
#endif
};

class MriqProblem final : public Problem {
 public:
  MriqProblem(const Shape& shape, std::uint64_t seed, bool gpu) : shape_(shape), gpu_(gpu) {
    desc_ = {"mriq", shape_label(shape), "float", "", "", "uniform", {shape.num_x, shape.num_k}};
    generate(seed);
    reference(seed);
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      for (int a = 0; a < 8; ++a) {
        dev_[a] = DeviceBuffer<float>(std::max<std::size_t>(host_[a].size(), 1), "mriq input");
        dev_[a].upload(host_[a].data(), host_[a].size());
      }
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }
  Cost cost() const override {
    const double pairs = spec().pairs();
    const double bytes = 4.0 * (5.0 * double(shape_.num_k) + 5.0 * double(shape_.num_x));
    return {bytes, FLOPS_PER_PAIR * pairs, Bound::special, 2.0 * pairs};
  }
  bool supports(const VariantInfo& v) const override {
    const MriqVariant* mv = mriq_impl::variants_ladder().find(v.name);
    if (mv == nullptr || !(v.backend == Backend::cpu || gpu_) || !mv->supports(spec())) return false;
    const double pairs = spec().pairs();
    if (v.name == "cpu_reference") return pairs <= SERIAL_PAIRS;
    if (v.name == "cpu_openmp") return pairs <= OPENMP_PAIRS;
    if (v.name == "scatter_atomics") return pairs <= SCATTER_PAIRS;
    return true;
  }
  std::string why_unsupported(const VariantInfo& v) const override {
    return fmt::format("{} is limited to fewer (voxel, sample) pairs than {} ({:.2g})", v.name, desc_.label,
                       spec().pairs());
  }
  std::string api_pick(bool gpu) const override {
    return gpu ? mri_q_default_variant(shape_.num_k, shape_.num_x) : std::string(mriq_impl::policy::CPU_RULE.variant);
  }
  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<MriqInstance>(*this, *mriq_impl::variants_ladder().find(v.name));
  }

  MriqSpec spec() const { return {shape_.num_k, shape_.num_x}; }
  MriqCall host_call(float* qr, float* qi) const {
    return {spec(), {host_[0].data(), host_[1].data(), host_[2].data(), host_[3].data(), host_[4].data()},
            {host_[5].data(), host_[6].data(), host_[7].data()}, qr, qi, nullptr, nullptr};
  }
#if TESSERA_HAVE_CUDA
  MriqCall device_call(float* qr, float* qi, void* ws, stream_t s) const {
    return {spec(), {dev_[0].data(), dev_[1].data(), dev_[2].data(), dev_[3].data(), dev_[4].data()},
            {dev_[5].data(), dev_[6].data(), dev_[7].data()}, qr, qi, ws, s};
  }
#endif

  CheckResult compare(const float* qr, const float* qi) const {
    CheckResult r;
    for (std::size_t n = 0; n < shape_.num_x; ++n)
      if (!std::isfinite(qr[n]) || !std::isfinite(qi[n])) {
        r.ok = false;
        r.max_rel_err = std::numeric_limits<double>::infinity();
        r.detail = fmt::format("voxel {}: Q = ({}, {}) is not finite (an output left unwritten?)", n, qr[n], qi[n]);
        return r;
      }
    double err = 0;
    std::size_t worst = 0;
    for (std::size_t c = 0; c < checked_.size(); ++c) {
      const std::size_t n = checked_[c];
      const double e = std::max(std::abs(double(qr[n]) - ref_r_[c]), std::abs(double(qi[n]) - ref_i_[c]));
      if (e > err) err = e, worst = c;
    }
    // max|Q| = 0 (num_k = 0): the outputs must be exactly zero.
    const double rel = max_q_ > 0 ? err / max_q_ : err;
    r.max_rel_err = rel;
    r.ok = rel <= TOLERANCE;
    const std::string which = checked_.size() == shape_.num_x
                                  ? fmt::format("all {} voxels", shape_.num_x)
                                  : fmt::format("{} sampled voxels of {}, origin included", checked_.size(),
                                                shape_.num_x);
    r.note = fmt::format("max error {:.2e} of max|Q| = {:.4g} ({})", rel, max_q_, which);
    if (!r.ok && !checked_.empty())
      r.detail = fmt::format("voxel {}: Q = ({}, {}), double reference ({:.9g}, {:.9g}): error {:.3e} of max|Q| "
                             "{:.6g}, tolerance {:.0e}",
                             checked_[worst], qr[checked_[worst]], qi[checked_[worst]], ref_r_[worst], ref_i_[worst],
                             rel, max_q_, TOLERANCE);
    return r;
  }

 private:
  void generate(std::uint64_t seed) {
    std::mt19937_64 rng(seed ^ 0x6d72697155ull);
    const std::size_t K = shape_.num_k, X = shape_.num_x;
    for (int a = 0; a < 5; ++a) host_[a].resize(K);
    for (int a = 5; a < 8; ++a) host_[a].resize(X);
    const float kmax = shape_.side > 0 ? float(shape_.side) / 2 : 8.0f;
    std::uniform_real_distribution<float> kd(-kmax, kmax), phid(-1.0f, 1.0f), xd(-0.5f, 0.5f);
    for (std::size_t m = 0; m < K; ++m) {
      host_[0][m] = kd(rng);
      host_[1][m] = kd(rng);
      host_[2][m] = kd(rng);
      host_[3][m] = phid(rng);
      host_[4][m] = phid(rng);
    }
    const std::size_t s = shape_.side;
    for (std::size_t n = 0; n < X; ++n) {
      if (s > 0) {
        host_[5][n] = (float(n / (s * s)) - float(s / 2)) / float(s);
        host_[6][n] = (float(n / s % s) - float(s / 2)) / float(s);
        host_[7][n] = (float(n % s) - float(s / 2)) / float(s);
      } else {
        host_[5][n] = n == 0 ? 0.f : xd(rng);
        host_[6][n] = n == 0 ? 0.f : xd(rng);
        host_[7][n] = n == 0 ? 0.f : xd(rng);
      }
    }
  }

  // The origin's index (0 for random voxels), then a seeded sample or all.
  void reference(std::uint64_t seed) {
    const std::size_t X = shape_.num_x, want = checked_count(shape_);
    if (want == X) {
      checked_.resize(X);
      for (std::size_t n = 0; n < X; ++n) checked_[n] = n;
    } else {
      const std::size_t s = shape_.side;
      const std::size_t origin = s > 0 ? (s / 2) * s * s + (s / 2) * s + s / 2 : 0;
      std::mt19937_64 rng(seed ^ 0x636865636bull);
      std::uniform_int_distribution<std::size_t> pick(0, X - 1);
      checked_.push_back(origin);
      while (checked_.size() < want) checked_.push_back(pick(rng));
    }
    ref_r_.assign(checked_.size(), 0.0);
    ref_i_.assign(checked_.size(), 0.0);
    const MriqCall c = host_call(nullptr, nullptr);
    const auto count = static_cast<std::int64_t>(checked_.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (std::int64_t i = 0; i < count; ++i)
      mriq_impl::cpu::voxel_q(c.k, shape_.num_k, c.v, checked_[i], ref_r_[i], ref_i_[i]);
    for (std::size_t i = 0; i < checked_.size(); ++i) max_q_ = std::max(max_q_, std::hypot(ref_r_[i], ref_i_[i]));
  }

  Shape shape_;
  bool gpu_;
  ProblemDesc desc_;
  std::vector<float> host_[8];  // kx, ky, kz, phi_r, phi_i, x, y, z
  std::vector<std::size_t> checked_;
  std::vector<double> ref_r_, ref_i_;
  double max_q_ = 0;
#if TESSERA_HAVE_CUDA
  DeviceBuffer<float> dev_[8];
#endif
};

MriqInstance::MriqInstance(const MriqProblem& p, const MriqVariant& v) : BoundInstance(p, v) {
  const std::size_t X = std::max<std::size_t>(p.spec().num_x, 1);
  if (on_host()) {
    host_qr_.resize(X);
    host_qi_.resize(X);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_qr_ = DeviceBuffer<float>(X, "mriq q_r");
  dev_qi_ = DeviceBuffer<float>(X, "mriq q_i");
  workspace_ = DeviceBytes(std::max<std::size_t>(v.workspace_bytes(p.spec()), 16), "mriq workspace");
#endif
}

void MriqInstance::run(stream_t stream) {
  if (on_host()) {
    variant_.run(problem_.host_call(host_qr_.data(), host_qi_.data()));
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run(problem_.device_call(dev_qr_.data(), dev_qi_.data(), workspace_.data(), stream));
#else
  (void)stream;
#endif
}

CheckResult MriqInstance::check(stream_t stream) {
  const std::size_t X = problem_.spec().num_x;
  if (on_host()) {
    std::fill(host_qr_.begin(), host_qr_.end(), std::numeric_limits<float>::quiet_NaN());
    std::fill(host_qi_.begin(), host_qi_.end(), std::numeric_limits<float>::quiet_NaN());
    run(stream);
    return problem_.compare(host_qr_.data(), host_qi_.data());
  }
  std::vector<float> qr(X + 1), qi(X + 1);
#if TESSERA_HAVE_CUDA
  dev_qr_.fill_bytes(0xFF, stream);  // NaN: an output left unwritten fails the check
  dev_qi_.fill_bytes(0xFF, stream);
  run(stream);
  wait_for_run(stream);
  dev_qr_.download(qr.data(), X);
  dev_qi_.download(qi.data(), X);
#endif
  return problem_.compare(qr.data(), qi.data());
}

class MriqPattern final : public Pattern {
 public:
  std::string_view name() const override { return "mriq"; }
  std::string_view size_meaning() const override { return "voxel-grid side N (N^3 voxels, 2,048 k-space samples)"; }

  std::vector<VariantInfo> variants() const override { return mriq_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<ProblemFactory> out;
    if (!float_only(o)) return out;
    if (o.size) {
      out.push_back(factory(grid(*o.size, 2048), o.seed, o.gpu));
      return out;
    }
    const auto add = [&](const auto& shapes) {
      for (std::size_t i = 0; i < std::size(shapes); ++i) out.push_back(factory(shapes[i], o.seed + i, o.gpu));
    };
    if (o.quick) add(QUICK_SHAPES);
    else add(VERIFY_SHAPES);
    return out;
  }

  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    std::vector<ProblemFactory> out;
    if (!float_only(o)) return out;
    if (o.size) {
      out.push_back(factory(grid(*o.size, 2048), o.seed, o.gpu));
      return out;
    }
    if (o.gpu)
      for (const Shape& s : GPU_BENCH) out.push_back(factory(s, o.seed, o.gpu));
    else
      for (const Shape& s : CPU_BENCH) out.push_back(factory(s, o.seed, o.gpu));
    return out;
  }

 private:
  // Float inputs only; no operator or accumulator to filter.
  static bool float_only(const RunOptions& o) { return !(o.op || o.accum) && (!o.type || *o.type == Dtype::f32); }

  static ProblemFactory factory(const Shape& s, std::uint64_t seed, bool gpu) {
    const double in = 4.0 * (5.0 * double(s.num_k) + 3.0 * double(s.num_x));
    const double out = 8.0 * double(s.num_x);
    const double checked = double(checked_count(s));
    return {shape_label(s), [=] { return std::make_unique<MriqProblem>(s, seed, gpu); },
            {.host_bytes = in + 3 * out + 24 * checked,
             // packed samples (16 B each, whole chunks) and the slices' partial sums
             .device_bytes = gpu ? in + out + 16.0 * double(s.num_k) + 32768.0 + 8.0 * double(s.num_x) + 8388608.0 : 0,
             .host_flops = REFERENCE_FLOPS_PER_PAIR * checked * double(s.num_k)}};
  }
};

}  // namespace

std::unique_ptr<Pattern> make_mriq_pattern() { return std::make_unique<MriqPattern>(); }

}  // namespace tessera::harness
