// The CPU rungs of the MRI-Q ladder (ladder.cpp lists them) and the double
// evaluation of one voxel that both they and the harness's check use.
#pragma once

#include <cmath>
#include <cstddef>
#include <numbers>

#include "families/mriq/contract.hpp"

namespace tessera::mriq_impl::cpu {

// Q of voxel n in double: the float inputs widened (products of two floats
// are exact in double), sin and cos of the double argument, summed in
// double in sample order. The definition every variant is checked against.
inline void voxel_q(const KSpace& k, std::size_t num_k, const Voxels& v, std::size_t n, double& qr, double& qi) {
  const double x = v.x[n], y = v.y[n], z = v.z[n];
  double sr = 0, si = 0;
  for (std::size_t m = 0; m < num_k; ++m) {
    const double pr = k.phi_r[m], pi = k.phi_i[m];
    const double mag = pr * pr + pi * pi;
    const double arg = 2.0 * std::numbers::pi * (double(k.kx[m]) * x + double(k.ky[m]) * y + double(k.kz[m]) * z);
    sr += mag * std::cos(arg);
    si += mag * std::sin(arg);
  }
  qr = sr;
  qi = si;
}

// Step 0: serial, voxel after voxel, in double (rounded to float once).
void run_reference(const MriqCall& call);

// Step 1: the same double evaluation, OpenMP over voxels.
void run_openmp(const MriqCall& call);

}  // namespace tessera::mriq_impl::cpu
