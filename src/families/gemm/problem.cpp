// The GEMM pattern as the harness sees it: seeded inputs with marked padding,
// the expected answer (problem_check.hpp), poisoned outputs, the cost model and
// the verify / bench problem lists.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <limits>
#include <vector>

#include "harness/bound_instance.hpp"
#include "harness/generate.hpp"
#include "harness/matrix.hpp"
#include "families/gemm/problem_check.hpp"
#include "families/register_all.hpp"
#include "families/gemm/contract.hpp"
#include "families/gemm/policy.hpp"
#include "tessera/core/error.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

using gemm_impl::Fill;
using gemm_impl::GemmOp;
using gemm_impl::GemmSpec;
using gemm_impl::GemmVariant;

// One problem: the product, its shape, padding and scalars.
struct Case {
  GemmOp op;
  std::size_t m, n, k;
  std::size_t pad_a = 0, pad_b = 0, pad_c = 0;  // leading dimension = stored columns + pad
  float alpha = 1, beta = 0;
  Distribution dist = Distribution::uniform;
  bool ta = false, tb = false;  // op(A), op(B) = T: A stored k x m, B n x k

  // Leading dimensions are at least 1 (BLAS): an empty row still has one
  // padding element, which must stay untouched.
  GemmSpec spec() const {
    auto ld = [](std::size_t cols, std::size_t pad) { return std::max<std::size_t>(1, cols + pad); };
    return {op, m, n, k, ld(ta ? m : k, pad_a), op == GemmOp::ab ? ld(tb ? k : n, pad_b) : 0, ld(n, pad_c), ta, tb};
  }
};

Case ab(std::size_t m, std::size_t n, std::size_t k) { return {GemmOp::ab, m, n, k}; }
// op(A), op(B) from "NN", "TN", "NT", "TT".
Case ops(Case c, std::string_view which) {
  c.ta = which[0] == 'T';
  c.tb = which[1] == 'T';
  return c;
}
Case aat(std::size_t m, std::size_t k) { return {GemmOp::aat, m, m, k}; }
Case padded(Case c, std::size_t pa, std::size_t pb, std::size_t pc) {
  c.pad_a = pa;
  c.pad_b = pb;
  c.pad_c = pc;
  return c;
}
Case scaled(Case c, float alpha, float beta) {
  c.alpha = alpha;
  c.beta = beta;
  return c;
}
Case with(Case c, Distribution d) {
  c.dist = d;
  return c;
}

std::string case_label(const Case& c) {
  const GemmSpec s = c.spec();
  std::string label = c.op == GemmOp::ab ? fmt::format("ab m={} n={} k={}", s.m, s.n, s.k)
                                         : fmt::format("aat m={} k={}", s.m, s.k);
  if (s.ta || s.tb) label += fmt::format(" {}", gemm_impl::ops_name(s));
  if (c.pad_a || c.pad_b || c.pad_c)
    label += c.op == GemmOp::ab ? fmt::format(" ld={}/{}/{}", s.lda, s.ldb, s.ldc) : fmt::format(" ld={}/{}", s.lda, s.ldc);
  if (c.alpha != 1 || c.beta != 0) label += fmt::format(" alpha={} beta={}", c.alpha, c.beta);
  return label;
}

// The JSON's op: the product, with its transposes when there are any ("ab_tn").
std::string op_label(const GemmSpec& s) {
  std::string op(gemm_impl::to_string(s.op));
  if (s.ta || s.tb) {
    op += '_';
    op += s.ta ? 't' : 'n';
    op += s.tb ? 't' : 'n';
  }
  return op;
}

// Multiply-adds of the product (A*A^T: the full square, as a GEMM does them).
std::uint64_t macs_of(const GemmSpec& s) { return std::uint64_t(s.m) * s.n * s.k; }

// A rows x ld matrix of `dist` values, padding marked (harness/matrix.hpp).
std::vector<float> input_matrix(const MatrixLayout& layout, std::uint64_t seed, Distribution dist) {
  std::vector<float> x(std::max<std::size_t>(1, layout.rows * layout.ld));
  fill_matrix(x.data(), Dtype::f32, layout, seed, dist);
  return x;
}

class GemmProblem;

class GemmInstance final : public BoundInstance<GemmProblem, GemmVariant> {
 public:
  GemmInstance(const GemmProblem& p, const GemmVariant& v);
  void run(stream_t stream) override;
  CheckResult check(stream_t stream) override;

