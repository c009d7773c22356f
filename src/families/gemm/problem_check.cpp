#include "families/gemm/problem_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "harness/generate.hpp"
#include "harness/matrix.hpp"

namespace tessera::harness::gemm {

namespace {

using gemm_impl::Fill;
using gemm_impl::GemmOp;

constexpr double UNIT_ROUNDOFF = 0x1.0p-24;
constexpr double DOUBLE_UNIT_ROUNDOFF = 0x1.0p-53;

// Element (k, j) of the right operand: B, or A^T for A*A^T.
struct Right {
  const float* p;
  std::size_t ld;
  bool transposed;
  double operator()(std::size_t k, std::size_t j) const { return transposed ? p[j * ld + k] : p[k * ld + j]; }
};

Right right_of(const Inputs& in) {
  return in.spec.op == GemmOp::ab ? Right{in.b.data(), in.spec.ldb, false} : Right{in.a.data(), in.spec.lda, true};
}

// dot[j] = sum_k a_ik op(B)_kj and abs[j] = sum_k |a_ik| |op(B)_kj| for all j.
void row_dots(const Inputs& in, std::size_t i, double* dot, double* abs) {
  const auto& s = in.spec;
  const float* ai = in.a.data() + i * s.lda;
  std::fill(dot, dot + s.n, 0.0);
  std::fill(abs, abs + s.n, 0.0);
  if (s.op == GemmOp::ab) {
    for (std::size_t k = 0; k < s.k; ++k) {
      const double a = ai[k], aa = std::fabs(a);
      const float* bk = in.b.data() + k * s.ldb;
      for (std::size_t j = 0; j < s.n; ++j) {
        dot[j] += a * double(bk[j]);
        abs[j] += aa * std::fabs(double(bk[j]));
      }
    }
  } else {
    for (std::size_t j = 0; j < s.n; ++j) {
      const float* aj = in.a.data() + j * s.lda;
      double d = 0, t = 0;
      for (std::size_t k = 0; k < s.k; ++k) {
        d += double(ai[k]) * double(aj[k]);
        t += std::fabs(double(ai[k]) * double(aj[k]));
      }
      dot[j] = d;
      abs[j] = t;
    }
  }
}

// Column sums (and sums of magnitudes) of a rows x cols row-major matrix.
void column_sums(const float* x, std::size_t rows, std::size_t cols, std::size_t ld, std::vector<double>& sum,
                 std::vector<double>& abs) {
  sum.assign(cols, 0.0);
  abs.assign(cols, 0.0);
  const auto r = static_cast<std::int64_t>(rows);
#pragma omp parallel
  {
    std::vector<double> s(cols, 0.0), a(cols, 0.0);
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < r; ++i) {
      const float* row = x + std::size_t(i) * ld;
      for (std::size_t j = 0; j < cols; ++j) {
        s[j] += row[j];
        a[j] += std::fabs(double(row[j]));
      }
    }
#pragma omp critical
    for (std::size_t j = 0; j < cols; ++j) {
      sum[j] += s[j];
      abs[j] += a[j];
    }
  }
}

// The first failure (lowest row, then column) and how many there were.
struct Failures {
  std::uint64_t count = 0;
  std::size_t i = 0, j = 0;
  std::string detail;
  void add(std::size_t fi, std::size_t fj, std::string what) {
    if (count++ == 0 || fi < i || (fi == i && fj < j)) {
      i = fi;
      j = fj;
      detail = std::move(what);
    }
  }
  void merge(Failures&& o) {
    if (o.count == 0) return;
    const std::uint64_t total = count + o.count;
    if (count == 0 || o.i < i || (o.i == i && o.j < j)) {
      i = o.i;
      j = o.j;
      detail = std::move(o.detail);
    }
    count = total;
  }
};

// op(X) of a stored row-major matrix as a dense rows x cols row-major copy.
std::vector<float> untransposed(const std::vector<float>& stored, std::size_t rows, std::size_t cols, std::size_t ld) {
  std::vector<float> out(std::max<std::size_t>(1, rows * cols));
  for (std::size_t j = 0; j < cols; ++j)
    for (std::size_t i = 0; i < rows; ++i) out[i * cols + j] = stored[j * ld + i];
  return out;
}

// The inputs with op(A) and op(B) as plain row-major matrices (the check's
// arithmetic reads A as m x k and B as k x n).
Inputs plain_inputs(const Inputs& in) {
  Inputs p = in;
  auto& s = p.spec;
  if (s.ta) {
    p.a = untransposed(in.a, s.m, s.k, s.lda);
    s.lda = std::max<std::size_t>(1, s.k);
  }
  if (s.tb) {
    p.b = untransposed(in.b, s.k, s.n, s.ldb);
    s.ldb = std::max<std::size_t>(1, s.n);
  }
  s.ta = s.tb = false;
  return p;
}

}  // namespace

