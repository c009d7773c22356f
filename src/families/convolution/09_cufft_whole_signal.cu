// Step 9 — the vendor baseline for long 1D masks: cuFFT over the whole
// signal at once (one R2C of the zero-padded signal, one of the mask,
// multiply, one C2R), the way a framework's FFT convolution does it; no
// vendor library offers a direct 1D or 2D float convolution with a
// user mask outside cuDNN's tensor layouts (the ConvNet family's baseline).
//
// Bottleneck: one transform of next_pow2(n + mask_w - 1) points: up to 2x
// padding, and transforms that large run in several passes over memory.
#include "families/convolution/cuda_rungs.hpp"
#include "families/convolution/fft_pipeline.hpp"

namespace tessera::convolution_impl {

// One transform of at most 2^30 points (4 GiB of segments).
bool supports_cufft_whole_signal(const ConvSpec& s) {
  return s.one_d() && whole_signal_of(s).nfft <= (std::size_t(1) << 30);
}
std::size_t ws_cufft_whole_signal(const ConvSpec& s) { return fft::workspace_bytes(whole_signal_of(s)); }
void prepare_cufft_whole_signal(const ConvSpec& s) { fft::prepare(whole_signal_of(s)); }
void run_cufft_whole_signal(const ConvCall& call) { fft::run(call, whole_signal_of(call.spec)); }

}  // namespace tessera::convolution_impl