 private:
  std::vector<float> host_c_;
  std::vector<unsigned char> host_ws_;
#if TESSERA_HAVE_CUDA
  DeviceBuffer<float> dev_c_;
  DeviceBytes dev_ws_;
#endif
};

class GemmProblem final : public Problem {
 public:
  GemmProblem(const Case& c, std::uint64_t seed, bool gpu) : case_(c), gpu_(gpu) {
    const GemmSpec s = c.spec();
    in_.spec = s;
    in_.alpha = c.alpha;
    in_.beta = c.beta;
    in_.a = input_matrix(gemm::stored_a(s), seed, c.dist);
    if (s.op == GemmOp::ab) in_.b = input_matrix(gemm::stored_b(s), seed + 1, c.dist);
    else in_.b.assign(1, 0.0f);
    if (c.beta != 0) {  // C0's padding: the poison the check expects to find there
      in_.c0 = input_matrix(in_.layout_c(), seed + 2, Distribution::uniform);
      for (std::size_t i = 0; i < s.m; ++i)
        std::memset(in_.c0.data() + i * s.ldc + s.n, gemm::POISON_BYTE, (s.ldc - s.n) * sizeof(float));
    }
    desc_ = {"gemm", case_label(c), "float", op_label(s), "", std::string(to_string(c.dist)),
             {s.m, s.n, s.k}};
    expected_ = std::make_unique<gemm::Expected>(in_, seed ^ 0x5EED5EEDull);
#if TESSERA_HAVE_CUDA
    if (gpu_) {
      dev_a_ = DeviceBuffer<float>(in_.a.size(), "gemm A");
      dev_a_.upload(in_.a.data(), in_.a.size());
      dev_b_ = DeviceBuffer<float>(in_.b.size(), "gemm B");
      dev_b_.upload(in_.b.data(), in_.b.size());
    }
#endif
  }

  const ProblemDesc& desc() const override { return desc_; }

  Cost cost() const override {
    const GemmSpec& s = in_.spec;
    const double c_bytes = 4.0 * double(s.m) * double(s.n) * (in_.beta != 0 ? 2 : 1);
    if (s.op == GemmOp::ab)
      return {4.0 * (double(s.m) * s.k + double(s.k) * s.n) + c_bytes, 2.0 * double(s.m) * s.n * s.k, Bound::compute};
    // A*A^T: one triangle (diagonal included) is the arithmetic that must be
    // done, as SYRK counts it: m (m + 1) k flops.
    return {4.0 * double(s.m) * s.k + c_bytes, double(s.m) * double(s.m + 1) * s.k, Bound::compute};
  }

  bool supports(const VariantInfo& v) const override {
    const GemmVariant* gv = gemm_impl::variants_ladder().find(v.name);
    if (gv == nullptr || (v.backend == Backend::cuda && !gpu_) || !gv->supports(in_.spec)) return false;
    return gv->harness_max_macs == 0 || macs_of(in_.spec) <= gv->harness_max_macs;
  }

  std::string why_unsupported(const VariantInfo& v) const override {
    const GemmVariant* gv = gemm_impl::variants_ladder().find(v.name);
    if (gv != nullptr && gv->harness_max_macs != 0 && macs_of(in_.spec) > gv->harness_max_macs)
      return fmt::format("{} stops at {:.3g} multiply-adds (past them it runs for minutes), the problem has {:.3g}",
                         v.name, double(gv->harness_max_macs), double(macs_of(in_.spec)));
    return Problem::why_unsupported(v);
  }

  // The API's pick on a GPU; without one, the CPU-only build's pick.
  std::string api_pick(bool gpu) const override { return std::string(gemm_impl::policy::default_variant(case_.op, gpu)); }

  std::unique_ptr<Instance> bind(const VariantInfo& v) override {
    return std::make_unique<GemmInstance>(*this, *gemm_impl::variants_ladder().find(v.name));
  }

  const gemm::Inputs& inputs() const { return in_; }
  const gemm::Expected& expected() const { return *expected_; }
  std::size_t c_elements() const { return std::max<std::size_t>(1, in_.spec.m * in_.spec.ldc); }
#if TESSERA_HAVE_CUDA
  const float* dev_a() const { return dev_a_.data(); }
  const float* dev_b() const { return dev_b_.data(); }
#endif

