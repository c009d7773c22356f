// The cutoff pattern's internal contract: what one call carries and what one
// registered variant provides. Every rung (CPU and CUDA) fills a
// CutoffVariant; the public API and the harness only go through this table.
#pragma once

#include <cstddef>

#include "ladder/ladder.hpp"
#include "tessera/atoms.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::cutoff_impl {

// What is computed (everything but the data).
struct CutoffSpec {
  std::size_t n_atoms;
  Lattice lattice;
  float cutoff;
};

// One call. `atoms` and `potential` are device pointers for CUDA variants and
// host pointers for CPU variants. `workspace` holds at least the variant's
// workspace_bytes(spec) (device memory for CUDA variants).
struct CutoffCall {
  CutoffSpec spec;
  const Atom* atoms;
  float* potential;
  stream_t stream;
  void* workspace;
};

struct CutoffVariant {
  VariantInfo info;
  bool (*supports)(const CutoffSpec&);
  std::size_t (*workspace_bytes)(const CutoffSpec&);
  void (*run)(const CutoffCall&);
};

// The ladder: ladder.cpp's table in ladder order; at() gives the "no variant
// named" error.
ladder::Ladder<CutoffVariant>& variants_ladder();

}  // namespace tessera::cutoff_impl
