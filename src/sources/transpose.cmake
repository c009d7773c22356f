# Transpose: CPU rungs, the public API, the CUDA ladder and the cuBLAS
# baseline (the dense-matrix helpers are in matrix.cmake, the cuBLAS handle in
# cublas.cmake).
list(APPEND TESSERA_CXX_SOURCES
  cpu/transpose/00_reference.cpp
  cpu/transpose/01_openmp_blocked.cpp
  cpu/transpose/variants.cpp
  patterns/transpose_table.cpp
  harness/problems/transpose_problem.cpp
)
list(APPEND TESSERA_CUDA_SOURCES
  api/transpose_api.cpp
  cuda/transpose/02_naive.cu
  cuda/transpose/02_copy_bound.cu
  cuda/transpose/03_shared_tile.cu
  cuda/transpose/04_padded_tile.cu
  cuda/transpose/05_unroll.cu
  cuda/transpose/06_block_shapes.cu
  cuda/transpose/07_grouped_order.cu
  cuda/transpose/07_vec16_swizzle.cu
  cuda/transpose/07_vec16_persistent.cu
  cuda/transpose/variants.cpp
  vendor/transpose_cublas.cu
)
# The public API of a CPU-only build (host pointers, CPU variants).
list(APPEND TESSERA_CPU_ONLY_SOURCES
  api/transpose_api_cpu.cpp
)
