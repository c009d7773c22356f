// Step 7 — the vendor baseline: cudnnConvolutionForward (seed 000 "ConvNet":
// cuDNN as the reference, which chooses among GEMM with lazily generated
// unrolled input, Winograd and FFT), FP32 data and FP32 FMA math: the
// convolution descriptor's math type is CUDNN_FMA_MATH, so no tensor-core
// (TF32) kernel may run, and results of the search reported with tensor-op
// math are skipped.
//
// Per shape, once, outside any timed region (prepare): the descriptors, then
// cudnnFindConvolutionForwardAlgorithm runs every algorithm and returns them
// fastest first; the fastest successful non-tensor-op one is kept with its
// workspace size.
// A run sets the handle's stream and enqueues the convolution with the
// call's workspace (allocated by the caller, outside timing). One handle per
// process on the device current at the first prepare; calls are serialised
// by a mutex (a cuDNN handle is not thread-safe).
#include <cudnn.h>

#include <map>
#include <string>
#include <mutex>
#include <tuple>

#include "families/convnet/cuda_rungs.hpp"
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

using Key = std::tuple<std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t,
                       std::size_t>;
Key key_of(const ConvSpec& s) { return {s.n, s.c, s.h, s.w, s.m, s.k, s.pad, s.stride}; }

struct State {
  std::mutex mutex;
  cudnnHandle_t handle = nullptr;
  std::map<Key, Plan> plans;  // descriptors are kept for the process's lifetime
};
State& state() {
  static State s;
  return s;
}

// The plan of `s`, made on first use; the caller holds the mutex.
const Plan& plan_locked(State& st, const ConvSpec& s) {
  if (auto it = st.plans.find(key_of(s)); it != st.plans.end()) return it->second;
  if (st.handle == nullptr) TESSERA_CUDNN(cudnnCreate(&st.handle), s);
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
  TESSERA_CUDNN(cudnnFindConvolutionForwardAlgorithm(st.handle, p.x, p.w, p.conv, p.y,
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
  TESSERA_CUDNN(cudnnGetConvolutionForwardWorkspaceSize(st.handle, p.x, p.w, p.conv, p.y, p.algo, &p.workspace), s);
  return st.plans.emplace(key_of(s), p).first->second;
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
  const float one = 1.0f, zero = 0.0f;
  TESSERA_CUDNN(cudnnSetStream(st.handle, call.stream), s);
  TESSERA_CUDNN(cudnnConvolutionForward(st.handle, &one, p.x, call.x, p.w, call.w, p.conv, p.algo, call.workspace,
                                        p.workspace, &zero, p.y, call.y),
                s);
}

}  // namespace tessera::conv_impl
