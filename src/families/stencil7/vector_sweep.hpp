// One sweep with 16 bytes of cells per thread (4 floats or 2 doubles): the
// single-sweep pass of temporal_blocking (06_temporal_blocking.cu), used for
// a call of one sweep and for the remainder pass of one. Plain C++: no CUDA
// headers needed to include this.
#pragma once

#include "families/stencil7/contract.hpp"

namespace tessera::stencil7_impl {

// Whether src/dst and the grid allow 16-byte accesses: nx a multiple of the
// cells per vector, both pointers 16-byte aligned.
bool vector_sweep_fits(const Stencil7Spec& spec, const void* src, const void* dst);

// Enqueues one sweep src -> dst on call.stream (vector_sweep_fits must hold).
void launch_vector_sweep(const Stencil7Call& call, const void* src, void* dst);

}  // namespace tessera::stencil7_impl
