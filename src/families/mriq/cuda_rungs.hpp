// The CUDA rungs of the MRI-Q ladder (steps 2-11; ladder.cpp lists them).
// Each run_X(call) enqueues the whole computation on call.stream (no
// allocation, no host synchronisation) and writes every Q, zeros when
// num_k = 0. Workspace: ws_phi_mag / ws_aos (common.cuh). Plain C++: no
// CUDA headers needed to include this.
#pragma once

#include <cstddef>

#include "families/mriq/contract.hpp"

namespace tessera::mriq_impl {

std::size_t ws_none(const MriqSpec&);
std::size_t ws_phi_mag_bytes(const MriqSpec&);
std::size_t ws_aos_bytes(const MriqSpec&);
std::size_t ws_aos_split_bytes(const MriqSpec&);

void run_scatter_atomics(const MriqCall& call);  // 02
void run_fission_gather(const MriqCall& call);   // 03
void run_registers(const MriqCall& call);        // 04
void run_constant_chunks(const MriqCall& call);  // 05
void run_aos_constant(const MriqCall& call);     // 06
void run_coarsened(const MriqCall& call);        // 07
void run_mufu_intrinsics(const MriqCall& call);  // 08
void run_global_aos(const MriqCall& call);       // 09
void run_turns_mufu(const MriqCall& call);       // 10
void run_turns_poly(const MriqCall& call);       // 10
void run_mufu_fma_split(const MriqCall& call);   // 11

}  // namespace tessera::mriq_impl

namespace tessera::mriq_impl {

// The API's input scan (common.cu): atomically lowers *first (set to
// ULLONG_MAX beforehand) to the index of data's first NaN or infinity.
void launch_first_nonfinite(const float* data, std::size_t n, unsigned long long* first, stream_t stream);

}  // namespace tessera::mriq_impl
