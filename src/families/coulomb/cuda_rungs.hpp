// The CUDA rungs of the coulomb ladder (steps 2-7; ladder.cpp lists them).
// Each run_X(call) enqueues the potential on call.stream: no allocation, no
// host synchronisation, every lattice point written. Plain C++: no CUDA
// headers needed to include this.
#pragma once

#include "families/coulomb/contract.hpp"

namespace tessera::coulomb_impl {

// 02_scatter_atomics.cu
void run_scatter_atomics(const CoulombCall& call);
bool supports_scatter_atomics(const CoulombSpec& spec);
// 03_gather.cu (supports_2d_grid: the grid limits of steps 3-6)
void run_gather(const CoulombCall& call);
bool supports_2d_grid(const CoulombSpec& spec);
// 04_constant_atoms.cu
void run_constant_atoms(const CoulombCall& call);
// 05_coarsened.cu
void run_coarsened4(const CoulombCall& call);
// 06_coalesced_coarsened.cu
void run_coalesced_coarsened(const CoulombCall& call);
// 07_mufu_fma_split.cu: the split of policy.hpp, its 2-Newton-step form, its
// compensated form and the same kernel all on MUFU
void run_mufu_fma_split(const CoulombCall& call);
void run_mufu_fma_split_newton2(const CoulombCall& call);
void run_mufu_fma_split_compensated(const CoulombCall& call);
void run_mufu_fma_split_shared_rows(const CoulombCall& call);
void run_mufu_fma_split_series(const CoulombCall& call);
void run_mufu_only(const CoulombCall& call);
bool supports_split(const CoulombSpec& spec);

}  // namespace tessera::coulomb_impl
