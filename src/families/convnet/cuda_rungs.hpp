// The CUDA rungs of the convnet ladder (steps 2-6 and 8) and the vendor
// baseline (step 7); ladder.cpp lists them. Each run_X(call) enqueues the layer on
// call.stream (no allocation, no host synchronisation once prepared: graph-
// capturable). Plain C++: no CUDA headers needed to include this.
#pragma once

#include <string>

#include "families/convnet/contract.hpp"
#include "families/convnet/resident_plan.hpp"

namespace tessera::conv_impl {

// 02_direct.cu: one thread per output element.
void run_direct(const ConvCall& call);
// 03_shared_tiled.cu: the input tile and the filter in shared memory.
void run_shared_tiled(const ConvCall& call);
bool supports_shared_tiled(const ConvSpec& s);
// 04_im2col_gemm.cu: the unrolled input of one image at a time, then tessera::gemm.
void run_im2col_gemm(const ConvCall& call);
std::size_t ws_im2col_gemm(const ConvSpec& s);
// 05_implicit_gemm.cu: the GEMM with the unrolled tile gathered into shared memory.
void run_implicit_gemm(const ConvCall& call);
std::size_t ws_implicit_gemm(const ConvSpec& s);
// 06_winograd_f2x3.cu: Winograd F(2x2, 3x3) as 16 GEMMs (k = 3, stride 1).
void run_winograd_f2x3(const ConvCall& call);
std::size_t ws_winograd_f2x3(const ConvSpec& s);
bool supports_winograd_f2x3(const ConvSpec& s);
// 08_winograd_fused.cu: Winograd F(2x2, 3x3) in one kernel after the filter transform.
void run_winograd_fused(const ConvCall& call);
std::size_t ws_winograd_fused(const ConvSpec& s);
bool supports_winograd_fused(const ConvSpec& s);
// 09_winograd_f4x3.cu: Winograd F(4x4, 3x3), the 36 products as one batched GEMM (k = 3, stride 1).
void run_winograd_f4x3(const ConvCall& call);
std::size_t ws_winograd_f4x3(const ConvSpec& s);
bool supports_winograd_f4x3(const ConvSpec& s);
// The same in groups of `images` images per pass (the lab's sweep of the group size).
void run_winograd_f4x3_images(const ConvCall& call, std::size_t images);
std::size_t ws_winograd_f4x3_images(const ConvSpec& s, std::size_t images);
// The whole batch with the GEMM tile forced: an index into the gemm
// family's WARP_TILED_TILES (0: 128x64, 1: 64x64, 2: 128x128; the lab's rows).
void run_winograd_f4x3_tile(const ConvCall& call, int tile);
// 10_resident_image.cu: small layers, the image band and a group of filters resident in shared memory.
void run_resident_image(const ConvCall& call);
bool supports_resident_image(const ConvSpec& s);
// A given plan (the lab's sweeps, the tests of every kernel and cut); throws
// tessera::Error when the layer or the plan is out of the rung's range.
void run_resident_image_with(const ConvCall& call, const resident::Plan& plan);
// 07_cudnn.cu: cudnnConvolutionForward, FP32 FMA math, the algorithm cuDNN finds fastest.
void run_cudnn(const ConvCall& call);
std::size_t ws_cudnn(const ConvSpec& s);
void prepare_cudnn(const ConvSpec& s);
bool supports_cudnn(const ConvSpec& s);
// The algorithm and workspace cuDNN chose for `s` ("cudnn algo WINOGRAD_NONFUSED,
// ws 12.0 MB"): the bench row's note.
std::string cudnn_choice(const ConvSpec& s);

}  // namespace tessera::conv_impl
