// The two convolution ladders, one line per variant: the only place a
// variant's name, step, role and `adds` are written. conv1d and conv2d share
// the rungs (1D is one row with a one-row mask) and list the ones that fit
// them: the separable path only in 2D, the FFT rungs only in 1D.
#include <span>

#include "families/convolution/contract.hpp"
#include "families/convolution/cpu_rungs.hpp"
#include "families/convolution/tiles.hpp"
#include "ladder/ladder.hpp"
#if TESSERA_HAVE_CUDA
#include "families/convolution/cuda_rungs.hpp"
#endif

namespace tessera::convolution_impl {

namespace {

using namespace ladder::roles;

bool any_spec(const ConvSpec&) { return true; }
std::size_t no_workspace(const ConvSpec&) { return 0; }
// The constant-memory mask's limit (rungs 3 and 6).
[[maybe_unused]] bool fits_constant(const ConvSpec& s) { return s.taps() <= tiles::CONST_TAPS; }

#define TESSERA_CPU(name) any_spec, no_workspace, nullptr, cpu::run_##name
#define TESSERA_RUNG(name) any_spec, no_workspace, nullptr, run_##name
#define TESSERA_RUNG_S(name) supports_##name, no_workspace, nullptr, run_##name
#define TESSERA_RUNG_FFT(name) supports_##name, ws_##name, prepare_##name, run_##name

// P: the pattern's name; the rows are the same for both patterns but for
// the ones that fit only one of them.
#define TESSERA_COMMON_ROWS(P)                                                                                        \
  {{P, "cpu_reference", 0, CPU, REFERENCE, "serial: each output the mask's dot product with its window, ghosts zero, accumulated in double (seed 000 Conv: the definition)", true}, TESSERA_CPU(reference)}, \
  {{P, "cpu_openmp", 1, CPU, REFERENCE, "OpenMP over rows (1D: 4,096-sample chunks), float accumulation, window clipped once per output instead of a test per tap", true}, TESSERA_CPU(openmp)}

#if TESSERA_HAVE_CUDA
#define TESSERA_GPU_ROWS(P)                                                                                           \
  {{P, "basic", 2, CUDA, TAUGHT, "one thread per output, mask and input read from global memory per tap, ghost test per tap (seed 000 Conv: Simple 1D/2D Conv)", true}, TESSERA_RUNG(basic)}, \
  {{P, "constant_mask", 3, CUDA, TAUGHT, "mask in __constant__ memory: one broadcast per warp, an FMA operand without a load (seed 000 Conv: Constant Memory for Filter)", true}, TESSERA_RUNG_S(constant_mask)}, \
  {{P, "tiled_output_blocks", 4, CUDA, TAUGHT, "strategy 1: output-sized blocks, the input tile and its halo loaded into shared memory in extra steps, compute without bounds tests (seed 000 Conv: Strategy 1)", true}, TESSERA_RUNG_S(tiled_output_blocks)}, \
  {{P, "tiled_input_blocks", 5, CUDA, TAUGHT, "strategy 2: input-sized blocks, one load per thread, only the threads with a whole window compute, the rest idle (seed 000 Conv: Strategy 2)", true}, TESSERA_RUNG_S(tiled_input_blocks)}, \
  {{P, "tiled_interior_l2", 6, CUDA, TAUGHT, "strategy 3: only the tile's interior in shared memory, halo taps read through L2 where the neighbour block left them (seed 000 Conv: Strategy 3)", true}, fits_constant, no_workspace, nullptr, run_tiled_interior_l2}, \
  {{P, "register_blocked", 7, CUDA, PRODUCT, "tessera: 8 outputs per thread (1D: 16, stored through shared memory), each shared value loaded once into registers for every output it feeds; tile copied with cp.async; 3/5/7/9 square masks unrolled with taps as kernel parameters", true}, TESSERA_RUNG_S(register_blocked)}
#endif

const ConvVariant TABLE_2D[] = {
    TESSERA_COMMON_ROWS("conv2d"),
#if TESSERA_HAVE_CUDA
    TESSERA_GPU_ROWS("conv2d"),
    {{"conv2d", "register_blocked_wide", 7, CUDA, PRODUCT, "tessera: 2 columns x 8 rows per thread, rows read as float2 pairs: about half register_blocked's shared loads per FMA; the tile copied with cp.async, all copies in flight (3/5/7/9 square masks)", true}, TESSERA_RUNG_S(register_blocked_wide)},
    {{"conv2d", "separable", 7, CUDA, PRODUCT, "tessera: a rank-1 mask (detected on the host) as a row pass and a column pass fused through shared memory: mask_w + mask_h FMAs per output, one pass over memory", true}, TESSERA_RUNG_S(separable)},
    {{"conv2d", "pipelined_tiles", 7, CUDA, PRODUCT, "tessera: persistent blocks take 128 x 64 tiles from a counter (atomicAdd: a faster SM takes more), the next tile's input copied (16-byte cp.async) into a second shared buffer while this tile's FMAs run; 4 columns x 8 rows per thread, rows read as float4s (1/3/5/7/9 square masks)", true}, supports_pipelined_tiles, ws_pipelined_tiles, prepare_pipelined_tiles, run_pipelined_tiles},
#endif
};

const ConvVariant TABLE_1D[] = {
    TESSERA_COMMON_ROWS("conv1d"),
#if TESSERA_HAVE_CUDA
    TESSERA_GPU_ROWS("conv1d"),
    {{"conv1d", "fft_overlap_save", 8, CUDA, PRODUCT, "tessera: long masks through cuFFT, overlap-save blocks sized from the mask (nfft >= 8 (taps - 1)): O(log nfft) work per sample instead of O(taps)", true}, TESSERA_RUNG_FFT(fft_overlap_save)},
    {{"conv1d", "fft_fused", 8, CUDA, PRODUCT, "tessera: the FFT convolution in one pass over memory: a block reads two overlap-save segments as one complex signal (a + i b: the real mask convolves both at once), 4,096-point FFT in registers and shared memory (radix 16), times the mask's spectrum (one block per call, read through L2), inverse, writes both segments' outputs (masks up to 2,049 taps)", true}, supports_fft_fused, ws_fft_fused, nullptr, run_fft_fused},
    {{"conv1d", "cufft_whole_signal", 9, CUDA, VENDOR, "vendor baseline: cuFFT of the whole zero-padded signal and mask, multiply, inverse (a framework's FFT convolution)", true}, TESSERA_RUNG_FFT(cufft_whole_signal)},
#endif
};

#undef TESSERA_CPU
#undef TESSERA_RUNG
#undef TESSERA_RUNG_S
#undef TESSERA_RUNG_FFT
#undef TESSERA_COMMON_ROWS
#undef TESSERA_GPU_ROWS

}  // namespace

ladder::Ladder<ConvVariant>& conv1d_ladder() {
  static ladder::Ladder<ConvVariant> ladder{std::span<const ConvVariant>(TABLE_1D)};
  return ladder;
}

ladder::Ladder<ConvVariant>& conv2d_ladder() {
  static ladder::Ladder<ConvVariant> ladder{std::span<const ConvVariant>(TABLE_2D)};
  return ladder;
}

}  // namespace tessera::convolution_impl