double gamma_k(std::uint64_t n) {
  const double nu = double(n) * UNIT_ROUNDOFF;
  return nu < 1 ? nu / (1 - nu) : std::numeric_limits<double>::infinity();
}

Expected::Expected(const Inputs& given, std::uint64_t sample_seed)
    : spec_(given.spec), alpha_(given.alpha), beta_(given.beta), gamma_(gamma_k(given.spec.k + 2)) {
  Inputs plain;
  if (given.spec.ta || given.spec.tb) plain = plain_inputs(given);
  const Inputs& in = given.spec.ta || given.spec.tb ? plain : given;
  spec_ = in.spec;
  const std::uint64_t macs = std::uint64_t(spec_.m) * spec_.n * spec_.k;
  full_ = macs <= FULL_REFERENCE_MACS;
  if (full_) {
    compute_full(in);
  } else {
    compute_sampled(in, sample_seed);
    compute_checksums(in);
  }
}

void Expected::compute_full(const Inputs& in) {
  const auto& s = spec_;
  ref_.assign(s.m * s.n, 0.0);
  scale_.assign(s.m * s.n, 0.0);
  const auto m = static_cast<std::int64_t>(s.m);
  const double alpha = alpha_, beta = beta_;
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t ii = 0; ii < m; ++ii) {
    const auto i = std::size_t(ii);
    double* r = ref_.data() + i * s.n;
    double* sc = scale_.data() + i * s.n;
    row_dots(in, i, r, sc);
    for (std::size_t j = 0; j < s.n; ++j) {
      r[j] *= alpha;
      sc[j] *= std::fabs(alpha);
      if (beta != 0) {
        const double c0 = in.c0[i * s.ldc + j];
        r[j] += beta * c0;
        sc[j] += std::fabs(beta * c0);
      }
    }
  }
}

