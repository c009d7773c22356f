# Reduction: CPU rungs, the public API, the CUDA ladder and the CUB baseline.
list(APPEND TESSERA_CXX_SOURCES
  cpu/reduce/00_reference.cpp
  cpu/reduce/01_openmp.cpp
  cpu/reduce/variants.cpp
  patterns/reduce_table.cpp
  harness/problems/reduce_problem.cpp
)
list(APPEND TESSERA_CUDA_SOURCES
  api/reduce_api.cpp
  cuda/reduce/02_neighbored_divergent.cu
  cuda/reduce/03_neighbored_contiguous.cu
  cuda/reduce/04_interleaved.cu
  cuda/reduce/05_early_exit.cu
  cuda/reduce/06_cascading.cu
  cuda/reduce/07_last_warp_unroll.cu
  cuda/reduce/08_complete_unroll.cu
  cuda/reduce/09_warp_shuffle.cu
  cuda/reduce/10_single_pass.cu
  cuda/reduce/variants.cpp
  vendor/reduce_cub.cu
)
# The public API of a CPU-only build (host pointers, CPU variants).
list(APPEND TESSERA_CPU_ONLY_SOURCES
  api/reduce_api_cpu.cpp
)
