// How a variant chains its passes over memory (a pass = one sweep, or several
// fused sweeps for temporal blocking) between `out` and the workspace so that
// the last pass writes `out` and `in` is never written: pass k of K (1-based)
// writes `out` when K - k is even, the workspace otherwise, and reads what
// pass k - 1 wrote (pass 1 reads `in`). One buffer of the grid's size is the
// whole workspace, and only when there are two passes or more.
#pragma once

#include <cstddef>

#include "families/stencil7/contract.hpp"

namespace tessera::stencil7_impl {

inline std::size_t grid_bytes(const Stencil7Spec& s) { return s.cells() * size_of(s.dtype); }

// Workspace of a variant that makes `passes` passes.
inline std::size_t ping_pong_bytes(const Stencil7Spec& s, int passes) { return passes >= 2 ? grid_bytes(s) : 0; }

// pass(k, src, dst) for k = 1..passes.
template <class Pass>
void ping_pong(const Stencil7Call& call, int passes, Pass&& pass) {
  const void* src = call.in;
  for (int k = 1; k <= passes; ++k) {
    void* dst = (passes - k) % 2 == 0 ? call.out : call.workspace;
    pass(k, src, dst);
    src = dst;
  }
}

}  // namespace tessera::stencil7_impl