void Expected::compute_sampled(const Inputs& in, std::uint64_t seed) {
  const auto& s = spec_;
  std::uint64_t draw = 0;
  auto pick = [&](std::size_t bound, int count, std::initializer_list<std::size_t> fixed) {
    std::set<std::size_t> out;
    for (std::size_t v : fixed)
      if (v < bound) out.insert(v);
    while (static_cast<int>(out.size()) < count && out.size() < bound) out.insert(mix64(seed, draw++) % bound);
    return std::vector<std::size_t>(out.begin(), out.end());
  };
  const auto rows = pick(s.m, SAMPLED_ROWS, {0, 1, s.m / 2, s.m - 2, s.m - 1});
  const auto cols = pick(s.n, SAMPLED_COLS, {0, 1, s.n / 2, s.n - 2, s.n - 1});
  const Right b = right_of(in);
  auto finish = [&](std::size_t i, std::size_t j, double dot, double abs) {
    Entry e{i, j, double(alpha_) * dot, std::fabs(double(alpha_)) * abs};
    if (beta_ != 0) {
      const double c0 = in.c0[i * s.ldc + j];
      e.ref += double(beta_) * c0;
      e.scale += std::fabs(double(beta_) * c0);
    }
    return e;
  };

  // Full rows.
  std::vector<std::vector<Entry>> per_row(rows.size());
#pragma omp parallel for schedule(dynamic)
  for (std::int64_t r = 0; r < static_cast<std::int64_t>(rows.size()); ++r) {
    std::vector<double> dot(s.n), abs(s.n);
    const std::size_t i = rows[std::size_t(r)];
    row_dots(in, i, dot.data(), abs.data());
    for (std::size_t j = 0; j < s.n; ++j) per_row[std::size_t(r)].push_back(finish(i, j, dot[j], abs[j]));
  }
  for (auto& v : per_row) samples_.insert(samples_.end(), v.begin(), v.end());

  // Full columns: the column of op(B) packed once, then one dot per row.
  std::vector<double> col(s.k);
  for (std::size_t j : cols) {
    for (std::size_t k = 0; k < s.k; ++k) col[k] = b(k, j);
    std::vector<Entry> out(s.m);
#pragma omp parallel for schedule(static)
    for (std::int64_t ii = 0; ii < static_cast<std::int64_t>(s.m); ++ii) {
      const float* ai = in.a.data() + std::size_t(ii) * s.lda;
      double d = 0, t = 0;
      for (std::size_t k = 0; k < s.k; ++k) {
        d += double(ai[k]) * col[k];
        t += std::fabs(double(ai[k]) * col[k]);
      }
      out[std::size_t(ii)] = finish(std::size_t(ii), j, d, t);
    }
    samples_.insert(samples_.end(), out.begin(), out.end());
  }

  // Random entries.
  std::vector<Entry> random(static_cast<std::size_t>(SAMPLED_ENTRIES));
  const std::uint64_t base = draw;
#pragma omp parallel for schedule(static)
  for (int e = 0; e < SAMPLED_ENTRIES; ++e) {
    const std::size_t i = mix64(seed, base + 2 * std::uint64_t(e)) % s.m;
    const std::size_t j = mix64(seed, base + 2 * std::uint64_t(e) + 1) % s.n;
    const float* ai = in.a.data() + i * s.lda;
    double d = 0, t = 0;
    for (std::size_t k = 0; k < s.k; ++k) {
      const double p = double(ai[k]) * b(k, j);
      d += p;
      t += std::fabs(p);
    }
    random[std::size_t(e)] = finish(i, j, d, t);
  }
  samples_.insert(samples_.end(), random.begin(), random.end());
}

