// Step 7 — the vendor baseline: cudnnConvolutionForward (seed 000 "ConvNet":
// cuDNN as the reference, which chooses among GEMM with lazily generated
// unrolled input, Winograd and FFT), FP32 data and FP32 FMA math: the
// convolution descriptor's math type is CUDNN_FMA_MATH, so no tensor-core
// (TF32) kernel may run, and results of the search reported with tensor-op
// math are skipped.
//
// Per device and shape, once, outside any timed region (prepare): the
// descriptors, then cudnnFindConvolutionForwardAlgorithm runs every algorithm
// and returns them fastest first; the fastest successful non-tensor-op one is
// kept with its workspace size (cudnn_choice() names it for the bench note).
//
// Handles and streams: one cuDNN handle per device, created with a private
// stream that this file owns and never destroys. The handle is bound to the
// caller's stream only for the duration of one run (a guard rebinds it to the
// private stream on return, exception included), and the algorithm search
// runs on the private stream. So the handle never refers to a stream it does
// not own between calls: a caller may destroy its stream (the tests create
// one per test) and no later cuDNN call can touch it. Handles and streams
// live until the process ends (destroying them from a static destructor
// would run after the CUDA runtime has shut down). Calls are serialised by a
// mutex (a cuDNN handle is not thread-safe).
#include <cudnn.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "families/convnet/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"

namespace tessera::conv_impl {

namespace {

void check_cudnn(cudnnStatus_t status, const char* call, const ConvSpec& s) {
  if (status != CUDNN_STATUS_SUCCESS)
    throw Error(std::string(call) + " failed for the layer " + describe(s) + ": " + cudnnGetErrorString(status));
}
#define TESSERA_CUDNN(call, spec) check_cudnn((call), #call, (spec))

struct Plan {
  cudnnTensorDescriptor_t x, y;
  cudnnFilterDescriptor_t w;
  cudnnConvolutionDescriptor_t conv;
  cudnnConvolutionFwdAlgo_t algo;
  std::size_t workspace;
};

// A plan is per device (the algorithm found on it) and per shape.
using Key = std::tuple<int, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t,
                       std::size_t>;
Key key_of(int device, const ConvSpec& s) { return {device, s.n, s.c, s.h, s.w, s.m, s.k, s.pad, s.stride}; }

// A device's handle and the stream it rests on between runs.
struct DeviceHandle {
  cudnnHandle_t handle = nullptr;
  cudaStream_t home = nullptr;
};

struct State {
  std::mutex mutex;
  std::map<int, DeviceHandle> handles;  // by device ordinal
  std::map<Key, Plan> plans;            // descriptors are kept for the process's lifetime
};
State& state() {
  static State s;
  return s;
}

int current_device() {
  int device = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  return device;
}

// The current device's handle, made on first use and resting on its private
// stream; the caller holds the mutex.
DeviceHandle& handle_locked(State& st, int device, const ConvSpec& s) {
  DeviceHandle& h = st.handles[device];
  if (h.handle != nullptr) return h;
  cudaStream_t home = nullptr;
  TESSERA_CUDA(cudaStreamCreateWithFlags(&home, cudaStreamNonBlocking));
  cudnnHandle_t handle = nullptr;
  TESSERA_CUDNN(cudnnCreate(&handle), s);
  TESSERA_CUDNN(cudnnSetStream(handle, home), s);
  h.handle = handle;
  h.home = home;
  return h;
}

// Binds the handle to the caller's stream for one run and back to its own
// stream when the run returns or throws.
class StreamBinding {
 public:
  StreamBinding(const DeviceHandle& h, cudaStream_t stream, const ConvSpec& s) : h_(h) {
    TESSERA_CUDNN(cudnnSetStream(h_.handle, stream), s);
  }
  ~StreamBinding() { (void)cudnnSetStream(h_.handle, h_.home); }
  StreamBinding(const StreamBinding&) = delete;
  StreamBinding& operator=(const StreamBinding&) = delete;

