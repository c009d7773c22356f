// Step 8 — tessera's FFT path for long 1D masks: overlap-save through cuFFT
// (tessera; users of the common frameworks report conv1d with a 1,024-tap
// mask 20x slower than an FFT). Blocks sized from the mask
// (fft_geometry.hpp: nfft >= 8 (mask_w - 1), at least 7/8 of each transform
// is output), one batched R2C / multiply / C2R (fft_pipeline.cu).
//
// Bottleneck: memory passes (gather, forward transform, multiply, inverse,
// scatter: ~6-10 reads and writes of the signal with the 8/7 overlap)
// instead of 2 mask_w flops per sample. Expected for 1,025 taps over 2^26
// samples: ~1-2 ms against >= 2.6 ms for the direct form even at the full
// FP32 rate; for short masks far slower than direct (the policy's
// crossover).
#include "families/convolution/cuda_rungs.hpp"
#include "families/convolution/fft_pipeline.hpp"

namespace tessera::convolution_impl {

bool supports_fft_overlap_save(const ConvSpec& s) { return s.one_d(); }
std::size_t ws_fft_overlap_save(const ConvSpec& s) { return fft::workspace_bytes(overlap_save_of(s)); }
void prepare_fft_overlap_save(const ConvSpec& s) { fft::prepare(overlap_save_of(s)); }
void run_fft_overlap_save(const ConvCall& call) { fft::run(call, overlap_save_of(call.spec)); }

}  // namespace tessera::convolution_impl
