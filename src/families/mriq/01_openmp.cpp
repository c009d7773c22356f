// MRI-Q step 1: the reference's double evaluation, OpenMP over voxels (each
// voxel independent: no reduction across threads, the same bits as step 0).
// Dynamic chunks: the cost per voxel is the same, but the harness's host
// may share its cores with other work.
#include <cstdint>

#include "families/mriq/cpu_rungs.hpp"

namespace tessera::mriq_impl::cpu {

void run_openmp(const MriqCall& call) {
  const auto num_x = static_cast<std::int64_t>(call.spec.num_x);
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t n = 0; n < num_x; ++n) {
    double qr = 0, qi = 0;
    voxel_q(call.k, call.spec.num_k, call.v, static_cast<std::size_t>(n), qr, qi);
    call.q_r[n] = static_cast<float>(qr);
    call.q_i[n] = static_cast<float>(qi);
  }
}

}  // namespace tessera::mriq_impl::cpu
