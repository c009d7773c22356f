// The GPU path: each batch is uploaded from a pinned staging buffer into one
// device buffer (reused by every batch), scanned in place with
// tessera::batched_scan on a stream of its own, and downloaded.
//
// Every row starts 16-byte aligned on the device (a pitch of len rounded up
// to 4 floats): the GPU rungs cut a row into per-thread items from its first
// 16-byte-aligned sample (tile_io.cuh), so a row's summation order, and its
// float result, depends on the row's alignment. Packed at pitch len, row r of
// a batch sits at r * len floats: with len % 4 != 0 the same trace got a
// different alignment, and different last bits, in batches of different
// sizes. At the aligned pitch a row's arithmetic depends on len alone: the
// output is the same byte for byte whatever the batching. The copies
// are not overlapped with the scan: at ~25 GB/s each way PCIe is far faster
// than the file I/O the pipeline overlaps it with (engine.hpp).
//
// The GPU's start (the driver's initialisation, then the context: 0.1-0.3 s
// on an H200 machine, the largest fixed cost of a run) runs on a thread of
// its own from start_gpu(), while the input is opened and its first batches
// are read; prepare() waits for it. Staging buffers are plain host memory,
// pinned in place (cudaHostRegister) once the context exists.
#include <fmt/format.h>

#include <dlfcn.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine.hpp"

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <algorithm>

#include "tessera/batched_scan.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"
#endif

namespace tessera::traces {

// Only asks the dynamic loader: RTLD_NOLOAD finds the library when this
// process already loaded it and never loads it. The CUDA runtime loads
// libcuda on its first call, whatever that call is.
bool cuda_driver_loaded() noexcept {
  void* h = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (h == nullptr) h = ::dlopen("libcuda.so", RTLD_LAZY | RTLD_NOLOAD);
  if (h == nullptr) return false;
  ::dlclose(h);
  return true;
}

#if TESSERA_HAVE_CUDA
namespace {

// The GPU's start, once per process. Never destroyed: the thread may outlive
// any scope (finish_gpu_start() waits for it where that matters).
class GpuStart {
 public:
  void start() {
    std::call_once(once_, [this] {
      {
        std::lock_guard lk(m_);
        started_ = true;
      }
      std::thread([this] { run(); }).detach();
    });
  }
  bool present() {
    start();
    std::unique_lock lk(m_);
    cv_.wait(lk, [&] { return counted_; });
    return present_;
  }
  // Waits for the context; throws when it could not be created.
  void wait_ready() {
    start();
    std::unique_lock lk(m_);
    cv_.wait(lk, [&] { return done_; });
    if (!error_.empty()) throw Error(error_);
  }
  void wait_if_started() noexcept {
    std::unique_lock lk(m_);
    if (!started_) return;
    cv_.wait(lk, [&] { return done_; });
  }
  std::vector<Phase> phases() {
    std::lock_guard lk(m_);
    return done_ ? phases_ : std::vector<Phase>{};
  }

 private:
  void run() {
    const double t0 = seconds_since_start();
    const bool present = detail::cuda_device_available();  // cuInit, device count
    const double t1 = seconds_since_start();
    {
      std::lock_guard lk(m_);
      counted_ = true;
      present_ = present;
      phases_.push_back({"GPU start: driver and device count (background)", -1, t0, t1});
    }
    cv_.notify_all();
    std::string error;
    if (present) {
      // cudaFree(0) creates the primary context of the current device.
      const cudaError_t e = cudaFree(nullptr);
      if (e != cudaSuccess) {
        (void)cudaGetLastError();
        error = fmt::format("the GPU's context could not be created: {} ({})", cudaGetErrorString(e),
                            cudaGetErrorName(e));
      }
    }
    const double t2 = seconds_since_start();
    {
      std::lock_guard lk(m_);
      if (present) phases_.push_back({"GPU start: context (background)", -1, t1, t2});
      error_ = std::move(error);
      done_ = true;
    }
    cv_.notify_all();
  }

  std::once_flag once_;
  std::mutex m_;
  std::condition_variable cv_;
  bool started_ = false, counted_ = false, present_ = false, done_ = false;
  std::string error_;
  std::vector<Phase> phases_;
};

GpuStart& gpu_start() {
  static auto* s = new GpuStart;  // never destroyed: see GpuStart
  return *s;
}

class DeviceScan final : public Compute {
 public:
  explicit DeviceScan(const TraceScanOptions& scan) : opt_(scan) {}
  ~DeviceScan() override {
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
  }
  DeviceScan(const DeviceScan&) = delete;
  DeviceScan& operator=(const DeviceScan&) = delete;

