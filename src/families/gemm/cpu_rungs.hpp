// The CPU rungs of the GEMM ladders (see ladder.cpp for the table). Both
// serve C = A*B and C = A*A^T.
#pragma once

#include "families/gemm/contract.hpp"

namespace tessera::gemm_impl::cpu {

// Step 0: serial, obviously right. Each element accumulates its dot product
// in double and is rounded to float once: C = float(alpha*dot + beta*C).
void run_reference(const GemmCall& call);

// Step 1: OpenMP over output tiles, k blocked so that a packed panel of the
// right operand stays in cache; float accumulation in k order (the same
// arithmetic as the GPU rungs).
void run_openmp(const GemmCall& call);

}  // namespace tessera::gemm_impl::cpu