void Expected::compute_checksums(const Inputs& in) {
  const auto& s = spec_;
  const Right b = right_of(in);
  const double alpha = alpha_, beta = beta_, aalpha = std::fabs(alpha_), abeta = std::fabs(beta_);

  // r = op(B) 1 (row sums of op(B)), q = 1^T A (column sums of A).
  std::vector<double> q, qa;
  column_sums(in.a.data(), s.m, s.k, s.lda, q, qa);
  std::vector<double> r(s.k, 0.0), ra(s.k, 0.0);
  if (s.op == GemmOp::ab) {
#pragma omp parallel for schedule(static)
    for (std::int64_t kk = 0; kk < static_cast<std::int64_t>(s.k); ++kk) {
      const float* bk = in.b.data() + std::size_t(kk) * s.ldb;
      double t = 0, ta = 0;
      for (std::size_t j = 0; j < s.n; ++j) {
        t += bk[j];
        ta += std::fabs(double(bk[j]));
      }
      r[std::size_t(kk)] = t;
      ra[std::size_t(kk)] = ta;
    }
  } else {
    r = q;  // op(B) = A^T: its row sums are A's column sums
    ra = qa;
  }
  std::vector<double> c0_col, c0_col_abs;
  if (beta != 0) column_sums(in.c0.data(), s.m, s.n, s.ldc, c0_col, c0_col_abs);

  row_ref_.assign(s.m, 0.0);
  row_scale_.assign(s.m, 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t ii = 0; ii < static_cast<std::int64_t>(s.m); ++ii) {
    const auto i = std::size_t(ii);
    const float* ai = in.a.data() + i * s.lda;
    double t = 0, ta = 0;
    for (std::size_t k = 0; k < s.k; ++k) {
      t += double(ai[k]) * r[k];
      ta += std::fabs(double(ai[k])) * ra[k];
    }
    row_ref_[i] = alpha * t;
    row_scale_[i] = aalpha * ta;
    if (beta != 0) {
      const float* c0 = in.c0.data() + i * s.ldc;
      double cs = 0, ca = 0;
      for (std::size_t j = 0; j < s.n; ++j) {
        cs += c0[j];
        ca += std::fabs(double(c0[j]));
      }
      row_ref_[i] += beta * cs;
      row_scale_[i] += abeta * ca;
    }
  }

  col_ref_.assign(s.n, 0.0);
  col_scale_.assign(s.n, 0.0);
  if (s.op == GemmOp::ab) {
    const auto n = static_cast<std::int64_t>(s.n);
    constexpr std::int64_t CHUNK = 256;  // columns per task: rows of B read in 1 KiB runs
#pragma omp parallel for schedule(dynamic)
    for (std::int64_t j0 = 0; j0 < n; j0 += CHUNK) {
      const std::int64_t j1 = std::min(n, j0 + CHUNK);
      for (std::size_t k = 0; k < s.k; ++k) {
        const float* bk = in.b.data() + k * s.ldb;
        for (std::int64_t j = j0; j < j1; ++j) {
          col_ref_[std::size_t(j)] += q[k] * double(bk[j]);
          col_scale_[std::size_t(j)] += qa[k] * std::fabs(double(bk[j]));
        }
      }
    }
  } else {
#pragma omp parallel for schedule(static)
    for (std::int64_t jj = 0; jj < static_cast<std::int64_t>(s.n); ++jj) {
      const auto j = std::size_t(jj);
      double t = 0, ta = 0;
      for (std::size_t k = 0; k < s.k; ++k) {
        t += q[k] * b(k, j);
        ta += qa[k] * std::fabs(b(k, j));
      }
      col_ref_[j] = t;
      col_scale_[j] = ta;
    }
  }
  for (std::size_t j = 0; j < s.n; ++j) {
    col_ref_[j] *= alpha;
    col_scale_[j] *= aalpha;
    if (beta != 0) {
      col_ref_[j] += beta * c0_col[j];
      col_scale_[j] += abeta * c0_col_abs[j];
    }
  }

  // A*A^T lower triangle: sum_{j <= i} C_ij = alpha A_i . P_i + beta sum_{j <= i} C0_ij,
  // P_i = sum_{j <= i} A_j (prefix sums of A's rows).
  if (s.op == GemmOp::aat) {
    lower_ref_.assign(s.m, 0.0);
    lower_scale_.assign(s.m, 0.0);
    std::vector<double> p(s.k, 0.0), pa(s.k, 0.0);
    for (std::size_t i = 0; i < s.m; ++i) {
      const float* ai = in.a.data() + i * s.lda;
      double t = 0, ta = 0;
      for (std::size_t k = 0; k < s.k; ++k) {
        p[k] += ai[k];
        pa[k] += std::fabs(double(ai[k]));
        t += double(ai[k]) * p[k];
        ta += std::fabs(double(ai[k])) * pa[k];
      }
      lower_ref_[i] = alpha * t;
      lower_scale_[i] = aalpha * ta;
      if (beta != 0) {
        const float* c0 = in.c0.data() + i * s.ldc;
        for (std::size_t j = 0; j <= i; ++j) {
          lower_ref_[i] += beta * double(c0[j]);
          lower_scale_[i] += abeta * std::fabs(double(c0[j]));
        }
      }
    }
  }
}

