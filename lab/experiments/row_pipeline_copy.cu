// Experiment (not part of the build): see docs/batched_scan.md, "The copy ceiling", and
// docs/results/copy-kernels-h100-2026-11-23.txt. Build: nvcc -O3 -arch=sm_90a FILE.cu
// Structural ceiling of the fused batched-scan kernel: row copies with the
// same pipeline, no scan. Prints GB/s (read + write) per kernel.
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s line %d\n", #x, cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

constexpr int ROWS = 10000, LEN = 10000;  // floats; pitch = LEN
constexpr int SLOTS = 10752 + 4;

__global__ void k_copy(const float4* __restrict__ in, float4* __restrict__ out, size_t n4) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, s = (size_t)gridDim.x * blockDim.x;
  for (; i < n4; i += s) out[i] = in[i];
}

// our structure: BLOCK threads, STAGES row buffers, cp.async 16B, barrier, touch, barrier, st.cs
template <int BLOCK, int STAGES, bool CS, bool CONTIG, bool TOUCH>
__global__ __launch_bounds__(BLOCK, 1) void k_rows(const float* in, float* out) {
  extern __shared__ __align__(16) float buf[];
  const int G = gridDim.x;
  auto row_of = [&](int i) { // i-th row of this block
    if (CONTIG) { int per = (ROWS + G - 1) / G; int r = blockIdx.x * per + i; return (i < per && r < ROWS) ? r : -1; }
    int r = blockIdx.x + i * G; return r < ROWS ? r : -1; };
  auto prefetch = [&](int i, int st) {
    int r = row_of(i);
    if (r >= 0) {
      const float4* src = reinterpret_cast<const float4*>(in + (size_t)r * LEN);
      float4* dst = reinterpret_cast<float4*>(buf + st * SLOTS);
      for (int k = threadIdx.x; k < LEN / 4; k += BLOCK) __pipeline_memcpy_async(dst + k, src + k, 16);
    }
    __pipeline_commit();
  };
  for (int k = 0; k < STAGES - 1; ++k) prefetch(k, k);
  int st = 0;
  for (int i = 0; row_of(i) >= 0; ++i) {
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
    prefetch(i + STAGES - 1, (st + STAGES - 1) % STAGES);
    float4* b = reinterpret_cast<float4*>(buf + st * SLOTS);
    if (TOUCH) {
      for (int k = threadIdx.x; k < LEN / 4; k += BLOCK) { float4 v = b[k]; v.x += 1.f; b[k] = v; }
      __syncthreads();
    }
    float4* dst = reinterpret_cast<float4*>(out + (size_t)row_of(i) * LEN);
    for (int k = threadIdx.x; k < LEN / 4; k += BLOCK) { if (CS) __stcs(dst + k, b[k]); else dst[k] = b[k]; }
    st = st + 1 == STAGES ? 0 : st + 1;
  }
}

// TMA bulk: one thread loads a whole row with cp.async.bulk, stores with a bulk store
__device__ __forceinline__ unsigned sa(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
template <int BLOCK, int STAGES, bool TOUCH>
__global__ __launch_bounds__(BLOCK, 1) void k_bulk(const float* in, float* out) {
  extern __shared__ __align__(128) float buf[];
  __shared__ __align__(8) unsigned long long bar[STAGES];
  const int G = gridDim.x;
  constexpr unsigned BYTES = LEN * 4;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar[s])));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  auto issue = [&](int i, int s) {
    int r = blockIdx.x + i * G;
    if (r >= ROWS) return;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sa(&bar[s])), "r"(BYTES) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(sa(buf + s * SLOTS)), "l"(in + (size_t)r * LEN), "r"(BYTES), "r"(sa(&bar[s])) : "memory");
  };
  if (threadIdx.x == 0) for (int k = 0; k < STAGES - 1; ++k) issue(k, k);
  int s = 0; unsigned phase = 0;
  for (int i = 0; blockIdx.x + i * G < ROWS; ++i) {
    // wait for row i
    unsigned ok = 0;
    while (!ok) asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                             : "=r"(ok) : "r"(sa(&bar[s])), "r"((phase >> s) & 1) : "memory");
    phase ^= 1u << s;
    if (TOUCH) {
      float4* b = reinterpret_cast<float4*>(buf + s * SLOTS);
      for (int k = threadIdx.x; k < LEN / 4; k += BLOCK) { float4 v = b[k]; v.x += 1.f; b[k] = v; }
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      int r = blockIdx.x + i * G;
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(out + (size_t)r * LEN), "r"(sa(buf + s * SLOTS)), "r"(BYTES) : "memory");
      asm volatile("cp.async.bulk.commit_group;");
      // the buffer of row i+STAGES-1 held row i-1: its store must have read it
      asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
      issue(i + STAGES - 1, (s + STAGES - 1) % STAGES);
    }
    s = s + 1 == STAGES ? 0 : s + 1;
  }
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