 private:
  Case case_;
  bool gpu_;
  gemm::Inputs in_;
  ProblemDesc desc_;
  std::unique_ptr<gemm::Expected> expected_;
#if TESSERA_HAVE_CUDA
  DeviceBuffer<float> dev_a_, dev_b_;
#endif
};

GemmInstance::GemmInstance(const GemmProblem& p, const GemmVariant& v) : BoundInstance(p, v) {
  const std::size_t ws = v.workspace_bytes(p.inputs().spec);
  if (on_host()) {
    host_c_.resize(p.c_elements());
    host_ws_.resize(ws);
    return;
  }
#if TESSERA_HAVE_CUDA
  dev_c_ = DeviceBuffer<float>(p.c_elements(), "gemm C");
  dev_ws_ = DeviceBytes(ws, "gemm workspace");
#endif
}

void GemmInstance::run(stream_t stream) {
  const auto& in = problem_.inputs();
  if (on_host()) {
    variant_.run({in.spec, in.alpha, in.beta, in.a.data(), in.spec.op == GemmOp::ab ? in.b.data() : nullptr,
                  host_c_.data(), host_ws_.data(), nullptr});
    return;
  }
#if TESSERA_HAVE_CUDA
  variant_.run({in.spec, in.alpha, in.beta, problem_.dev_a(), in.spec.op == GemmOp::ab ? problem_.dev_b() : nullptr,
                dev_c_.data(), dev_ws_.data(), stream});
#else
  (void)stream;
#endif
}

// C starts as C0 (beta != 0) or all poison (beta == 0: a variant must not
// read it, and every element it fails to write stays NaN); the padding
// columns hold the poison bits either way.
CheckResult GemmInstance::check(stream_t stream) {
  const auto& in = problem_.inputs();
  const std::size_t count = problem_.c_elements();
  std::vector<float> got;
  if (on_host()) {
    if (in.beta != 0) std::copy(in.c0.begin(), in.c0.end(), host_c_.begin());
    else std::memset(host_c_.data(), gemm::POISON_BYTE, count * sizeof(float));
    run(stream);
    return problem_.expected().compare(host_c_.data(), variant_.fill);
  }
#if TESSERA_HAVE_CUDA
  if (in.beta != 0) dev_c_.upload(in.c0.data(), in.c0.size());
  else TESSERA_CUDA(cudaMemsetAsync(dev_c_.data(), gemm::POISON_BYTE, count * sizeof(float), stream));
  run(stream);
  wait_for_run(stream);
  got.resize(count);
  dev_c_.download(got.data(), count);
#endif
  return problem_.expected().compare(got.data(), variant_.fill);
}

// ---- problem lists ----------------------------------------------------------

// What a problem takes, in double (a side of 10^6 overflows 64-bit products).
// Host: A, B, C0, a CPU rung's C, the checked copy and, up to
// FULL_REFERENCE_MACS, the double reference and its scale per element;
// device: A, B and C. The reference's arithmetic: every dot product, or past
// the limit the sampled rows, columns and entries plus the checksums.
Needs needs_of(const Case& c, bool gpu) {
  const GemmSpec s = c.spec();
  const double m = double(s.m), n = double(s.n), k = double(s.k);
  const double a = double(s.ta ? s.k : s.m) * double(s.lda);
  const double b = s.op == GemmOp::ab ? double(s.tb ? s.n : s.k) * double(s.ldb) : 0, cm = m * double(s.ldc);
  const double macs = m * n * k;
  // A transposed operand is copied untransposed for the reference (problem_check.cpp).
  const double plain = (s.ta ? m * k : 0) + (s.tb ? k * n : 0);
  const bool full = macs <= double(gemm::FULL_REFERENCE_MACS);
  const double sampled = (gemm::SAMPLED_ROWS * n + gemm::SAMPLED_COLS * m + gemm::SAMPLED_ENTRIES) * k + 2 * (a + b);
  return {.host_bytes = 4 * (a + b + 3 * cm + plain) + (full ? 16 * m * n : 0),
          .device_bytes = gpu ? 4 * (a + b + cm) : 0,
          .host_flops = 2 * (full ? macs : sampled)};
}

