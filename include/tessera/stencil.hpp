// tessera::stencil7 — Jacobi sweeps of the 7-point 3D stencil.
//
//   tessera::stencil7(d_in, d_out, nx, ny, nz, sweeps, c0, c1);                 // the policy's variant
//   tessera::stencil7(d_in, d_out, nx, ny, nz, sweeps, c0, c1, {.stream = s});  // on stream s
//   tessera::stencil7(d_in, d_out, nx, ny, nz, 8, c0, c1, {.variant = "shared_tiling"});  // any rung by name
//
// The grid is nx x ny x nz, x fastest: cell (x, y, z) is element
// (z * ny + y) * nx + x. One sweep maps grid u to grid v with
//   v(x,y,z) = c1 * (u(x-1,y,z) + u(x+1,y,z) + u(x,y-1,z) + u(x,y+1,z) + u(x,y,z-1) + u(x,y,z+1)) - c0 * u(x,y,z)
// for interior cells; boundary cells (x, y or z first or last) keep their
// input values. `sweeps` sweeps are applied one after the other (Jacobi: each
// reads the whole result of the previous one); the result of the last ends in
// d_out, d_in is never written. sweeps = 0 copies d_in to d_out.
//
// Types: float and double (c0 and c1 in the same type). Between sweeps the
// call ping-pongs between d_out and one grid-sized scratch buffer:
// stencil7_workspace_bytes() says how many bytes (0 for 0 or 1 sweep, else
// nx*ny*nz*sizeof(T), for every variant). Without options.workspace the call
// allocates it stream-ordered; with one of at least that size it allocates
// nothing. Asynchronous, like cudaMemcpyAsync: enqueued on options.stream.
// GPU variants take device pointers; the cpu_ variants, reachable by name
// (and the default without a GPU), take host pointers and run synchronously.
//
// Errors throw tessera::Error before anything is enqueued or written: nx, ny
// or nz smaller than 3, sweeps < 0, c0 or c1 NaN or infinite, a null pointer,
// d_in == d_out (or overlapping grids), memory of the wrong kind for the
// variant, an unknown variant, or a workspace that is too small. Each message
// names the argument and its value.
#pragma once

#include <cstddef>
#include <string>

#include "tessera/core/options.hpp"
#include "tessera/core/types.hpp"

namespace tessera {

struct Stencil7Options {
  std::string variant = {};  // empty: the variant the policy picks for this type and sweep count
  stream_t stream = nullptr;
  Workspace workspace = {};  // optional: at least stencil7_workspace_bytes(...) bytes
};

template <class T>
void stencil7(const T* d_in, T* d_out, std::size_t nx, std::size_t ny, std::size_t nz, int sweeps, T c0, T c1,
              const Stencil7Options& options = {});

// Scratch bytes such a call needs (a grid for 2 sweeps or more, else 0).
// Throws for an unknown options.variant or arguments stencil7 would refuse.
std::size_t stencil7_workspace_bytes(Dtype type, std::size_t nx, std::size_t ny, std::size_t nz, int sweeps,
                                     const Stencil7Options& options = {});

// The name of the variant the public API picks for these arguments.
std::string stencil7_default_variant(Dtype type, std::size_t nx, std::size_t ny, std::size_t nz, int sweeps);

}  // namespace tessera
