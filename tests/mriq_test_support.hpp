// MRI-Q test inputs and their double evaluation, shared by the CPU and GPU
// tests: random k-space samples and voxels (voxel 0 at the origin, where
// |Q| is largest), and the check relative to max|Q|.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

namespace mriq_test {

struct Inputs {
  std::vector<float> kx, ky, kz, phi_r, phi_i, x, y, z;
  std::size_t num_k() const { return kx.size(); }
  std::size_t num_x() const { return x.size(); }
};

// k uniform in [-kmax, kmax), phi in [-1, 1) (never all zero), voxels in
// [-0.5, 0.5)^3 with voxel 0 at the origin.
inline Inputs random_inputs(std::size_t num_k, std::size_t num_x, std::uint64_t seed, float kmax = 8.0f) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> kd(-kmax, kmax), pd(-1.0f, 1.0f), xd(-0.5f, 0.5f);
  Inputs in;
  for (std::size_t m = 0; m < num_k; ++m) {
    in.kx.push_back(kd(rng));
    in.ky.push_back(kd(rng));
    in.kz.push_back(kd(rng));
    in.phi_r.push_back(pd(rng));
    in.phi_i.push_back(pd(rng));
  }
  for (std::size_t n = 0; n < num_x; ++n) {
    in.x.push_back(n == 0 ? 0.f : xd(rng));
    in.y.push_back(n == 0 ? 0.f : xd(rng));
    in.z.push_back(n == 0 ? 0.f : xd(rng));
  }
  return in;
}

// Q in double, written independently of the library: the definition.
inline void reference(const Inputs& in, std::vector<double>& qr, std::vector<double>& qi) {
  qr.assign(in.num_x(), 0.0);
  qi.assign(in.num_x(), 0.0);
  for (std::size_t n = 0; n < in.num_x(); ++n)
    for (std::size_t m = 0; m < in.num_k(); ++m) {
      const double mag = double(in.phi_r[m]) * in.phi_r[m] + double(in.phi_i[m]) * in.phi_i[m];
      const double arg = 2 * std::numbers::pi *
                         (double(in.kx[m]) * in.x[n] + double(in.ky[m]) * in.y[n] + double(in.kz[m]) * in.z[n]);
      qr[n] += mag * std::cos(arg);
      qi[n] += mag * std::sin(arg);
    }
}

// max over voxels of |got - ref| / max|Q_ref| (absolute when Q_ref = 0).
inline double relative_error(const std::vector<float>& gr, const std::vector<float>& gi,
                             const std::vector<double>& rr, const std::vector<double>& ri) {
  double max_q = 0, err = 0;
  for (std::size_t n = 0; n < rr.size(); ++n) {
    max_q = std::max(max_q, std::hypot(rr[n], ri[n]));
    const double e = std::max(std::abs(gr[n] - rr[n]), std::abs(gi[n] - ri[n]));
    err = std::isnan(e) ? INFINITY : std::max(err, e);
  }
  return max_q > 0 ? err / max_q : err;
}

}  // namespace mriq_test
