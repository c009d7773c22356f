# Scan: CPU rungs, the public API, the CUDA ladder, the CUB baseline, and the
# internal exclusive sum other patterns call (src/patterns/scan.hpp).
list(APPEND TESSERA_CUDA_SOURCES
  cuda/scan/exclusive_sum.cu
)
