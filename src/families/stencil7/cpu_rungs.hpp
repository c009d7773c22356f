// The CPU rungs of the stencil7 ladder (ladder.cpp lists them).
#pragma once

#include "families/stencil7/contract.hpp"

namespace tessera::stencil7_impl::cpu {

// Step 0: serial, obviously right: one sweep after the other, every cell.
void run_reference(const Stencil7Call& call);
// Step 1: the same sweeps, OpenMP over the z planes.
void run_openmp(const Stencil7Call& call);
// Both: one buffer for two sweeps or more.
std::size_t workspace_bytes(const Stencil7Spec& spec);

// One sweep on the host, `src` to `dst` (element type T); planes [z_begin,
// z_end) only, so that the OpenMP rung and the harness's reference can split
// the work. Boundary cells are copied.
template <class T>
void sweep_planes(const T* src, T* dst, const Stencil7Spec& s, std::size_t z_begin, std::size_t z_end);

}  // namespace tessera::stencil7_impl::cpu
