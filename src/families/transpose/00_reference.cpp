// Transpose step 0: the serial CPU reference (seed 000 "Transpose": the
// definition out[j][i] = in[i][j]). The harness checks every variant against
// the definition directly (bit for bit), so this rung is checked too.
#include "families/transpose/cpu_rungs.hpp"

namespace tessera::transpose_impl::cpu {

void run_reference(const TransposeCall& call) {
  const TransposeSpec& s = call.spec;
  with_word(s.dtype, [&]<class W>() {
    const W* in = static_cast<const W*>(call.in);
    W* out = static_cast<W*>(call.out);
    for (std::size_t i = 0; i < s.rows; ++i)
      for (std::size_t j = 0; j < s.cols; ++j) out[j * s.ld_out + i] = in[i * s.ld_in + j];
  });
}

}  // namespace tessera::transpose_impl::cpu
