# Batched forward/backward scans: CPU rungs, the public API, the CUDA ladder
# and the CUB baseline.
list(APPEND TESSERA_CXX_SOURCES
  cpu/batched_scan/00_reference.cpp
  cpu/batched_scan/01_openmp.cpp
  cpu/batched_scan/variants.cpp
  patterns/batched_scan_table.cpp
  harness/problems/batched_scan_problem.cpp
  harness/problems/seismic_traces.cpp
)
list(APPEND TESSERA_CUDA_SOURCES
  api/batched_scan_api.cpp
  cuda/batched_scan/02_smem_v0.cu
  cuda/batched_scan/03_smem_v1.cu
  cuda/batched_scan/04_warp_v0.cu
  cuda/batched_scan/05_fused_one_pass.cu
  cuda/batched_scan/05_fused_occupancy.cu
  cuda/batched_scan/05_fused_pipelined.cu
  cuda/batched_scan/05_fused_pipelined_chains.cu
  cuda/batched_scan/05_fused_pipelined_chains2.cu
  cuda/batched_scan/05_fused_pipelined_lazy.cu
  cuda/batched_scan/05_fused_pipelined_bulk.cu
  cuda/batched_scan/05_fused_pipelined_masked.cu
  cuda/batched_scan/05_fused_fitted.cu
  cuda/batched_scan/06_multi_tile.cu
  cuda/batched_scan/06_multi_tile_resident.cu
  cuda/batched_scan/07_short_rows.cu
  cuda/batched_scan/variants.cpp
  vendor/batched_scan_cub.cu
)
# The public API of a CPU-only build (host pointers, CPU variants).
list(APPEND TESSERA_CPU_ONLY_SOURCES
  api/batched_scan_api_cpu.cpp
)