 private:
  const DeviceHandle& h_;
};

const char* algo_name(cudnnConvolutionFwdAlgo_t a) {
  switch (a) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM: return "IMPLICIT_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: return "IMPLICIT_PRECOMP_GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM: return "GEMM";
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT: return "DIRECT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT: return "FFT";
    case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING: return "FFT_TILING";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: return "WINOGRAD";
    case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: return "WINOGRAD_NONFUSED";
    default: return "unknown";
  }
}

// The plan of `s` on the current device, made on first use (the search runs
// on the handle's private stream); the caller holds the mutex.
const Plan& plan_locked(State& st, const ConvSpec& s) {
  const int device = current_device();
  if (auto it = st.plans.find(key_of(device, s)); it != st.plans.end()) return it->second;
  const DeviceHandle& h = handle_locked(st, device, s);
  Plan p{};
  TESSERA_CUDNN(cudnnCreateTensorDescriptor(&p.x), s);
  TESSERA_CUDNN(cudnnCreateTensorDescriptor(&p.y), s);
  TESSERA_CUDNN(cudnnCreateFilterDescriptor(&p.w), s);
  TESSERA_CUDNN(cudnnCreateConvolutionDescriptor(&p.conv), s);
  TESSERA_CUDNN(cudnnSetTensor4dDescriptor(p.x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, int(s.n), int(s.c), int(s.h),
                                           int(s.w)),
                s);
  TESSERA_CUDNN(cudnnSetFilter4dDescriptor(p.w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, int(s.m), int(s.c), int(s.k),
                                           int(s.k)),
                s);
  TESSERA_CUDNN(cudnnSetTensor4dDescriptor(p.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, int(s.n), int(s.m), int(s.ho),
                                           int(s.wo)),
                s);
  TESSERA_CUDNN(cudnnSetConvolution2dDescriptor(p.conv, int(s.pad), int(s.pad), int(s.stride), int(s.stride), 1, 1,
                                                CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
                s);
  TESSERA_CUDNN(cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH), s);
  cudnnConvolutionFwdAlgoPerf_t results[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int returned = 0;
  TESSERA_CUDNN(cudnnFindConvolutionForwardAlgorithm(h.handle, p.x, p.w, p.conv, p.y,
                                                     CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, results),
                s);
  const cudnnConvolutionFwdAlgoPerf_t* best = nullptr;
  // The run uses the descriptor's math type (FMA); a result reported as
  // tensor-op math would not be the algorithm that runs, so it is skipped.
  for (int i = 0; i < returned && best == nullptr; ++i)
    if (results[i].status == CUDNN_STATUS_SUCCESS && results[i].mathType != CUDNN_TENSOR_OP_MATH &&
        results[i].mathType != CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)
      best = &results[i];
  // (fmt stays out of .cu files: nvcc rejects its compile-time format checks)
  require(best != nullptr, "cudnn: cudnnFindConvolutionForwardAlgorithm found no FP32 FMA-math algorithm for the layer " +
                               describe(s) + " (" + std::to_string(returned) + " results)");
  p.algo = best->algo;
  TESSERA_CUDNN(cudnnGetConvolutionForwardWorkspaceSize(h.handle, p.x, p.w, p.conv, p.y, p.algo, &p.workspace), s);
  return st.plans.emplace(key_of(device, s), p).first->second;
}

}  // namespace

bool supports_cudnn(const ConvSpec& s) { return fits_int32(s); }

void prepare_cudnn(const ConvSpec& s) {
  State& st = state();
  std::lock_guard lock(st.mutex);
  (void)plan_locked(st, s);
}

std::size_t ws_cudnn(const ConvSpec& s) {
  State& st = state();
  std::lock_guard lock(st.mutex);
  return plan_locked(st, s).workspace;
}

void run_cudnn(const ConvCall& call) {
  const ConvSpec& s = call.spec;
  State& st = state();
  std::lock_guard lock(st.mutex);
  const Plan& p = plan_locked(st, s);
  const DeviceHandle& h = st.handles.at(current_device());
  const float one = 1.0f, zero = 0.0f;
  const StreamBinding bound(h, call.stream, s);
  TESSERA_CUDNN(cudnnConvolutionForward(h.handle, &one, p.x, call.x, p.w, call.w, p.conv, p.algo, call.workspace,
                                        p.workspace, &zero, p.y, call.y),
                s);
}

std::string cudnn_choice(const ConvSpec& s) {
  State& st = state();
  std::lock_guard lock(st.mutex);
  const Plan& p = plan_locked(st, s);
  char text[96];
  std::snprintf(text, sizeof text, "cudnn algo %s, ws %.1f MB", algo_name(p.algo), double(p.workspace) / (1 << 20));
  return text;
}

}  // namespace tessera::conv_impl
