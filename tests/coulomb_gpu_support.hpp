// Shared by the coulomb GPU tests (tests/ and lab/tests/): one variant run
// on device copies of a system, its output poisoned first.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "coulomb_test_support.hpp"
#include "families/coulomb/contract.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"

namespace coulomb_test {

inline std::vector<float> run_on_device(const tessera::coulomb_impl::CoulombVariant& v, const std::vector<Atom>& atoms, const Lattice& L,
                                 cudaStream_t stream) {
  tessera::DeviceBuffer<Atom> d_atoms(std::max<std::size_t>(atoms.size(), 1), "atoms");
  if (!atoms.empty()) d_atoms.upload(atoms.data(), atoms.size());
  tessera::DeviceBuffer<float> d_out(L.points(), "potential");
  d_out.fill_bytes(0xFF, stream);  // NaN: a point not written fails
  v.run({{atoms.size(), L}, d_atoms.data(), d_out.data(), stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  std::vector<float> got(L.points());
  d_out.download(got.data(), got.size());
  return got;
}

}  // namespace coulomb_test
