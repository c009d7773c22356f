// The CPU rungs of the transpose ladder (ladder.cpp lists them).
#pragma once

#include <cstddef>
#include <cstdint>

#include "families/transpose/contract.hpp"
#include "tessera/core/error.hpp"

namespace tessera::transpose_impl::cpu {

// Step 0: serial, obviously right: out(j, i) = in(i, j), reading the input
// row by row.
void run_reference(const TransposeCall& call);

// Step 1: OpenMP over square cache blocks.
void run_openmp_blocked(const TransposeCall& call);

// f.template operator()<W>() with W the unsigned word of the element size:
// a transpose moves bits and never looks at the values.
template <class F>
void with_word(Dtype t, F&& f) {
  switch (size_of(t)) {
    case 1: f.template operator()<std::uint8_t>(); return;
    case 4: f.template operator()<std::uint32_t>(); return;
    case 8: f.template operator()<std::uint64_t>(); return;
    default: throw Error("transpose: unsupported element size");
  }
}

}  // namespace tessera::transpose_impl::cpu