// Verify: degenerate shapes, primes, tile multiples and tile +- 1 for every
// tile size of the ladder (16, 32, 64, 128, 256), vectors, padded and
// misaligned leading dimensions (odd ld: no 16-byte row alignment), alpha /
// beta, and one problem past FULL_REFERENCE_MACS (sampled check).
std::vector<Case> gpu_verify_cases() {
  return {
      ab(1, 1, 1), ab(1, 1, 7), scaled(ab(5, 3, 0), 1, 0.5f), ab(0, 7, 5), ab(7, 0, 5), ab(2, 3, 5),
      ab(17, 19, 23), scaled(ab(31, 33, 65), 0.75f, -0.5f), ab(64, 64, 64), ab(127, 129, 257),
      with(ab(128, 128, 128), Distribution::small), ab(129, 127, 8), scaled(ab(255, 257, 33), -1.25f, 1),
      scaled(ab(256, 256, 256), 0.75f, -0.5f), ab(1, 1000, 1000), ab(1000, 1, 1000), ab(1000, 1000, 1),
      padded(ab(333, 555, 777), 1, 3, 5), padded(scaled(ab(500, 300, 200), 2, 0.25f), 4, 4, 4),
      ab(257, 520, 1031), ab(1000, 3000, 777), with(ab(384, 640, 96), Distribution::constant),
      ab(2047, 2049, 1025),  // sampled check
      // op(A), op(B) = T (read in place): every combination, ragged, padded
      // and odd leading dimensions (4-byte copies of the transposed rows).
      ops(ab(1, 1, 1), "TT"), ops(scaled(ab(5, 3, 0), 1, 0.5f), "NT"), ops(ab(17, 19, 23), "TN"),
      ops(ab(33, 17, 65), "TT"), ops(padded(ab(333, 555, 777), 1, 3, 5), "TN"),
      ops(padded(ab(333, 555, 777), 1, 3, 5), "NT"), ops(padded(ab(333, 555, 777), 1, 3, 5), "TT"),
      ops(padded(scaled(ab(500, 300, 200), 2, 0.25f), 4, 4, 4), "TT"), ops(ab(257, 520, 1031), "NT"),
      ops(ab(1000, 3000, 777), "TN"), ops(ab(2047, 2049, 1025), "NT"),  // the last: sampled
      // Middling sizes, where warp_tiled splits k (policy.hpp's SHAPE_RULES).
      ab(512, 512, 512), ops(ab(768, 768, 768), "TN"), scaled(ab(1024, 1024, 1024), 0.5f, -1),
      ops(padded(ab(1000, 1000, 1000), 3, 1, 0), "NT"),
      aat(1, 1), aat(1, 9), scaled(aat(5, 0), 1, 0.5f), aat(17, 23), scaled(aat(33, 64), 0.75f, -0.5f),
      aat(127, 129), aat(128, 128), scaled(aat(129, 300), -1.25f, 1), padded(aat(300, 1000), 1, 0, 3),
      padded(aat(260, 96), 4, 0, 4), aat(1000, 777), aat(2049, 1025),  // the last: sampled
  };
}

// --quick (the sanitizers run these for every variant): small, still ragged.
std::vector<Case> quick_cases() {
  return {ab(1, 1, 1),
          ab(17, 19, 23),
          ab(64, 64, 64),
          scaled(ab(129, 127, 8), 0.75f, -0.5f),
          padded(ab(131, 257, 67), 1, 3, 5),
          ab(200, 300, 100),
          ops(padded(ab(131, 257, 67), 1, 3, 5), "TN"),
          ops(scaled(ab(129, 127, 8), 0.75f, -0.5f), "NT"),
          ops(ab(200, 300, 100), "TT"),
          scaled(ab(200, 130, 600), 0.5f, 1),  // warp_tiled splits k here (policy.hpp's first rule)
          ops(ab(200, 130, 600), "TN"),
          aat(33, 17),
          scaled(padded(aat(129, 70), 1, 0, 3), 0.75f, -0.5f)};
}

// No GPU: the CPU rungs at sizes a 2-core machine checks in seconds.
std::vector<Case> cpu_verify_cases() {
  auto v = quick_cases();
  for (const Case& c : {scaled(ab(0, 5, 3), 1, 0), scaled(ab(5, 3, 0), 1, 0.5f), padded(ab(300, 200, 150), 4, 4, 4),
                        ops(padded(ab(300, 200, 150), 1, 2, 3), "TT"), aat(250, 130)})
    v.push_back(c);
  return v;
}

