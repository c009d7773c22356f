// Experiment (not part of the build): see docs/batched_scan.md, "The copy ceiling", and
// docs/results/copy-kernels-h100-2026-11-23.txt. Build: nvcc -O3 -arch=sm_90a FILE.cu
// Is cudaMemcpy D2D an SM kernel or the copy engines? Time it while every SM
// thread slot is held by a spinning kernel on another stream.
#include <cuda_runtime.h>
#include <cstdio>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s line %d\n", #x, cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
__global__ void spin(unsigned long long ns) {
  unsigned long long t0, t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
}
int main(int argc, char** argv) {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  size_t n = (size_t)100000000; float *in, *out;
  CK(cudaMalloc(&in, n * 4)); CK(cudaMalloc(&out, n * 4)); CK(cudaMemset(in, 1, n * 4));
  cudaStream_t a, b; cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking); cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int busy = 0; busy < 2; ++busy) {
    for (int w = 0; w < 3; ++w) cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice, b);
    CK(cudaDeviceSynchronize());
    if (busy) { spin<<<sms * 2, 1024, 0, a>>>(20000000ull); CK(cudaGetLastError()); }
    cudaEventRecord(e0, b);
    cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice, b);
    cudaEventRecord(e1, b);
    CK(cudaEventSynchronize(e1));
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    printf("memcpy D2D 400MB with SMs %s: %.1f us\n", busy ? "held by a spin kernel (20 ms)" : "idle", ms * 1e3);
    CK(cudaDeviceSynchronize());
  }
  return 0;
}
