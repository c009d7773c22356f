// Experiment: the bound of SpMV on the bench's
// power-law matrix (docs/spmv.md, "The power-law bound"). Times, on the same
// matrix as `tessera bench spmv` (2,097,152 rows, mean 16, rows up to 3e5,
// seed 20261122), kernels that do part of an SpMV's work with perfect
// balance (every thread 4 consecutive nonzeros, no row logic):
//   stream      read offsets, columns and values once, coalesced (no x)
//   gather      read columns, gather x[col] (no values, no offsets)
//   gather_val  read columns and values, gather x[col]: an SpMV without rows
//   gather_seq  gather_val with col[k] = k mod cols (the same bytes, x read
//               in order: what the gather's scatter costs)
//   copy        a device copy of the bytes model's size (the ceiling)
// and cusparseSpMV (CSR, default algorithm, 32-bit offsets and columns as
// the cusparse rung gives it: cuSPARSE refuses 64-bit offsets with 32-bit
// columns) in the same run. Then the
// ordering-free idea: x kept in L2 (a persisting access-policy window over
// x, 8 MB in float, on a stream; the matrix arrays stream past it), timed for
// gather_val and cusparseSpMV on that stream (the *_l2 lines). Every kernel
// reduces per warp and writes one value a warp (the sums are kept, so
// nothing is optimised away). Times: median of 50 runs, cudaEvent.
//
// Built with the lab (lab/CMakeLists.txt); run from the build folder:
//   build/release/lab/lab_spmv_gather_bound [rows=2097152] [double=0]
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "families/spmv/matrices.hpp"

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e = (x);                                                                        \
    if (e != cudaSuccess) {                                                                     \
      std::printf("%s: %s line %d\n", #x, cudaGetErrorString(e), __LINE__);                     \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)
#define CS(x)                                                                                   \
  do {                                                                                          \
    cusparseStatus_t s = (x);                                                                   \
    if (s != CUSPARSE_STATUS_SUCCESS) {                                                         \
      std::printf("%s: cusparse status %d line %d\n", #x, int(s), __LINE__);                    \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

template <class T>
__device__ __forceinline__ void warp_write(T v, T* out) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0) out[(blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) / 32] = v;
}

// Offsets, columns and values, each read once with 16-byte loads.
template <class T>
__global__ void stream_kernel(const std::int64_t* off, std::int64_t rows, const int4* col, const T* val,
                              std::int64_t nnz, T* out) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  T sum = 0;
  if (4 * t + 4 <= nnz) {
    const int4 c = __ldg(col + t);
    sum += T(c.x + c.y + c.z + c.w);
    for (int j = 0; j < 4; ++j) sum += __ldg(val + 4 * t + j);
  }
  if (2 * t + 1 <= rows) sum += T(__ldg(off + 2 * t) + __ldg(off + 2 * t + 1));
  warp_write(sum, out);
}

// Columns read, x gathered (values too when WITH_VALUES).
template <class T, bool WITH_VALUES>
__global__ void gather_kernel(const int4* col, const T* val, const T* x, std::int64_t nnz, T* out) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  T sum = 0;
  if (4 * t + 4 <= nnz) {
    const int4 c = __ldg(col + t);
    const int cs[4] = {c.x, c.y, c.z, c.w};
#pragma unroll
    for (int j = 0; j < 4; ++j) sum += (WITH_VALUES ? __ldg(val + 4 * t + j) : T(1)) * __ldg(x + cs[j]);
  }
  warp_write(sum, out);
}

template <class F>
float median_ms(F&& f, cudaStream_t stream = nullptr) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int i = 0; i < 5; ++i) f();
  for (int i = 0; i < 50; ++i) {
    CK(cudaEventRecord(a, stream));
    f();
    CK(cudaEventRecord(b, stream));
    CK(cudaEventSynchronize(b));
    float t = 0;
    CK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class T>
void* up(const std::vector<T>& v) {
  void* p = nullptr;
  CK(cudaMalloc(&p, std::max<std::size_t>(v.size() * sizeof(T), 16)));
  CK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}

// The offsets narrowed to 32 bits for cuSPARSE (it takes one index size for
// offsets and columns), as the cusparse rung narrows them.
std::vector<std::int32_t> offsets_32(const std::vector<std::int64_t>& offsets) {
  if (!offsets.empty() && offsets.back() >= (std::int64_t(1) << 31)) {
    std::printf("nnz = %lld does not fit 32-bit offsets\n", (long long)offsets.back());
    std::exit(1);
  }
  return std::vector<std::int32_t>(offsets.begin(), offsets.end());
}

// col[k] = k mod cols: the gather's bytes with x read in order.
std::vector<std::int32_t> columns_in_order(std::int64_t nnz, std::int64_t cols) {
  std::vector<std::int32_t> out(static_cast<std::size_t>(nnz));
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = std::int32_t(std::int64_t(k) % cols);
  return out;
}

template <class T>
int run(std::int64_t rows) {
  namespace m = tessera::spmv_impl::matrices;
  const auto a = m::power_law<T>(rows, rows, 16.0, 300000, 20261122);
  const std::int64_t nnz = a.nnz();
  std::int64_t longest = 0;
  for (std::int64_t r = 0; r < rows; ++r) longest = std::max(longest, a.offsets[r + 1] - a.offsets[r]);
  std::vector<T> x(std::size_t(rows), T(1));
  const std::vector<std::int32_t> in_order = columns_in_order(nnz, rows);
  auto* off = static_cast<std::int64_t*>(up(a.offsets));
  auto* off32 = static_cast<std::int32_t*>(up(offsets_32(a.offsets)));
  auto* col = static_cast<std::int32_t*>(up(a.col));
  auto* col_seq = static_cast<std::int32_t*>(up(in_order));
  auto* val = static_cast<T*>(up(a.val));
  auto* dx = static_cast<T*>(up(x));
  T *dy = nullptr, *out = nullptr;
  CK(cudaMalloc(&dy, std::size_t(rows) * sizeof(T)));
  const std::int64_t threads = std::max((nnz + 3) / 4, (rows + 2) / 2);
  const unsigned blocks = unsigned((threads + 255) / 256);
  CK(cudaMalloc(&out, std::size_t(blocks) * 8 * sizeof(T)));
  const double s = sizeof(T);
  // The bytes model of the bench (64-bit offsets; cuSPARSE reads 4 bytes a row
  // less, under 3 % of it): x once, y written.
  const double model = double(nnz) * (s + 4) + 8.0 * double(rows + 1) + s * double(rows) * 2;
  char* c0 = nullptr;
  char* c1 = nullptr;
  CK(cudaMalloc(&c0, std::size_t(model)));
  CK(cudaMalloc(&c1, std::size_t(model)));

  const float copy = median_ms([&] { CK(cudaMemcpyAsync(c1, c0, std::size_t(model), cudaMemcpyDeviceToDevice)); });
  const float stream = median_ms([&] {
    stream_kernel<T><<<blocks, 256>>>(off, rows, reinterpret_cast<const int4*>(col), val, nnz, out);
  });
  const float gather = median_ms([&] {
    gather_kernel<T, false><<<blocks, 256>>>(reinterpret_cast<const int4*>(col), val, dx, nnz, out);
  });
  const float gather_val = median_ms([&] {
    gather_kernel<T, true><<<blocks, 256>>>(reinterpret_cast<const int4*>(col), val, dx, nnz, out);
  });
  const float gather_seq = median_ms([&] {
    gather_kernel<T, true><<<blocks, 256>>>(reinterpret_cast<const int4*>(col_seq), val, dx, nnz, out);
  });

  cusparseHandle_t h;
  CS(cusparseCreate(&h));
  const cudaDataType vt = sizeof(T) == 8 ? CUDA_R_64F : CUDA_R_32F;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t X, Y;
  CS(cusparseCreateCsr(&A, rows, rows, nnz, off32, col, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                       CUSPARSE_INDEX_BASE_ZERO, vt));
  CS(cusparseCreateDnVec(&X, rows, dx, vt));
  CS(cusparseCreateDnVec(&Y, rows, dy, vt));
  const T one = 1, zero = 0;
  std::size_t buffer_bytes = 0;
  CS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, vt, CUSPARSE_SPMV_ALG_DEFAULT,
                             &buffer_bytes));
  void* buffer = nullptr;
  CK(cudaMalloc(&buffer, std::max<std::size_t>(buffer_bytes, 16)));
  const float vendor = median_ms([&] {
    CS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, vt, CUSPARSE_SPMV_ALG_DEFAULT,
                    buffer));
  });

  // x persisting in L2: the largest window the device allows, over x.
  cudaStream_t l2;
  CK(cudaStreamCreateWithFlags(&l2, cudaStreamNonBlocking));
  int persist_max = 0, window_max = 0;
  CK(cudaDeviceGetAttribute(&persist_max, cudaDevAttrMaxPersistingL2CacheSize, 0));
  CK(cudaDeviceGetAttribute(&window_max, cudaDevAttrMaxAccessPolicyWindowSize, 0));
  const std::size_t x_bytes = std::size_t(rows) * sizeof(T);
  const std::size_t window = std::min<std::size_t>(x_bytes, std::size_t(window_max));
  CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, std::min<std::size_t>(window, std::size_t(persist_max))));
  cudaStreamAttrValue attr = {};
  attr.accessPolicyWindow.base_ptr = dx;
  attr.accessPolicyWindow.num_bytes = window;
  attr.accessPolicyWindow.hitRatio = std::min(1.0f, float(persist_max) / float(std::max<std::size_t>(window, 1)));
  attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CK(cudaStreamSetAttribute(l2, cudaStreamAttributeAccessPolicyWindow, &attr));
  const float gather_val_l2 = median_ms([&] {
    gather_kernel<T, true><<<blocks, 256, 0, l2>>>(reinterpret_cast<const int4*>(col), val, dx, nnz, out);
  }, l2);
  CS(cusparseSetStream(h, l2));
  const float vendor_l2 = median_ms([&] {
    CS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, vt, CUSPARSE_SPMV_ALG_DEFAULT,
                    buffer));
  }, l2);
  CK(cudaStreamSynchronize(l2));

  std::printf("power law %s: %lld rows, %lld nonzeros (mean %.2f, longest %lld); bytes model %.1f MB\n",
              sizeof(T) == 8 ? "double" : "float", (long long)rows, (long long)nnz, double(nnz) / double(rows),
              (long long)longest, model / 1e6);
  const auto line = [&](const char* what, float ms, double bytes) {
    std::printf("%-14s %8.4f ms  %7.0f GB/s own bytes  %5.1f %% of copy time  %5.2fx cusparse time\n", what, ms,
                bytes / (ms * 1e6), 100.0 * copy / ms, vendor / ms);
  };
  line("copy", copy, 2 * model);
  line("stream", stream, double(nnz) * (s + 4) + 8.0 * double(rows + 1));
  line("gather", gather, double(nnz) * 4);
  line("gather_val", gather_val, double(nnz) * (s + 4));
  line("gather_seq", gather_seq, double(nnz) * (s + 4));
  line("cusparse", vendor, model);
  std::printf("x persisting in L2: window %zu B of %zu, persisting limit %d B\n", window, x_bytes, persist_max);
  line("gather_val_l2", gather_val_l2, double(nnz) * (s + 4));
  line("cusparse_l2", vendor_l2, model);
  std::printf("2x cusparse = %.4f ms; the rowless gather with values takes %.4f ms (%s)\n", vendor / 2, gather_val,
              gather_val > vendor / 2 ? "2x is out of reach in CSR order" : "2x is not excluded by the gather");
  return 0;
}

int main(int argc, char** argv) {
  const std::int64_t rows = argc > 1 ? std::atoll(argv[1]) : 2097152;
  const bool dbl = argc > 2 && std::atoi(argv[2]) != 0;
  return dbl ? run<double>(rows) : run<float>(rows);
}
