// What every family's Instance shares: the problem it was bound to, the
// ladder row (a family's Variant, with its VariantInfo in .info) that runs
// it, and the wait at the end of a checked GPU run. A family's Instance
// derives from BoundInstance<ItsProblem, ItsVariant> and adds its buffers.
#pragma once

#include "harness/problem.hpp"
#include "tessera/core/types.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

template <class ProblemT, class VariantT>
class BoundInstance : public Instance {
 protected:
  // ProblemT may still be incomplete here: only references are kept.
  BoundInstance(const ProblemT& problem, const VariantT& variant) : problem_(problem), variant_(variant) {}

  // A CPU rung: host buffers, run synchronously.
  bool on_host() const { return variant_.info.backend == Backend::cpu; }

#if TESSERA_HAVE_CUDA
  // After a checked GPU run: waits for it and reports its launch's or
  // kernel's error before the output is read back.
  static void wait_for_run(stream_t stream) {
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    TESSERA_CUDA(cudaGetLastError());
  }
#endif

  const ProblemT& problem_;
  const VariantT& variant_;
};

}  // namespace tessera::harness
