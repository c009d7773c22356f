# The data-parallel compositions of seed 003: map, adjacent_difference,
# compact, partition, unique, find_unique, rle. One contract
# (patterns/compose.hpp), one table per pattern (patterns/compose_tables.cpp),
# one harness problem, one API file for both builds.
list(APPEND TESSERA_CXX_SOURCES
  patterns/compose_spec.cpp
  patterns/compose_tables.cpp
  cpu/compose/00_reference.cpp
  cpu/compose/01_openmp.cpp
  harness/problems/compose_inputs.cpp
  harness/problems/compose_problem.cpp
  api/compose_api.cpp
)
list(APPEND TESSERA_CUDA_SOURCES
  cuda/map/02_one_per_thread.cu
  cuda/map/03_vectorized.cu
  cuda/adjacent_difference/02_naive_global.cu
  cuda/adjacent_difference/03_shared_tile.cu
  cuda/adjacent_difference/04_vectorized_shuffle.cu
  cuda/compact/02_flags_scan_scatter.cu
  cuda/compact/03_two_pass.cu
  cuda/compact/04_single_pass.cu
  cuda/compact/05_single_pass_early.cu
  cuda/compact/06_single_pass_bulk.cu
  cuda/find_unique/02_sort_based.cu
  cuda/find_unique/03_flag_table_global.cu
  cuda/find_unique/04_flag_table_shared.cu
  cuda/rle/02_flags_scan_scatter.cu
  cuda/rle/03_single_pass.cu
  vendor/map_cub.cu
  vendor/select_cub.cu
  vendor/unique_thrust.cu
  vendor/find_unique_cub.cu
  vendor/rle_cub.cu
)
