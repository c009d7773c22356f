// Experiment (not part of the build): see docs/batched_scan.md, "The copy ceiling", and
// docs/results/copy-kernels-h100-2026-11-23.txt. Build: nvcc -O3 -arch=sm_90a FILE.cu
// What lets cudaMemcpy D2D beat an SM copy kernel by ~6%? Cache hints, unroll, bulk.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s line %d\n", #x, cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
constexpr int ROWS = 10000, LEN = 10000;
constexpr int SLOTS = 10752 + 4;
__device__ __forceinline__ unsigned sa(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ unsigned long long pol_first() { unsigned long long p; asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p)); return p; }
__device__ __forceinline__ unsigned long long pol_last() { unsigned long long p; asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p)); return p; }

// LD: 0 plain, 1 nc.L1::no_allocate, 2 nc + L2 evict_first, 3 nc + L2::256B prefetch
// ST: 0 plain, 1 .cs, 2 L2 evict_first hint, 3 L1::no_allocate
template <int U, int LD, int ST>
__global__ void k_copy(const float4* __restrict__ in, float4* __restrict__ out, size_t n4) {
  const size_t s = (size_t)gridDim.x * blockDim.x;
  unsigned long long pf = pol_first();
  for (size_t base = blockIdx.x * (size_t)blockDim.x + threadIdx.x; base < n4; base += s * U) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      size_t i = base + u * s;
      if (i < n4) {
        const float4* p = in + i;
        if (LD == 0) v[u] = *p;
        else if (LD == 1) asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w) : "l"(p));
        else if (LD == 2) asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;" : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w) : "l"(p), "l"(pf));
        else asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w) : "l"(p));
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      size_t i = base + u * s;
      if (i < n4) {
        float4* p = out + i;
        if (ST == 0) *p = v[u];
        else if (ST == 1) __stcs(p, v[u]);
        else if (ST == 2) asm volatile("st.global.L1::no_allocate.L2::cache_hint.v4.f32 [%0], {%1,%2,%3,%4}, %5;" :: "l"(p), "f"(v[u].x), "f"(v[u].y), "f"(v[u].z), "f"(v[u].w), "l"(pf) : "memory");
        else asm volatile("st.global.L1::no_allocate.v4.f32 [%0], {%1,%2,%3,%4};" :: "l"(p), "f"(v[u].x), "f"(v[u].y), "f"(v[u].z), "f"(v[u].w) : "memory");
      }
    }
  }
}

// contiguous chunk per block (each block copies a contiguous span)
template <int U>
__global__ void k_chunk(const float4* __restrict__ in, float4* __restrict__ out, size_t n4) {
  size_t per = (n4 + gridDim.x - 1) / gridDim.x;
  size_t lo = blockIdx.x * per, hi = min(n4, lo + per);
  for (size_t base = lo + threadIdx.x; base < hi; base += (size_t)blockDim.x * U) {
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) { size_t i = base + u * blockDim.x; if (i < hi) v[u] = __ldcs(in + i); }
#pragma unroll
    for (int u = 0; u < U; ++u) { size_t i = base + u * blockDim.x; if (i < hi) __stcs(out + i, v[u]); }
  }
}

