// SpMV step 9 — the vendor baseline: cusparseSpMV on the CSR matrix with the
// default algorithm (CUSPARSE_SPMV_ALG_DEFAULT), float and double.
//
// Preparation (outside timing, like the format rungs): the cuSPARSE handle,
// the matrix descriptor and the external buffer. tessera's row offsets are
// 64-bit and its columns 32-bit; cuSPARSE's CSR takes one index type for
// both, so while nnz < 2^31 the plan keeps a 32-bit copy of the offsets
// (made on the GPU; its bytes are in the plan's footprint) and runs 32I/32I,
// the combination cuSPARSE is tuned for; past that, a 64-bit copy of the
// columns and 64I/64I.
//
// cuSPARSE refuses a CSR with more entries than cells (nnz > rows * cols:
// duplicate (row, col) entries, which CSR allows and every tessera rung
// sums): supports() declines such shapes, so the harness reports the rung
// "not run" with the reason (vendor_refuses_duplicates) instead of a failure.
//
// Every descriptor lives in an owner that destroys it exactly once, and is
// created into a local handle first: a failed create leaves nothing behind
// for a destructor to free (the plan's matrix is set only on success).
#include <cusparse.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "families/spmv/batched.hpp"
#include "families/spmv/common.cuh"
#include "families/spmv/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera::spmv_impl {

namespace {

void check_cusparse(cusparseStatus_t s, const char* call, const char* file, int line) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                cusparseGetErrorString(s) + " (" + std::to_string(int(s)) + ")");
}
#define TESSERA_CUSPARSE(call) check_cusparse((call), #call, __FILE__, __LINE__)

// One handle per device for the process, never destroyed (like the cuBLAS
// handle: destroying it from static destructors races the runtime's
// teardown); a run locks it and binds it to its stream.
struct HandleSlot {
  std::mutex mutex;
  cusparseHandle_t handle = nullptr;
};
HandleSlot& slot_of_current_device() {
  static std::array<HandleSlot, 64> slots;
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  require(device >= 0 && device < 64, "spmv/cusparse_spmv: device ordinal " + std::to_string(device) + " out of range");
  return slots[std::size_t(device)];
}

template <class From, class To>
__global__ void narrow_kernel(const From* __restrict__ in, std::int64_t n, To* __restrict__ out) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = To(in[i]);
}

cudaDataType value_type(Dtype t) { return t == Dtype::f64 ? CUDA_R_64F : CUDA_R_32F; }

// One sparse-matrix descriptor, destroyed once by its owner.
struct MatrixDescr {
  cusparseSpMatDescr_t handle = nullptr;
  MatrixDescr() = default;
  MatrixDescr(const MatrixDescr&) = delete;
  MatrixDescr& operator=(const MatrixDescr&) = delete;
  ~MatrixDescr() {
    if (handle != nullptr) (void)cusparseDestroySpMat(handle);
  }
};

// One dense-vector descriptor for the length of a call (or a query).
struct VectorDescr {
  cusparseDnVecDescr_t handle = nullptr;
  VectorDescr(std::int64_t n, void* data, cudaDataType vt, const char* what) {
    cusparseDnVecDescr_t made = nullptr;
    check_cusparse(cusparseCreateDnVec(&made, n, data, vt), what, __FILE__, __LINE__);
    handle = made;
  }
  VectorDescr(const VectorDescr&) = delete;
  VectorDescr& operator=(const VectorDescr&) = delete;
  ~VectorDescr() {
    if (handle != nullptr) (void)cusparseDestroyDnVec(handle);
  }
};

struct CusparsePlan : SpmvPlan {
  HandleSlot* slot = nullptr;
  DeviceBytes index_copy;  // 32-bit offsets (or 64-bit columns)
  DeviceBytes buffer;
  MatrixDescr matrix;
};

bool offsets_fit_32(const SpmvSpec& s) { return s.nnz < (std::int64_t(1) << 31) && s.rows < (std::int64_t(1) << 31); }

}  // namespace

