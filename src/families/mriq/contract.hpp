// The MRI-Q pattern's internal contract: what one call carries and what one
// registered variant provides. Q(x_n) = sum_m |phi(k_m)|^2 exp(i 2 pi k_m . x_n)
// for every voxel n: Qr = sum phiMag cos(arg), Qi = sum phiMag sin(arg),
// arg = 2 pi (kx x + ky y + kz z). The public API and the harness only go
// through this table.
#pragma once

#include <cstddef>

#include "ladder/ladder.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::mriq_impl {

struct MriqSpec {
  std::size_t num_k;  // k-space samples
  std::size_t num_x;  // voxels
  double pairs() const { return double(num_k) * double(num_x); }
};

// The k-space samples: coordinates (cycles per unit length) and phi.
struct KSpace {
  const float *kx, *ky, *kz, *phi_r, *phi_i;
};

// The voxel positions (unit length).
struct Voxels {
  const float *x, *y, *z;
};

// One call. Pointers are device pointers for CUDA variants and host pointers
// for CPU variants; outputs overlap neither each other nor the inputs. A
// CUDA run only enqueues work on `stream` (no allocation, no host
// synchronisation: graph-capturable); `workspace` holds at least the
// variant's workspace_bytes(spec). Every variant writes all num_x outputs,
// zeros when num_k = 0.
struct MriqCall {
  MriqSpec spec;
  KSpace k;
  Voxels v;
  float* q_r;
  float* q_i;
  void* workspace;
  stream_t stream;
};

struct MriqVariant {
  VariantInfo info;
  bool (*supports)(const MriqSpec&);
  std::size_t (*workspace_bytes)(const MriqSpec&);
  void (*run)(const MriqCall&);
};

// The ladder: ladder.cpp's table in ladder order; lookup by name: find(), or
// at() for the "no variant named" error.
ladder::Ladder<MriqVariant>& variants_ladder();

}  // namespace tessera::mriq_impl
