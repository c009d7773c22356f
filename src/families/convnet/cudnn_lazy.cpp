// cuDNN loaded on its first call, not at program start (as cuBLAS is:
// src/core/cublas_lazy.cpp says why). libtessera defines the few cuDNN entry
// points the convnet baseline calls and forwards each to the real one in
// libcudnn.so.MAJOR (the shim that loads cuDNN's sub-libraries itself), found
// with dlopen/dlsym on first use. Where it cannot be loaded, the calls return
// CUDNN_STATUS_NOT_INITIALIZED, which 06_cudnn.cu reports with the call's
// name. The baseline calling another cuDNN function adds it here (the link
// of libtessera fails without it: -Wl,--no-undefined).
#if TESSERA_HAVE_CUDA
#include <cudnn.h>
#include <dlfcn.h>

#include <string>

namespace {

void* cudnn_library() {
  static void* const handle = [] {
    const std::string name = "libcudnn.so." + std::to_string(CUDNN_MAJOR);
    return ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  }();
  return handle;
}

template <class Fn>
Fn real(const char* name) {
  void* lib = cudnn_library();
  return lib == nullptr ? nullptr : reinterpret_cast<Fn>(::dlsym(lib, name));
}

}  // namespace

#define TESSERA_CUDNN_FORWARD(fn, params, args)                             \
  extern "C" cudnnStatus_t CUDNNWINAPI fn params {                         \
    static const auto target = real<decltype(&fn)>(#fn);                  \
    return target == nullptr ? CUDNN_STATUS_NOT_INITIALIZED : target args; \
  }

TESSERA_CUDNN_FORWARD(cudnnCreate, (cudnnHandle_t * handle), (handle))
TESSERA_CUDNN_FORWARD(cudnnSetStream, (cudnnHandle_t handle, cudaStream_t stream), (handle, stream))
TESSERA_CUDNN_FORWARD(cudnnCreateTensorDescriptor, (cudnnTensorDescriptor_t * d), (d))
TESSERA_CUDNN_FORWARD(cudnnSetTensor4dDescriptor,
                      (cudnnTensorDescriptor_t d, cudnnTensorFormat_t format, cudnnDataType_t type, int n, int c,
                       int h, int w),
                      (d, format, type, n, c, h, w))
TESSERA_CUDNN_FORWARD(cudnnCreateFilterDescriptor, (cudnnFilterDescriptor_t * d), (d))
TESSERA_CUDNN_FORWARD(cudnnSetFilter4dDescriptor,
                      (cudnnFilterDescriptor_t d, cudnnDataType_t type, cudnnTensorFormat_t format, int k, int c,
                       int h, int w),
                      (d, type, format, k, c, h, w))
TESSERA_CUDNN_FORWARD(cudnnCreateConvolutionDescriptor, (cudnnConvolutionDescriptor_t * d), (d))
TESSERA_CUDNN_FORWARD(cudnnSetConvolution2dDescriptor,
                      (cudnnConvolutionDescriptor_t d, int pad_h, int pad_w, int u, int v, int dilation_h,
                       int dilation_w, cudnnConvolutionMode_t mode, cudnnDataType_t compute_type),
                      (d, pad_h, pad_w, u, v, dilation_h, dilation_w, mode, compute_type))
TESSERA_CUDNN_FORWARD(cudnnSetConvolutionMathType, (cudnnConvolutionDescriptor_t d, cudnnMathType_t math),
                      (d, math))
TESSERA_CUDNN_FORWARD(cudnnFindConvolutionForwardAlgorithm,
                      (cudnnHandle_t handle, const cudnnTensorDescriptor_t x, const cudnnFilterDescriptor_t w,
                       const cudnnConvolutionDescriptor_t conv, const cudnnTensorDescriptor_t y, const int requested,
                       int* returned, cudnnConvolutionFwdAlgoPerf_t* results),
                      (handle, x, w, conv, y, requested, returned, results))
TESSERA_CUDNN_FORWARD(cudnnGetConvolutionForwardWorkspaceSize,
                      (cudnnHandle_t handle, const cudnnTensorDescriptor_t x, const cudnnFilterDescriptor_t w,
                       const cudnnConvolutionDescriptor_t conv, const cudnnTensorDescriptor_t y,
                       cudnnConvolutionFwdAlgo_t algo, size_t* bytes),
                      (handle, x, w, conv, y, algo, bytes))
TESSERA_CUDNN_FORWARD(cudnnConvolutionForward,
                      (cudnnHandle_t handle, const void* alpha, const cudnnTensorDescriptor_t x_desc, const void* x,
                       const cudnnFilterDescriptor_t w_desc, const void* w, const cudnnConvolutionDescriptor_t conv,
                       cudnnConvolutionFwdAlgo_t algo, void* workspace, size_t workspace_bytes, const void* beta,
                       const cudnnTensorDescriptor_t y_desc, void* y),
                      (handle, alpha, x_desc, x, w_desc, w, conv, algo, workspace, workspace_bytes, beta, y_desc, y))

#undef TESSERA_CUDNN_FORWARD

// The status texts: used on error paths, where the library may be missing.
extern "C" const char* CUDNNWINAPI cudnnGetErrorString(cudnnStatus_t status) {
  static const auto target = real<decltype(&cudnnGetErrorString)>("cudnnGetErrorString");
  return target != nullptr ? target(status) : "cuDNN library (libcudnn) could not be loaded";
}

#endif  // TESSERA_HAVE_CUDA