std::unique_ptr<SpmvPlan> prepare_cusparse_spmv(const PrepareArgs& args) {
  const SpmvSpec& s = args.spec;
  require(!vendor_refuses_duplicates(s),
          "spmv/cusparse_spmv: " + std::to_string(s.nnz) + " entries in a " + std::to_string(s.rows) + " x " +
              std::to_string(s.cols) + " matrix: duplicate (row, col) entries, which cuSPARSE refuses (nnz > rows * "
              "cols); tessera's rungs sum them");
  auto plan = std::make_unique<CusparsePlan>();
  plan->slot = &slot_of_current_device();
  std::lock_guard<std::mutex> lock(plan->slot->mutex);
  if (plan->slot->handle == nullptr) TESSERA_CUSPARSE(cusparseCreate(&plan->slot->handle));
  const auto stream = static_cast<cudaStream_t>(args.stream);
  void* offsets = const_cast<std::int64_t*>(args.device.row_offsets);
  void* columns = const_cast<std::int32_t*>(args.device.col_indices);
  cusparseIndexType_t index = CUSPARSE_INDEX_64I;
  if (offsets_fit_32(s)) {
    plan->index_copy = DeviceBytes(std::size_t(s.rows + 1) * 4, "cusparse 32-bit row offsets");
    detail::launch("spmv_narrow_offsets_kernel", narrow_kernel<std::int64_t, std::int32_t>,
                   dim3(gpu::blocks_for(s.rows + 1, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, stream,
                   std::size_t(s.rows + 1), args.device.row_offsets, s.rows + 1,
                   static_cast<std::int32_t*>(plan->index_copy.data()));
    offsets = plan->index_copy.data();
    index = CUSPARSE_INDEX_32I;
  } else {
    plan->index_copy = DeviceBytes(std::size_t(s.nnz) * 8, "cusparse 64-bit columns");
    detail::launch("spmv_widen_columns_kernel", narrow_kernel<std::int32_t, std::int64_t>,
                   dim3(gpu::blocks_for(s.nnz, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, stream,
                   std::size_t(s.nnz), args.device.col_indices, s.nnz,
                   static_cast<std::int64_t*>(plan->index_copy.data()));
    columns = plan->index_copy.data();
  }
  // No matrix at all (no rows or no columns): nothing for cuSPARSE to do;
  // run() writes y = beta * y itself.
  if (s.rows == 0 || s.cols == 0) {
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    plan->note = "empty shape: y = beta * y without cuSPARSE";
    return plan;
  }
  const cudaDataType vt = value_type(s.dtype);
  // With no nonzeros the value and column pointers may be null: any valid
  // device address stands in (never read).
  void* placeholder = plan->index_copy.data();
  void* values = s.nnz > 0 ? const_cast<void*>(args.device.values) : placeholder;
  if (s.nnz == 0) columns = placeholder;
  // The kernels above write into index_copy: finished before a failure below
  // frees it.
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  cusparseSpMatDescr_t made = nullptr;
  TESSERA_CUSPARSE(cusparseCreateCsr(&made, s.rows, s.cols, s.nnz, offsets, columns, values, index, index,
                                     CUSPARSE_INDEX_BASE_ZERO, vt));
  plan->matrix.handle = made;
  // The buffer size depends on the shape and types only: the vectors of the
  // query point at the placeholder (never read).
  const VectorDescr vx(s.cols, placeholder, vt, "cusparseCreateDnVec(x query)");
  const VectorDescr vy(s.rows, placeholder, vt, "cusparseCreateDnVec(y query)");
  std::size_t bytes = 0;
  const double one_d = 1.0;
  const float one_f = 1.0f;
  const void* one = s.dtype == Dtype::f64 ? static_cast<const void*>(&one_d) : static_cast<const void*>(&one_f);
  TESSERA_CUSPARSE(cusparseSetStream(plan->slot->handle, stream));
  TESSERA_CUSPARSE(cusparseSpMV_bufferSize(plan->slot->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, one,
                                           plan->matrix.handle, vx.handle, one, vy.handle, vt,
                                           CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  plan->buffer = DeviceBytes(bytes, "cusparse SpMV buffer");
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  plan->footprint_bytes = csr_bytes(s) + plan->index_copy.bytes() + bytes;
  char note[160];
  std::snprintf(note, sizeof note, "csr %s, index copy %.1f MB + buffer %zu B: %.1f MB (%zu B)",
                index == CUSPARSE_INDEX_32I ? "32I" : "64I", double(plan->index_copy.bytes()) / 1e6, bytes,
                double(plan->footprint_bytes) / 1e6, plan->footprint_bytes);
  plan->note = note;
  return plan;
}

void run_cusparse_spmv(const SpmvCall& c) {
  const auto* plan = dynamic_cast<const CusparsePlan*>(c.plan);
  require(plan != nullptr, "spmv/cusparse_spmv: run without its prepared descriptor");
  const SpmvSpec& s = c.spec;
  if (s.rows == 0) return;
  if (plan->matrix.handle == nullptr) {  // no columns: A x is empty
    gpu::dispatch_value(s.dtype, "cusparse_spmv", [&]<class T>() {
      gpu::scale_rows<T>(nullptr, s.rows, static_cast<T*>(c.y), T(c.beta), c.stream);
    });
    return;
  }
  const cudaDataType vt = value_type(s.dtype);
  std::lock_guard<std::mutex> lock(plan->slot->mutex);
  cusparseHandle_t h = plan->slot->handle;
  TESSERA_CUSPARSE(cusparseSetStream(h, static_cast<cudaStream_t>(c.stream)));
  const VectorDescr vx(s.cols, const_cast<void*>(c.x), vt, "cusparseCreateDnVec(x)");
  const VectorDescr vy(s.rows, c.y, vt, "cusparseCreateDnVec(y)");
  const double alpha_d = c.alpha, beta_d = c.beta;
  const float alpha_f = float(c.alpha), beta_f = float(c.beta);
  const bool dbl = s.dtype == Dtype::f64;
  TESSERA_CUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                dbl ? static_cast<const void*>(&alpha_d) : &alpha_f, plan->matrix.handle, vx.handle,
                                dbl ? static_cast<const void*>(&beta_d) : &beta_f, vy.handle, vt,
                                CUSPARSE_SPMV_ALG_DEFAULT, plan->buffer.data()));
}
std::size_t ws_cusparse_spmv(const SpmvSpec&) { return 0; }
bool supports_cusparse_spmv(const SpmvSpec& s) { return gpu::csr_supports(s) && !vendor_refuses_duplicates(s); }


// ---- spmv_batched's vendor baseline, cusparse_loop: one cusparseSpMV per
// matrix. Prepared outside timing: a 32-bit copy of all the offsets, a
// descriptor per matrix and per x / y slice, one buffer of the largest size
// any matrix asks for (the calls run one after another on one stream), and
// the starts on the host. run() points each vector descriptor at its slice
// (cusparseDnVecSetValues, host only) and calls cusparseSpMV count times;
// matrices without entries or columns get y = beta * y by a kernel.
namespace batched {

namespace {

struct LoopPlan : BatchPlan {
  HandleSlot* slot = nullptr;
  DeviceBytes offsets32;
  DeviceBytes buffer;
  std::vector<std::int64_t> rs, cs, ns;
  std::vector<std::unique_ptr<MatrixDescr>> matrices;  // null: no product (y = beta * y)
  std::vector<std::unique_ptr<VectorDescr>> xs, ys;
};

std::vector<std::int64_t> host_copy(const std::int64_t* host, const std::int64_t* device, std::int64_t n) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(n));
  if (host != nullptr) std::copy(host, host + n, out.begin());
  else TESSERA_CUDA(cudaMemcpy(out.data(), device, std::size_t(n) * 8, cudaMemcpyDeviceToHost));
  return out;
}

}  // namespace

std::unique_ptr<BatchPlan> prepare_cusparse_loop(const BatchSpec& s, const BatchArrays& host,
                                                 const BatchArrays& device, stream_t stream_arg) {
  const auto stream = static_cast<cudaStream_t>(stream_arg);
  auto plan = std::make_unique<LoopPlan>();
  plan->slot = &slot_of_current_device();
  std::lock_guard<std::mutex> lock(plan->slot->mutex);
  if (plan->slot->handle == nullptr) TESSERA_CUSPARSE(cusparseCreate(&plan->slot->handle));
  plan->rs = host_copy(host.row_starts, device.row_starts, s.count + 1);
  plan->cs = host_copy(host.col_starts, device.col_starts, s.count + 1);
  plan->ns = host_copy(host.nnz_starts, device.nnz_starts, s.count + 1);
  const std::int64_t n_off = s.rows + s.count;
  plan->offsets32 = DeviceBytes(std::size_t(std::max<std::int64_t>(n_off, 1)) * 4, "cusparse_loop 32-bit offsets");
  auto* off32 = static_cast<std::int32_t*>(plan->offsets32.data());
  if (n_off > 0)
    detail::launch("spmv_narrow_offsets_kernel", narrow_kernel<std::int64_t, std::int32_t>,
                   dim3(gpu::blocks_for(n_off, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, stream,
                   std::size_t(n_off), device.row_offsets, n_off, off32);
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  const cudaDataType vt = value_type(s.dtype);
  const double one_d = 1.0;
  const float one_f = 1.0f;
  const void* one = s.dtype == Dtype::f64 ? static_cast<const void*>(&one_d) : static_cast<const void*>(&one_f);
  void* placeholder = plan->offsets32.data();
  TESSERA_CUSPARSE(cusparseSetStream(plan->slot->handle, stream));
  std::size_t most = 0;
  const std::size_t vb = value_bytes(s.dtype);
  for (std::int64_t b = 0; b < s.count; ++b) {
    const std::int64_t rows = plan->rs[b + 1] - plan->rs[b], cols = plan->cs[b + 1] - plan->cs[b];
    const std::int64_t nnz = plan->ns[b + 1] - plan->ns[b];
    const std::string which = "spmv_batched/cusparse_loop: matrix " + std::to_string(b) + " has " +
                              std::to_string(nnz) + " entries";
    if (nnz >= (std::int64_t(1) << 31)) throw Error(which + "; the loop's 32-bit offsets take fewer than 2^31");
    if (rows > 0 && cols > 0 && nnz > rows * cols)
      throw Error(which + " in " + std::to_string(rows) + " x " + std::to_string(cols) +
                  " cells: duplicate (row, col) entries, which cuSPARSE refuses");
    plan->matrices.emplace_back();
    plan->xs.emplace_back();
    plan->ys.emplace_back();
    if (rows == 0 || cols == 0 || nnz == 0) continue;
    auto m = std::make_unique<MatrixDescr>();
    cusparseSpMatDescr_t made = nullptr;
    TESSERA_CUSPARSE(cusparseCreateCsr(
        &made, rows, cols, nnz, off32 + plan->rs[b] + b,
        const_cast<std::int32_t*>(device.col_indices) + plan->ns[b],
        const_cast<unsigned char*>(static_cast<const unsigned char*>(device.values)) + std::size_t(plan->ns[b]) * vb,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
    m->handle = made;
    auto vx = std::make_unique<VectorDescr>(cols, placeholder, vt, "cusparseCreateDnVec(x slice)");
    auto vy = std::make_unique<VectorDescr>(rows, placeholder, vt, "cusparseCreateDnVec(y slice)");
    std::size_t bytes = 0;
    TESSERA_CUSPARSE(cusparseSpMV_bufferSize(plan->slot->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, one, m->handle,
                                             vx->handle, one, vy->handle, vt, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    most = std::max(most, bytes);
    plan->matrices.back() = std::move(m);
    plan->xs.back() = std::move(vx);
    plan->ys.back() = std::move(vy);
  }
  plan->buffer = DeviceBytes(std::max<std::size_t>(most, 16), "cusparse_loop SpMV buffer");
  char note[160];
  std::snprintf(note, sizeof note, "%lld cuSPARSE descriptors, 32-bit offsets %.1f MB, shared buffer %zu B",
                static_cast<long long>(s.count), double(plan->offsets32.bytes()) / 1e6, most);
  plan->note = note;
  return plan;
}

void run_cusparse_loop(const BatchCall& c) {
  const auto* plan = dynamic_cast<const LoopPlan*>(c.plan);
  require(plan != nullptr, "spmv_batched/cusparse_loop: run without its prepared descriptors");
  const BatchSpec& s = c.spec;
  const auto stream = static_cast<cudaStream_t>(c.stream);
  const cudaDataType vt = value_type(s.dtype);
  const std::size_t vb = value_bytes(s.dtype);
  const double alpha_d = c.alpha, beta_d = c.beta;
  const float alpha_f = float(c.alpha), beta_f = float(c.beta);
  const bool dbl = s.dtype == Dtype::f64;
  std::lock_guard<std::mutex> lock(plan->slot->mutex);
  cusparseHandle_t h = plan->slot->handle;
  TESSERA_CUSPARSE(cusparseSetStream(h, stream));
  auto* y = static_cast<unsigned char*>(c.y);
  auto* x = static_cast<unsigned char*>(const_cast<void*>(c.x));
  for (std::int64_t b = 0; b < s.count; ++b) {
    const std::int64_t rows = plan->rs[b + 1] - plan->rs[b];
    if (rows == 0) continue;
    void* yb = y + std::size_t(plan->rs[b]) * vb;
    if (!plan->matrices[std::size_t(b)]) {
      gpu::dispatch_value(s.dtype, "cusparse_loop",
                          [&]<class T>() { gpu::scale_rows<T>(nullptr, rows, static_cast<T*>(yb), T(c.beta), stream); });
      continue;
    }
    TESSERA_CUSPARSE(cusparseDnVecSetValues(plan->xs[std::size_t(b)]->handle, x + std::size_t(plan->cs[b]) * vb));
    TESSERA_CUSPARSE(cusparseDnVecSetValues(plan->ys[std::size_t(b)]->handle, yb));
    TESSERA_CUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                  dbl ? static_cast<const void*>(&alpha_d) : &alpha_f,
                                  plan->matrices[std::size_t(b)]->handle, plan->xs[std::size_t(b)]->handle,
                                  dbl ? static_cast<const void*>(&beta_d) : &beta_f, plan->ys[std::size_t(b)]->handle,
                                  vt, CUSPARSE_SPMV_ALG_DEFAULT, plan->buffer.data()));
  }
}

// ---- spmv_batched's second vendor baseline, cusparse_strided: cuSPARSE's
// own batch, for batches whose matrices share one shape (the same rows,
// columns and entries: a same-pattern batch). One CSR descriptor over the
// first matrix with cusparseCsrSetStridedBatch (offsets every rows + 1,
// columns and values every nnz: the batch layout's strides when the shapes
// agree), x and y as one-column dense matrices with cusparseDnMatSetStridedBatch
// (cuSPARSE 12 has no strided dense vector, so the batched product is
// cusparseSpMM with n = 1), one call. Prepared outside timing; a batch of
// unequal shapes is refused with the first matrix that differs.
struct DenseDescr {
  cusparseDnMatDescr_t handle = nullptr;
  DenseDescr(std::int64_t rows, void* data, cudaDataType vt, std::int64_t count, const char* what) {
    cusparseDnMatDescr_t made = nullptr;
    check_cusparse(cusparseCreateDnMat(&made, rows, 1, std::max<std::int64_t>(rows, 1), data, vt, CUSPARSE_ORDER_COL),
                   what, __FILE__, __LINE__);
    handle = made;
    check_cusparse(cusparseDnMatSetStridedBatch(handle, int(count), rows), what, __FILE__, __LINE__);
  }
  DenseDescr(const DenseDescr&) = delete;
  DenseDescr& operator=(const DenseDescr&) = delete;
  ~DenseDescr() {
    if (handle != nullptr) (void)cusparseDestroyDnMat(handle);
  }
};

struct StridedPlan : BatchPlan {
  HandleSlot* slot = nullptr;
  DeviceBytes offsets32, buffer;
  MatrixDescr matrix;
  std::unique_ptr<DenseDescr> x, y;
  std::int64_t rows = 0;  // each matrix's
  bool product = false;   // false: no entries (y = beta * y)
};

std::unique_ptr<BatchPlan> prepare_cusparse_strided(const BatchSpec& s, const BatchArrays& host,
                                                    const BatchArrays& device, stream_t stream_arg) {
  const auto stream = static_cast<cudaStream_t>(stream_arg);
  const std::vector<std::int64_t> rs = host_copy(host.row_starts, device.row_starts, s.count + 1);
  const std::vector<std::int64_t> cs = host_copy(host.col_starts, device.col_starts, s.count + 1);
  const std::vector<std::int64_t> ns = host_copy(host.nnz_starts, device.nnz_starts, s.count + 1);
  for (std::int64_t b = 1; b < s.count; ++b)
    if (rs[b + 1] - rs[b] != rs[1] || cs[b + 1] - cs[b] != cs[1] || ns[b + 1] - ns[b] != ns[1])
      throw Error("spmv_batched/cusparse_strided: matrix " + std::to_string(b) + " is " +
                  std::to_string(rs[b + 1] - rs[b]) + " x " + std::to_string(cs[b + 1] - cs[b]) + " with " +
                  std::to_string(ns[b + 1] - ns[b]) + " entries, matrix 0 " + std::to_string(rs[1]) + " x " +
                  std::to_string(cs[1]) + " with " + std::to_string(ns[1]) +
                  ": cuSPARSE's strided batch needs one shape for the whole batch (batched_nnz_split does not)");
  auto plan = std::make_unique<StridedPlan>();
  plan->slot = &slot_of_current_device();
  std::lock_guard<std::mutex> lock(plan->slot->mutex);
  if (plan->slot->handle == nullptr) TESSERA_CUSPARSE(cusparseCreate(&plan->slot->handle));
  const std::int64_t rows = s.count > 0 ? rs[1] : 0, cols = s.count > 0 ? cs[1] : 0, nnz = s.count > 0 ? ns[1] : 0;
  plan->rows = rows;
  if (nnz >= (std::int64_t(1) << 31) || s.rows + s.count >= (std::int64_t(1) << 31))
    throw Error("spmv_batched/cusparse_strided: the batch's 32-bit offsets need fewer than 2^31 of them");
  if (rows > 0 && cols > 0 && nnz > rows * cols)
    throw Error("spmv_batched/cusparse_strided: " + std::to_string(nnz) + " entries in " + std::to_string(rows) +
                " x " + std::to_string(cols) + " cells: duplicate (row, col) entries, which cuSPARSE refuses");
  plan->product = s.count > 0 && rows > 0 && cols > 0 && nnz > 0;
  char note[160];
  if (!plan->product) {
    plan->note = "no entries: y = beta * y";
    return plan;
  }
  const std::int64_t n_off = s.rows + s.count;
  plan->offsets32 = DeviceBytes(std::size_t(n_off) * 4, "cusparse_strided 32-bit offsets");
  auto* off32 = static_cast<std::int32_t*>(plan->offsets32.data());
  detail::launch("spmv_narrow_offsets_kernel", narrow_kernel<std::int64_t, std::int32_t>,
                 dim3(gpu::blocks_for(n_off, gpu::BLOCK_THREADS)), dim3(gpu::BLOCK_THREADS), 0, stream,
                 std::size_t(n_off), device.row_offsets, n_off, off32);
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  const cudaDataType vt = value_type(s.dtype);
  cusparseSpMatDescr_t made = nullptr;
  TESSERA_CUSPARSE(cusparseCreateCsr(&made, rows, cols, nnz, off32, const_cast<std::int32_t*>(device.col_indices),
                                     const_cast<void*>(device.values), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, vt));
  plan->matrix.handle = made;
  TESSERA_CUSPARSE(cusparseCsrSetStridedBatch(plan->matrix.handle, int(s.count), rows + 1, nnz));
  void* placeholder = plan->offsets32.data();
  plan->x = std::make_unique<DenseDescr>(cols, placeholder, vt, s.count, "cusparseCreateDnMat(x batch)");
  plan->y = std::make_unique<DenseDescr>(rows, placeholder, vt, s.count, "cusparseCreateDnMat(y batch)");
  const double one_d = 1.0;
  const float one_f = 1.0f;
  const void* one = s.dtype == Dtype::f64 ? static_cast<const void*>(&one_d) : static_cast<const void*>(&one_f);
  TESSERA_CUSPARSE(cusparseSetStream(plan->slot->handle, stream));
  std::size_t bytes = 0;
  TESSERA_CUSPARSE(cusparseSpMM_bufferSize(plan->slot->handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           CUSPARSE_OPERATION_NON_TRANSPOSE, one, plan->matrix.handle, plan->x->handle,
                                           one, plan->y->handle, vt, CUSPARSE_SPMM_CSR_ALG1, &bytes));
  plan->buffer = DeviceBytes(std::max<std::size_t>(bytes, 16), "cusparse_strided SpMM buffer");
  std::snprintf(note, sizeof note,
                "one strided descriptor for %lld matrices of %lld x %lld (%lld entries), buffer %zu B",
                static_cast<long long>(s.count), static_cast<long long>(rows), static_cast<long long>(cols),
                static_cast<long long>(nnz), bytes);
  plan->note = note;
  return plan;
}

void run_cusparse_strided(const BatchCall& c) {
  const auto* plan = dynamic_cast<const StridedPlan*>(c.plan);
  require(plan != nullptr, "spmv_batched/cusparse_strided: run without its prepared descriptors");
  const BatchSpec& s = c.spec;
  const auto stream = static_cast<cudaStream_t>(c.stream);
  if (!plan->product) {
    if (s.rows > 0)
      gpu::dispatch_value(s.dtype, "cusparse_strided", [&]<class T>() {
        gpu::scale_rows<T>(nullptr, s.rows, static_cast<T*>(c.y), T(c.beta), stream);
      });
    return;
  }
  const double alpha_d = c.alpha, beta_d = c.beta;
  const float alpha_f = float(c.alpha), beta_f = float(c.beta);
  const bool dbl = s.dtype == Dtype::f64;
  std::lock_guard<std::mutex> lock(plan->slot->mutex);
  cusparseHandle_t h = plan->slot->handle;
  TESSERA_CUSPARSE(cusparseSetStream(h, stream));
  TESSERA_CUSPARSE(cusparseDnMatSetValues(plan->x->handle, const_cast<void*>(c.x)));
  TESSERA_CUSPARSE(cusparseDnMatSetValues(plan->y->handle, c.y));
  TESSERA_CUSPARSE(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                dbl ? static_cast<const void*>(&alpha_d) : &alpha_f, plan->matrix.handle,
                                plan->x->handle, dbl ? static_cast<const void*>(&beta_d) : &beta_f, plan->y->handle,
                                value_type(s.dtype), CUSPARSE_SPMM_CSR_ALG1, plan->buffer.data()));
}

}  // namespace batched

}  // namespace tessera::spmv_impl
