// MRI-Q step 0: the serial CPU reference (seed 000 "MRI", Core Computation
// in C), written output-oriented — voxel outer, sample inner — so each Q is
// one double sum; the seed's sample-outer loop order is the CUDA scatter
// rung (02). Double throughout, rounded to float once.
#include "families/mriq/cpu_rungs.hpp"

namespace tessera::mriq_impl::cpu {

void run_reference(const MriqCall& call) {
  for (std::size_t n = 0; n < call.spec.num_x; ++n) {
    double qr = 0, qi = 0;
    voxel_q(call.k, call.spec.num_k, call.v, n, qr, qi);
    call.q_r[n] = static_cast<float>(qr);
    call.q_i[n] = static_cast<float>(qi);
  }
}

}  // namespace tessera::mriq_impl::cpu