// --input FILE: one shape a line, "M N K" and optionally the ops ("TN"; NN
// by default), '#' starts a comment (lab/gemm/size_grid.txt: the middling-
// size sweep that fills policy.hpp's SHAPE_RULES).
bool parse_side(const std::string& word, std::size_t& out) {
  if (word.empty() || word.find_first_not_of("0123456789") != std::string::npos || word.size() > 12) return false;
  out = std::stoull(word);
  return true;
}

std::vector<Case> shape_file(const std::string& path) {
  std::ifstream in(path);
  require(bool(in), fmt::format("gemm: cannot open the shape file '{}'", path));
  std::vector<Case> cases;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string w; fields >> w;) words.push_back(w);
    if (words.empty()) continue;  // blank or comment
    std::size_t m = 0, n = 0, k = 0;
    const std::string which = words.size() == 4 ? words[3] : "NN";
    const bool ok = (words.size() == 3 || words.size() == 4) && parse_side(words[0], m) && parse_side(words[1], n) &&
                    parse_side(words[2], k) && (which == "NN" || which == "TN" || which == "NT" || which == "TT");
    require(ok, fmt::format("gemm: {} line {}: '{}' is not 'M N K [NN|TN|NT|TT]'", path, number, line));
    cases.push_back(ops(ab(m, n, k), which));
  }
  require(!cases.empty(), fmt::format("gemm: the shape file '{}' holds no shape ('M N K [ops]' lines)", path));
  return cases;
}

// --large: C past 2^31 elements (64-bit indexing in every kernel), k small.
std::vector<Case> large_cases() { return {ab(50000, 43000, 4), aat(46341, 4)}; }

class GemmPattern final : public Pattern {
 public:
  std::string_view name() const override { return "gemm"; }
  std::string_view size_meaning() const override { return "matrix side (M = N = K)"; }

  std::vector<VariantInfo> variants() const override { return gemm_impl::variants_ladder().infos(); }

  std::vector<ProblemFactory> verify_problems(const RunOptions& o) const override {
    std::vector<Case> cases;
    if (!o.input.empty()) cases = shape_file(o.input);
    else if (o.size) cases = {ab(*o.size, *o.size, *o.size), aat(*o.size, *o.size)};
    else if (o.quick) cases = quick_cases();
    else cases = o.gpu ? gpu_verify_cases() : cpu_verify_cases();
    if (o.large && o.gpu)
      for (const Case& c : large_cases()) cases.push_back(c);
    return factories(cases, o);
  }

  // GPU: the headline 4096^3 (cuBLAS reference point), its TN and NT forms
  // (the vendor runs the same ops), 8192^3, the odd 1000 x 3000 x 777 (NN
  // and TN) and A*A^T at 4096 x 4096. CPU: the same shapes, small. --input
  // FILE: the shapes of FILE (shape_file).
  std::vector<ProblemFactory> bench_problems(const RunOptions& o) const override {
    std::vector<Case> cases;
    if (!o.input.empty()) cases = shape_file(o.input);
    else if (o.size) cases = {ab(*o.size, *o.size, *o.size), aat(*o.size, *o.size)};
    else if (o.gpu)
      cases = {ab(4096, 4096, 4096), ops(ab(4096, 4096, 4096), "TN"), ops(ab(4096, 4096, 4096), "NT"),
               ab(8192, 8192, 8192), ab(1000, 3000, 777), ops(ab(1000, 3000, 777), "TN"), aat(4096, 4096)};
    else cases = {ab(512, 512, 512), ab(1024, 1024, 1024), ops(ab(1024, 1024, 1024), "TN"), ab(300, 500, 277),
                  aat(1024, 1024)};
    if (o.headline && !o.size) cases.resize(1);
    return factories(cases, o);
  }

 private:
  static std::vector<ProblemFactory> factories(const std::vector<Case>& cases, const RunOptions& o) {
    std::vector<ProblemFactory> out;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case c = cases[i];
      const std::uint64_t seed = o.seed + i;
      const bool gpu = o.gpu;
      out.push_back({case_label(c), [c, seed, gpu] { return std::make_unique<GemmProblem>(c, seed, gpu); },
                     needs_of(c, gpu)});
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Pattern> make_gemm_pattern() { return std::make_unique<GemmPattern>(); }

}  // namespace tessera::harness