// bulk rows with L2 policies: LP/SP 0 none, 1 evict_first
template <int BLOCK, int STAGES, int LP, int SP>
__global__ __launch_bounds__(BLOCK, 1) void k_bulk(const float* in, float* out) {
  extern __shared__ __align__(16) float buf[];
  __shared__ __align__(8) unsigned long long bar[STAGES];
  const int G = gridDim.x;
  constexpr unsigned BYTES = LEN * 4;
  unsigned long long pf = pol_first();
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar[s])));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  auto issue = [&](int i, int s) {
    int r = blockIdx.x + i * G;
    if (r >= ROWS) return;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sa(&bar[s])), "r"(BYTES) : "memory");
    if (LP) asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
                 :: "r"(sa(buf + s * SLOTS)), "l"(in + (size_t)r * LEN), "r"(BYTES), "r"(sa(&bar[s])), "l"(pf) : "memory");
    else asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(sa(buf + s * SLOTS)), "l"(in + (size_t)r * LEN), "r"(BYTES), "r"(sa(&bar[s])) : "memory");
  };
  if (threadIdx.x == 0) for (int k = 0; k < STAGES - 1; ++k) issue(k, k);
  int s = 0; unsigned phase = 0;
  for (int i = 0; blockIdx.x + i * G < ROWS; ++i) {
    unsigned ok = 0;
    while (!ok) asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                             : "=r"(ok) : "r"(sa(&bar[s])), "r"((phase >> s) & 1) : "memory");
    phase ^= 1u << s;
    __syncthreads();
    if (threadIdx.x == 0) {
      int r = blockIdx.x + i * G;
      if (SP) asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;" :: "l"(out + (size_t)r * LEN), "r"(sa(buf + s * SLOTS)), "r"(BYTES), "l"(pf) : "memory");
      else asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(out + (size_t)r * LEN), "r"(sa(buf + s * SLOTS)), "r"(BYTES) : "memory");
      asm volatile("cp.async.bulk.commit_group;");
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
  auto rep = [&](const char* name, float ms) { printf("%-40s %8.1f us  %7.1f GB/s\n", name, ms * 1e3, bytes / (ms * 1e-3) / 1e9); };
  rep("cudaMemcpy D2D", timeit([&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice); }));
  const float4* i4 = (const float4*)in; float4* o4 = (float4*)out; size_t n4 = n / 4;
#define CP(U, LD, ST, PER, TH) rep("copy U" #U " ld" #LD " st" #ST " " #PER "x" #TH, timeit([&] { k_copy<U, LD, ST><<<sms * PER, TH>>>(i4, o4, n4); }));
  CP(1, 0, 0, 8, 256); CP(4, 0, 0, 8, 256); CP(4, 1, 1, 8, 256); CP(4, 2, 2, 8, 256); CP(4, 3, 1, 8, 256);
  CP(4, 1, 3, 8, 256); CP(8, 1, 1, 4, 256); CP(2, 1, 1, 16, 256); CP(4, 1, 1, 2, 1024); CP(4, 1, 0, 8, 256);
#define CH(U, PER, TH) rep("chunk U" #U " " #PER "x" #TH, timeit([&] { k_chunk<U><<<sms * PER, TH>>>(i4, o4, n4); }));
  CH(4, 1, 1024); CH(4, 4, 256); CH(4, 8, 256); CH(8, 2, 512);
#define BULK(B, S, LP, SP) { auto k = k_bulk<B, S, LP, SP>; size_t sm = S * SLOTS * 4; \
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm)); \
    rep("bulk " #B "x" #S " lp" #LP " sp" #SP, timeit([&] { k<<<sms, B, sm>>>(in, out); })); }
  BULK(128, 5, 0, 0); BULK(128, 5, 1, 0); BULK(128, 5, 0, 1); BULK(128, 5, 1, 1);
  rep("cudaMemcpy D2D again", timeit([&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice); }));
  // 1 GiB memcpy and kernel, as the ceiling measures
  float *a, *b; size_t g = (size_t)1 << 28; CK(cudaMalloc(&a, g * 4)); CK(cudaMalloc(&b, g * 4));
  auto rep2 = [&](const char* name, float ms) { printf("%-40s %8.1f us  %7.1f GB/s\n", name, ms * 1e3, 2.0 * g * 4 / (ms * 1e-3) / 1e9); };
  rep2("1GiB cudaMemcpy D2D", timeit([&] { cudaMemcpyAsync(b, a, g * 4, cudaMemcpyDeviceToDevice); }));
  rep2("1GiB copy U4 ld1 st1 8x256", timeit([&] { k_copy<4, 1, 1><<<sms * 8, 256>>>((const float4*)a, (float4*)b, g / 4); }));
  return 0;
}
