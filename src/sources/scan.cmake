# Scan: CPU rungs, the public API, the CUDA ladder, the CUB baseline, and the
# internal exclusive sum other patterns call (src/patterns/scan.hpp).
list(APPEND TESSERA_CXX_SOURCES
  cpu/scan/00_reference.cpp
  cpu/scan/01_openmp.cpp
  cpu/scan/variants.cpp
  patterns/scan_table.cpp
  api/scan_api_entries.cpp
  harness/problems/scan_problem.cpp
)
list(APPEND TESSERA_CUDA_SOURCES
  api/scan_api.cpp
  cuda/scan/02_kogge_stone.cu
  cuda/scan/03_kogge_stone_double_buffer.cu
  cuda/scan/04_brent_kung.cu
  cuda/scan/05_three_phase.cu
  cuda/scan/06_warp_shuffle.cu
  cuda/scan/07_hierarchical.cu
  cuda/scan/08_chained.cu
  cuda/scan/09_lookback.cu
  cuda/scan/09_lookback_early.cu
  cuda/scan/09_lookback_bulk.cu
  cuda/scan/exclusive_sum.cu
  cuda/scan/user_op_check.cu
  cuda/scan/variants.cpp
  vendor/scan_cub.cu
)
# The public API of a CPU-only build (host pointers, CPU variants).
list(APPEND TESSERA_CPU_ONLY_SOURCES
  api/scan_api_cpu.cpp
)
