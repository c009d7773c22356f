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

#include <array>
#include <cstdio>
#include <string>
#include <mutex>

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

}  // namespace tessera::spmv_impl
