# GEMM (C = A*B and C = A*A^T): CPU rungs, the harness problem, the public
# API, the CUDA ladder and the cuBLAS baselines.
list(APPEND TESSERA_CXX_SOURCES
  cpu/gemm/00_reference.cpp
  cpu/gemm/01_openmp.cpp
  cpu/gemm/variants.cpp
  patterns/gemm_table.cpp
  harness/problems/gemm_check.cpp
  harness/problems/gemm_problem.cpp
)
list(APPEND TESSERA_CUDA_SOURCES
  api/gemm_api.cpp
  cuda/gemm/02_naive.cu
  cuda/gemm/03_simple_blocked.cu
  cuda/gemm/04_shared_a_syncwarp.cu
  cuda/gemm/05_tiled.cu
  cuda/gemm/06_double_buffered.cu
  cuda/gemm/07_rect_tiles.cu
  cuda/gemm/08_joint_register.cu
  cuda/gemm/09_thread_coarsened.cu
  cuda/gemm/10_warp_tiled_128x128x8.cu
  cuda/gemm/10_warp_tiled_128x128x16.cu
  cuda/gemm/10_warp_tiled_128x256x8.cu
  cuda/gemm/10_warp_tiled_128x64x16.cu
  cuda/gemm/10_warp_tiled_64x64x16.cu
  cuda/gemm/10_warp_tiled_128x128x16_ic.cu
  cuda/gemm/10_warp_tiled_128x128x32_ic.cu
  cuda/gemm/10_warp_tiled_128x256x16_ic.cu
  cuda/gemm/10_warp_tiled_128x128x16_pl.cu
  cuda/gemm/10_warp_tiled_128x128x32_pl.cu
  cuda/gemm/10_warp_tiled_128x256x16_pl.cu
  cuda/gemm/10_warp_tiled_128x128x16_sp.cu
  cuda/gemm/10_warp_tiled_128x128x32_sp.cu
  cuda/gemm/10_warp_tiled_128x64x16_sp.cu
  cuda/gemm/10_warp_tiled_128x128x16_sk.cu
  cuda/gemm/10_warp_tiled_dispatch.cu
  cuda/gemm/12_aat_naive.cu
  cuda/gemm/13_aat_shared_tile.cu
  cuda/gemm/mirror.cu
  cuda/gemm/variants.cpp
  vendor/gemm_cublas.cu
)
# The public API of a CPU-only build (host pointers, CPU variants).
list(APPEND TESSERA_CPU_ONLY_SOURCES
  api/gemm_api_cpu.cpp
)
# cuBLAS for the vendor baselines: linked once the library target exists
# (this list is read before src/CMakeLists.txt creates it).
if(TESSERA_ENABLE_CUDA)
  cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL target_link_libraries tessera PRIVATE CUDA::cublas)
endif()
