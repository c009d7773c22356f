// The public API's check of device atoms (api.cpp): the index of the first
// atom with a non-finite coordinate or charge, found on the GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "tessera/atoms.hpp"

namespace tessera::cutoff_impl::gpu {

// Bytes of device scratch first_non_finite_atom needs.
inline constexpr std::size_t VALIDATE_BYTES = 256;

// -1 when every atom is finite, else the smallest bad index. Waits for the
// stream (the answer is needed on the host before anything is written).
long long first_non_finite_atom(const Atom* d_atoms, std::size_t n, void* d_scratch, cudaStream_t stream);

// Whether TESSERA_CUTOFF_PHASES is set: the API and the dynamic rungs then
// print where a call's time goes (dynamic.cuh's Phases).
bool phases_enabled();

}  // namespace tessera::cutoff_impl::gpu
