// The rungs of the composition ladders. Each provides
//   run_X(call)        run it (CUDA: enqueue on call.stream, no allocation, no
//                      host synchronisation: graph-capturable);
//   ws_X(spec)         workspace bytes run_X needs;
//   supports_X(spec)   whether it handles the spec (family, type, predicate).
// ladder.cpp turns them into one table per pattern. Plain C++: no CUDA
// headers needed to include this. Rungs shared by several patterns (the
// select rungs serve compact, partition and unique) look at spec.family.
#pragma once

#include <cstddef>

#include "families/compose/contract.hpp"

#define TESSERA_DECLARE_COMPOSE_RUNG(name) \
  void run_##name(const Call& call);       \
  std::size_t ws_##name(const Spec& spec); \
  bool supports_##name(const Spec& spec);

namespace tessera::compose_impl {

// Step 0 (serial) and step 1 (OpenMP) of every pattern: 00_reference.cpp, 01_openmp.cpp.
TESSERA_DECLARE_COMPOSE_RUNG(cpu_reference)
TESSERA_DECLARE_COMPOSE_RUNG(cpu_openmp)

#if TESSERA_HAVE_CUDA
// map/
TESSERA_DECLARE_COMPOSE_RUNG(map_one_per_thread)  // 02_one_per_thread.cu
TESSERA_DECLARE_COMPOSE_RUNG(map_vectorized)      // 03_vectorized.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_transform)       // 04_cub_transform.cu
// adjacent_difference/
TESSERA_DECLARE_COMPOSE_RUNG(adjdiff_naive_global)     // 02_naive_global.cu
TESSERA_DECLARE_COMPOSE_RUNG(adjdiff_shared_tile)      // 03_shared_tile.cu
TESSERA_DECLARE_COMPOSE_RUNG(adjdiff_vectorized)       // 04_vectorized_shuffle.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_adjacent_difference)  // 05_cub_adjacent_difference.cu
// compact/: compact, partition and unique
TESSERA_DECLARE_COMPOSE_RUNG(select_flags_scan_scatter)  // 02_flags_scan_scatter.cu
TESSERA_DECLARE_COMPOSE_RUNG(select_two_pass)            // 03_two_pass.cu
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass_wide)    // 04_single_pass.cu
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass_early)   // 05_single_pass_early.cu
TESSERA_DECLARE_COMPOSE_RUNG(select_single_pass_bulk)    // 06_single_pass_bulk.cu (compact, unique)
TESSERA_DECLARE_COMPOSE_RUNG(cub_select_if)              // 07_cub_compact_partition_unique.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_select_flagged)         // 07_cub_compact_partition_unique.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_partition_if)           // 07_cub_compact_partition_unique.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_select_unique)          // 07_cub_compact_partition_unique.cu
// unique/
TESSERA_DECLARE_COMPOSE_RUNG(thrust_unique)  // 07_thrust_unique_copy.cu
// find_unique/
TESSERA_DECLARE_COMPOSE_RUNG(find_unique_sort_based)         // 02_sort_based.cu
TESSERA_DECLARE_COMPOSE_RUNG(find_unique_flag_table_global)  // 03_flag_table_global.cu
TESSERA_DECLARE_COMPOSE_RUNG(find_unique_flag_table_shared)  // 04_flag_table_shared.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_sort_unique)                // 05_cub_radix_sort_then_unique.cu
// rle/
TESSERA_DECLARE_COMPOSE_RUNG(rle_flags_scan_scatter)  // 02_flags_scan_scatter.cu
TESSERA_DECLARE_COMPOSE_RUNG(rle_single_pass_lean)    // 03_single_pass_lean.cu
TESSERA_DECLARE_COMPOSE_RUNG(cub_run_length_encode)   // 04_cub_run_length_encode.cu
#endif

}  // namespace tessera::compose_impl
