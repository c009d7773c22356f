// The FFT convolution both FFT rungs run (fft_pipeline.cu), for a blocking
// of the signal (fft_geometry.hpp). CUDA builds only.
#pragma once

#include <cstddef>

#include "families/convolution/contract.hpp"
#include "families/convolution/fft_geometry.hpp"

namespace tessera::convolution_impl::fft {

// Scratch of one call: segments, spectra, the mask's spectrum and cuFFT's
// work area (cuFFT allocates nothing itself: calls on different streams
// share the cached plans safely).
std::size_t workspace_bytes(const OverlapSave& os);
// Creates (once, cached) the plans of this blocking: outside graph captures.
void prepare(const OverlapSave& os);
// Enqueues the convolution on call.stream.
void run(const ConvCall& call, const OverlapSave& os);

}  // namespace tessera::convolution_impl::fft