CheckResult Expected::compare(const float* got, Fill fill) const {
  const auto& s = spec_;
  const MatrixLayout layout_c{s.m, s.n, s.ldc};
  // Every element against the dense reference, padding untouched.
  if (full_ && fill == Fill::full)
    return check_matrix_close(got, layout_c, Dtype::f32, ref_.data(), {gamma_, 0.0, scale_.data()}, POISON_BYTE);

  CheckResult result;
  Failures fails;
  double max_rel = 0;
  const bool lower = fill == Fill::lower;
  const double gamma = gamma_;
  // A tolerance on a sum of n doubles of magnitude `mag`: the double
  // summation's own error.
  auto sum_slack = [](std::size_t n, double mag) { return double(n + 1) * DOUBLE_UNIT_ROUNDOFF * mag; };

#pragma omp parallel
  {
    Failures local;
    double local_max = 0;
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t ii = 0; ii < static_cast<std::int64_t>(s.m); ++ii) {
      const auto i = std::size_t(ii);
      const float* row = got + i * s.ldc;
      const std::size_t jmax = lower ? std::min(s.n, i + 1) : s.n;
      if (full_) {
        const double* r = ref_.data() + i * s.n;
        const double* sc = scale_.data() + i * s.n;
        for (std::size_t j = 0; j < jmax; ++j) {
          const double err = std::fabs(double(row[j]) - r[j]);
          const double tol = gamma * sc[j];
          if (!(err <= tol))
            local.add(i, j, fmt::format("C[{}][{}] = {:.9g}, expected {:.9g} (|diff| {:.3g} > tolerance {:.3g})", i, j,
                                        row[j], r[j], err, tol));
          local_max = std::max(local_max, sc[j] > 0 ? err / sc[j] : err);
        }
        continue;
      }
      double sum = 0, mag = 0;
      for (std::size_t j = 0; j < jmax; ++j) {
        if (!std::isfinite(row[j])) local.add(i, j, fmt::format("C[{}][{}] = {} (not written, or not finite)", i, j, row[j]));
        sum += row[j];
        mag += std::fabs(double(row[j]));
      }
      const double expect = lower ? lower_ref_[i] : row_ref_[i];
      const double tol = gamma * (lower ? lower_scale_[i] : row_scale_[i]) + sum_slack(jmax, mag);
      if (!(std::fabs(sum - expect) <= tol))
        local.add(i, 0, fmt::format("row {} sums to {:.9g}, expected {:.9g} (|diff| {:.3g} > tolerance {:.3g})", i,
                                    sum, expect, std::fabs(sum - expect), tol));
    }
#pragma omp critical
    {
      fails.merge(std::move(local));
      max_rel = std::max(max_rel, local_max);
    }
  }

  if (!full_) {
    if (!lower) {
      std::vector<double> sum(s.n, 0.0), mag(s.n, 0.0);
      const auto n = static_cast<std::int64_t>(s.n);
      constexpr std::int64_t CHUNK = 256;  // columns per task: 1 KiB of each row
#pragma omp parallel for schedule(dynamic)
      for (std::int64_t j0 = 0; j0 < n; j0 += CHUNK) {
        const std::int64_t j1 = std::min(n, j0 + CHUNK);
        for (std::size_t i = 0; i < s.m; ++i) {
          const float* row = got + i * s.ldc;
          for (std::int64_t j = j0; j < j1; ++j) {
            sum[std::size_t(j)] += row[j];
            mag[std::size_t(j)] += std::fabs(double(row[j]));
          }
        }
      }
      for (std::size_t j = 0; j < s.n; ++j) {
        const double tol = gamma * col_scale_[j] + sum_slack(s.m, mag[j]);
        if (!(std::fabs(sum[j] - col_ref_[j]) <= tol))
          fails.add(0, j, fmt::format("column {} sums to {:.9g}, expected {:.9g} (|diff| {:.3g} > tolerance {:.3g})",
                                      j, sum[j], col_ref_[j], std::fabs(sum[j] - col_ref_[j]), tol));
      }
    }
    for (const auto& e : samples_) {
      if (lower && e.j > e.i) continue;
      const float g = got[e.i * s.ldc + e.j];
      const double err = std::fabs(double(g) - e.ref);
      const double tol = gamma * e.scale;
      if (!(err <= tol))
        fails.add(e.i, e.j, fmt::format("C[{}][{}] = {:.9g}, expected {:.9g} (|diff| {:.3g} > tolerance {:.3g}; sampled)",
                                        e.i, e.j, g, e.ref, err, tol));
      max_rel = std::max(max_rel, e.scale > 0 ? err / e.scale : err);
    }
  }

  result.ok = fails.count == 0;
  result.max_rel_err = max_rel;
  if (!result.ok) {
    result.detail = fails.count == 1 ? fails.detail
                                     : fmt::format("{} (and {} more failures)", fails.detail, fails.count - 1);
    return result;
  }
  const CheckResult padding = check_matrix_padding(got, layout_c, sizeof(float), POISON_BYTE);
  return padding.ok ? result : padding;
}

}  // namespace tessera::harness::gemm
