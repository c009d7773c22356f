// The rungs of the composition ladders. Each provides
//   run_X(call)        run it (CUDA: enqueue on call.stream, no allocation, no
//                      host synchronisation: graph-capturable);
//   ws_X(spec)         workspace bytes run_X needs;
//   supports_X(spec)   whether it handles the spec (family, type, predicate).
// patterns/compose_tables.cpp turns them into one table per pattern. Plain
// C++: no CUDA headers needed to include this. Rungs shared by several
// families (the select rungs serve compact, partition and unique) look at
// spec.family.
#pragma once

#include <cstddef>

#include "families/compose/contract.hpp"

namespace tessera::compose_impl {

#define TESSERA_DECLARE_COMPOSE_RUNG(name)      \
  void run_##name(const Call& call);            \
  std::size_t ws_##name(const Spec& spec);      \
  bool supports_##name(const Spec& spec);

// src/cpu/compose: step 0 (serial) and step 1 (OpenMP) of every family.
TESSERA_DECLARE_COMPOSE_RUNG(cpu_reference)
TESSERA_DECLARE_COMPOSE_RUNG(cpu_openmp)

#if TESSERA_HAVE_CUDA
// src/cuda/map
TESSERA_DECLARE_COMPOSE_RUNG(map_one_per_thread)       // 02_one_per_thread.cu
TESSERA_DECLARE_COMPOSE_RUNG(map_vectorized)           // 03_vectorized.cu
// src/cuda/adjacent_difference
TESSERA_DECLARE_COMPOSE_RUNG(adjdiff_naive_global)     // 02_naive_global.cu
TESSERA_DECLARE_COMPOSE_RUNG(adjdiff_shared_tile)      // 03_shared_tile.cu
TESSERA_DECLARE_COMPOSE_RUNG(adjdiff_vectorized)       // 04_vectorized_shuffle.cu
// src/cuda/compact: compact, partition and unique
TESSERA_DECLARE_COMPOSE_RUNG(select_flags_scan_scatter)  // 02_flags_scan_scatter.cu
TESSERA_DECLARE_COMPOSE_RUNG(select_two_pass)            // 03_two_pass.cu
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass)         // 04_single_pass.cu
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass_lean)    // 04_single_pass.cu (tuning alternative)
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass_wide)    // 04_single_pass.cu (tuning alternative)
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass_early)   // 05_single_pass_early.cu
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass_bulk)    // 06_single_pass_bulk.cu (compact, unique)
// src/cuda/find_unique
TESSERA_DECLARE_COMPOSE_RUNG(find_unique_sort_based)         // 02_sort_based.cu
TESSERA_DECLARE_COMPOSE_RUNG(find_unique_flag_table_global)  // 03_flag_table_global.cu
TESSERA_DECLARE_COMPOSE_RUNG(find_unique_flag_table_shared)  // 04_flag_table_shared.cu
// src/cuda/rle
TESSERA_DECLARE_COMPOSE_RUNG(rle_flags_scan_scatter)   // 02_flags_scan_scatter.cu
TESSERA_DECLARE_COMPOSE_RUNG(rle_single_pass)          // 03_single_pass.cu
TESSERA_DECLARE_COMPOSE_RUNG(rle_single_pass_lean)     // 03_single_pass.cu (tuning alternative)
// src/vendor
TESSERA_DECLARE_COMPOSE_RUNG(cub_transform)            // map_cub.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_adjacent_difference)  // map_cub.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_select_if)            // select_cub.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_select_flagged)       // select_cub.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_partition_if)         // select_cub.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_select_unique)        // select_cub.cu
TESSERA_DECLARE_COMPOSE_RUNG(thrust_unique)            // unique_thrust.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_sort_unique)          // find_unique_cub.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_run_length_encode)    // rle_cub.cu
#endif

#undef TESSERA_DECLARE_COMPOSE_RUNG

}  // namespace tessera::compose_impl
