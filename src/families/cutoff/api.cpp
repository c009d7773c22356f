// Public cutoff API (CUDA builds): validation, memory kinds, workspace,
// dispatch. api_cpu.cpp serves CPU-only builds.
#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

#include "core/device_memory.hpp"
#include "families/cutoff/api_common.hpp"
#include "families/cutoff/validate.cuh"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

namespace {

using namespace cutoff_impl;

constexpr std::size_t SLOT = 256;
std::size_t rounded(std::size_t b) { return (b + SLOT - 1) / SLOT * SLOT; }

}  // namespace

void cutoff_potential(const Atom* atoms, std::size_t n_atoms, const Lattice& lattice, float cutoff, float* potential,
                      const CutoffOptions& o) {
  const CutoffSpec spec{n_atoms, lattice, cutoff};
  check_spec(spec);
  check_pointers(spec, atoms, potential);
  const CutoffVariant& v = resolve_variant(spec, o.variant);
  const Backend backend = v.info.backend;
  if (n_atoms > 0) api::require_memory(backend, atoms, "atoms", WHO, v.info.name);
  api::require_memory(backend, potential, "potential", WHO, v.info.name);
  if (backend == Backend::cpu) {
    check_atoms(atoms, n_atoms);
    api::wait_for_stream(o.stream);  // CPU variants run in stream order
    v.run({spec, atoms, potential, nullptr, nullptr});
    return;
  }
  require(reinterpret_cast<std::uintptr_t>(atoms) % 16 == 0,
          fmt::format("{}: atoms = {} is not 16-byte aligned (the GPU reads an atom as one float4)", WHO,
                      static_cast<const void*>(atoms)));
  // The variant's scratch, then the validation's slot.
  const std::size_t variant_bytes = rounded(v.workspace_bytes(spec));
  api::AsyncScratch scratch(variant_bytes + gpu::VALIDATE_BYTES, o.workspace, o.stream, WHO);
  auto* base = static_cast<unsigned char*>(scratch.get());
  const auto check_start = std::chrono::steady_clock::now();
  const long long bad = gpu::first_non_finite_atom(atoms, n_atoms, base + variant_bytes, o.stream);
  if (gpu::phases_enabled())  // the check waits for the stream: host time is its cost
    std::fprintf(stderr, "cutoff phases: atom check %.3f ms (host, incl. the stream's wait)\n",
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - check_start).count());
  if (bad >= 0) {
    Atom a{};
    TESSERA_CUDA(cudaMemcpy(&a, atoms + bad, sizeof(Atom), cudaMemcpyDeviceToHost));
    throw Error(fmt::format("{}: atom {} is not finite (x = {}, y = {}, z = {}, q = {})", WHO, bad, a.x, a.y, a.z, a.q));
  }
  v.run({spec, atoms, potential, o.stream, base});
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
