// cuFFT loaded on its first call, not at program start, like cuBLAS
// (src/core/cublas_lazy.cpp says why: a large library's load and static
// set-up would be paid by every `tessera` command, `tessera --help`
// included). libtessera defines the few cuFFT entry points the FFT rungs
// call and forwards each to the real one in libcufft.so.MAJOR (of the
// headers built against), found with dlopen/dlsym on first use. Where the
// library cannot be loaded the calls return CUFFT_SETUP_FAILED, which the
// rungs report with the call's name. A rung that calls another cuFFT
// function adds it here (the link of libtessera fails without it:
// -Wl,--no-undefined).
#if TESSERA_HAVE_CUDA
#include <cufft.h>
#include <dlfcn.h>

#include <string>

namespace {

void* cufft_library() {
  static void* const handle = [] {
    const std::string name = "libcufft.so." + std::to_string(CUFFT_VER_MAJOR);
    return ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  }();
  return handle;
}

template <class Fn>
Fn real(const char* name) {
  void* lib = cufft_library();
  return lib == nullptr ? nullptr : reinterpret_cast<Fn>(::dlsym(lib, name));
}

}  // namespace

#define TESSERA_CUFFT_FORWARD(fn, params, args)                  \
  extern "C" cufftResult CUFFTAPI fn params {                   \
    static const auto target = real<decltype(&fn)>(#fn);        \
    return target == nullptr ? CUFFT_SETUP_FAILED : target args; \
  }

TESSERA_CUFFT_FORWARD(cufftCreate, (cufftHandle * plan), (plan))
TESSERA_CUFFT_FORWARD(cufftSetAutoAllocation, (cufftHandle plan, int auto_allocate), (plan, auto_allocate))
TESSERA_CUFFT_FORWARD(cufftMakePlanMany64,
                      (cufftHandle plan, int rank, long long int* n, long long int* inembed, long long int istride,
                       long long int idist, long long int* onembed, long long int ostride, long long int odist,
                       cufftType type, long long int batch, size_t* work_size),
                      (plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, work_size))
TESSERA_CUFFT_FORWARD(cufftSetWorkArea, (cufftHandle plan, void* work_area), (plan, work_area))
TESSERA_CUFFT_FORWARD(cufftSetStream, (cufftHandle plan, cudaStream_t stream), (plan, stream))
TESSERA_CUFFT_FORWARD(cufftExecR2C, (cufftHandle plan, cufftReal* idata, cufftComplex* odata), (plan, idata, odata))
TESSERA_CUFFT_FORWARD(cufftExecC2R, (cufftHandle plan, cufftComplex* idata, cufftReal* odata), (plan, idata, odata))
TESSERA_CUFFT_FORWARD(cufftDestroy, (cufftHandle plan), (plan))

#endif  // TESSERA_HAVE_CUDA
