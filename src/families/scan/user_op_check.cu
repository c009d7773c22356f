// tessera::scan_with (include/tessera/scan.cuh) instantiated for one
// non-commutative user operator — the composition of affine maps modulo 2^32
// — so that the library build compiles the public header and the GPU tests
// (plain C++) can run it (tests/test_scan_gpu.cpp). One kernel: cheap.
#include "families/scan/contract.hpp"
#include "tessera/scan.cuh"

namespace tessera::scan_impl {

namespace {
// left first, then right: x -> r.a * (l.a * x + l.b) + r.b.
struct ComposeAffine {
  __device__ Affine32 operator()(Affine32 l, Affine32 r) const { return {r.a * l.a, r.a * l.b + r.b}; }
};
}  // namespace

std::size_t affine_scan_workspace_bytes(std::size_t n) { return scan_with_workspace_bytes<Affine32>(n); }

void affine_scan(const Affine32* in, std::size_t n, Affine32* out, bool exclusive, Workspace workspace,
                 stream_t stream) {
  scan_with(in, n, out, ComposeAffine{}, Affine32{1u, 0u},
            {.exclusive = exclusive, .stream = stream, .workspace = workspace});
}

}  // namespace tessera::scan_impl
