# The per-device cuBLAS handle of the cuBLAS baselines (transpose geam).
list(APPEND TESSERA_CUDA_SOURCES
  vendor/cublas_handle.cpp
)
if(TESSERA_ENABLE_CUDA)
  # src/CMakeLists.txt creates the tessera target after it has included the
  # source lists: link cuBLAS once the directory is processed.
  cmake_language(DEFER CALL target_link_libraries tessera PRIVATE CUDA::cublas)
endif()
