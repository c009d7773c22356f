# Histogram: CPU rungs, the public API, the CUDA ladder and the CUB baseline.
list(APPEND TESSERA_CXX_SOURCES
  cpu/histogram/00_reference.cpp
  cpu/histogram/01_openmp.cpp
  cpu/histogram/variants.cpp
  api/histogram_api_entries.cpp
  patterns/histogram_table.cpp
  harness/problems/histogram_problem.cpp
)
list(APPEND TESSERA_CUDA_SOURCES
  api/histogram_api.cpp
  cuda/common/kernel_resources.cpp
  cuda/histogram/common.cu
  cuda/histogram/02_global_atomics.cu
  cuda/histogram/03_block_privatized.cu
  cuda/histogram/04_subgroup_copies.cu
  cuda/histogram/05_run_aggregation.cu
  cuda/histogram/06_coarsened.cu
  cuda/histogram/07_packed_counters.cu
  cuda/histogram/07_hot_bin.cu
  cuda/histogram/variants.cpp
  vendor/histogram_cub.cu
)
# The public API of a CPU-only build (host pointers, CPU variants).
list(APPEND TESSERA_CPU_ONLY_SOURCES
  api/histogram_api_cpu.cpp
)