  void prepare(std::size_t batch_traces, std::size_t len, PhaseLog& log) override {
    {
      ScopedPhase p(log, "wait for the GPU's context");
      gpu_start().wait_ready();
    }
    ScopedPhase p(log, "device buffer, stream, probe scan");
    int dev = 0;
    TESSERA_CUDA(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    TESSERA_CUDA(cudaGetDeviceProperties(&prop, dev));
    name_ = prop.name;
    TESSERA_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    pitch_ = (len + 3) / 4 * 4;  // every row 16-byte aligned: see the top of this file
    d_ = DeviceBuffer<float>(batch_traces * pitch_, "a batch of traces");
    d_.fill_bytes(0, stream_);
    // The policy picks by row length and accumulator, never by the number of
    // rows (policy.hpp): every batch, the last shorter one included, runs the
    // same variant, and at the aligned pitch every trace the same arithmetic.
    variant_ = opt_.variant.empty()
                   ? batched_scan_default_variant(batch_traces, len, opt_.accum, opt_.direction)
                   : opt_.variant;
    // One row of the real length through the real call, before any output
    // exists: an unknown variant or an unsupported accumulator fails here.
    batched_scan(d_.data(), 1, len, d_.data(), options());
    TESSERA_CUDA(cudaStreamSynchronize(stream_));
  }
  // Pinned in place: full-speed, truly asynchronous copies. Left pageable
  // (slower copies, same results) when pinning fails.
  void pin(float* p, std::size_t count) override {
    if (count > 0 && cudaHostRegister(p, count * sizeof(float), cudaHostRegisterDefault) == cudaSuccess)
      pinned_.push_back(p);
    else
      (void)cudaGetLastError();
  }
  void unpin(float* p) override {
    const auto it = std::find(pinned_.begin(), pinned_.end(), p);
    if (it == pinned_.end()) return;
    pinned_.erase(it);
    if (cudaHostUnregister(p) != cudaSuccess) (void)cudaGetLastError();
  }
  // Rows of a multiple of 4 samples (the seismic 10,000) move as one copy;
  // others as 2D copies between the packed staging rows and the aligned
  // device rows.
  void run(float* x, std::size_t rows, std::size_t len, std::size_t) override {
    const std::size_t row_bytes = len * sizeof(float), pitch_bytes = pitch_ * sizeof(float);
    if (pitch_ == len)
      TESSERA_CUDA(cudaMemcpyAsync(d_.data(), x, rows * row_bytes, cudaMemcpyHostToDevice, stream_));
    else
      TESSERA_CUDA(cudaMemcpy2DAsync(d_.data(), pitch_bytes, x, row_bytes, row_bytes, rows, cudaMemcpyHostToDevice,
                                     stream_));
    BatchedScanOptions o = options();
    o.in_pitch = o.out_pitch = pitch_;
    batched_scan(d_.data(), rows, len, d_.data(), o);
    if (pitch_ == len)
      TESSERA_CUDA(cudaMemcpyAsync(x, d_.data(), rows * row_bytes, cudaMemcpyDeviceToHost, stream_));
    else
      TESSERA_CUDA(cudaMemcpy2DAsync(x, row_bytes, d_.data(), pitch_bytes, row_bytes, rows, cudaMemcpyDeviceToHost,
                                     stream_));
    TESSERA_CUDA(cudaStreamSynchronize(stream_));
  }
  bool on_gpu() const override { return true; }
  std::string device() const override { return name_; }
  std::string variant() const override { return variant_; }

 private:
  BatchedScanOptions options() const {
    return {.direction = opt_.direction, .accum = opt_.accum, .exclusive = opt_.exclusive,
            .variant = variant_.empty() ? opt_.variant : variant_, .stream = stream_};
  }
  TraceScanOptions opt_;
  std::string name_, variant_;
  std::size_t pitch_ = 0;  // floats from one device row to the next: len rounded up to 4
  cudaStream_t stream_ = nullptr;
  DeviceBuffer<float> d_;
  std::vector<float*> pinned_;
};

}  // namespace

void start_gpu() { gpu_start().start(); }
void finish_gpu_start() noexcept { gpu_start().wait_if_started(); }
bool device_present() noexcept { return gpu_start().present(); }
bool gpu_present() noexcept { return device_present(); }
std::vector<Phase> gpu_start_phases() { return gpu_start().phases(); }

std::unique_ptr<Compute> make_device_scan(const TraceScanOptions& scan) {
  if (!device_present()) return nullptr;
  return std::make_unique<DeviceScan>(scan);
}

#else

void start_gpu() {}
void finish_gpu_start() noexcept {}
bool device_present() noexcept { return false; }
bool gpu_present() noexcept { return false; }
std::vector<Phase> gpu_start_phases() { return {}; }
std::unique_ptr<Compute> make_device_scan(const TraceScanOptions&) { return nullptr; }

#endif

}  // namespace tessera::traces
