// TESSERA_HD marks functions usable from host and device code, so CPU tests
// exercise exactly the arithmetic the kernels run.
#pragma once

#if defined(__CUDACC__)
#define TESSERA_HD __host__ __device__ __forceinline__
#else
#define TESSERA_HD inline
#endif