template <class F> float timeit(F f) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> ms;
  for (int rep = 0; rep < 5; ++rep) {
    cudaEventRecord(a); for (int i = 0; i < 10; ++i) f(); cudaEventRecord(b); CK(cudaEventSynchronize(b));
    float t; cudaEventElapsedTime(&t, a, b); ms.push_back(t / 10);
  }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end()); return ms[2];
}

int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  size_t n = (size_t)ROWS * LEN; float *in, *out;
  CK(cudaMalloc(&in, n * 4)); CK(cudaMalloc(&out, n * 4)); CK(cudaMemset(in, 1, n * 4));
  const double bytes = 2.0 * n * 4;
  auto rep = [&](const char* name, float ms) { printf("%-34s %8.1f us  %7.1f GB/s\n", name, ms * 1e3, bytes / (ms * 1e-3) / 1e9); };
  rep("cudaMemcpy D2D 400MB", timeit([&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice); }));
  for (int per : {4, 8, 16})
    { char nm[64]; snprintf(nm, 64, "grid-stride float4 x%d/SM", per);
      rep(nm, timeit([&] { k_copy<<<sms * per, 256>>>((const float4*)in, (float4*)out, n / 4); })); }
#define ROWK(B, S, CS, CT, T, NM) { auto k = k_rows<B, S, CS, CT, T>; size_t sm = S * SLOTS * 4; \
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm)); \
    rep(NM, timeit([&] { k<<<sms, B, sm>>>(in, out); })); }
  ROWK(896, 3, true, false, true, "rows 896x3 cs strided touch (ours)");
  ROWK(896, 3, true, false, false, "rows 896x3 cs strided");
  ROWK(896, 3, false, false, false, "rows 896x3 plain strided");
  ROWK(896, 3, true, true, false, "rows 896x3 cs contiguous");
  ROWK(896, 5, true, false, false, "rows 896x5 cs strided");
  ROWK(512, 4, true, false, false, "rows 512x4 cs strided");
#define BULK(B, S, T, NM) { auto k = k_bulk<B, S, T>; size_t sm = S * SLOTS * 4; \
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm)); \
    rep(NM, timeit([&] { k<<<sms, B, sm>>>(in, out); })); }
  BULK(896, 3, true, "bulk 896x3 touch");
  BULK(896, 3, false, "bulk 896x3");
  BULK(896, 5, false, "bulk 896x5");
  BULK(256, 5, true, "bulk 256x5 touch");
  // correctness of the bulk copy
  std::vector<float> h(LEN); CK(cudaMemcpy(h.data(), out + (size_t)(ROWS - 1) * LEN, LEN * 4, cudaMemcpyDeviceToHost));
  float ref; CK(cudaMemcpy(&ref, in, 4, cudaMemcpyDeviceToHost));
  printf("check last row [0]=%g [1]=%g (in %g)\n", h[0], h[1], ref);
  return 0;
}
