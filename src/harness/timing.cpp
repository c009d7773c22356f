#include "harness/timing.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "harness/stream_blocker.hpp"
#include "tessera/core/cuda_check.hpp"
#endif

namespace tessera::harness {

namespace {

Timing summarize(std::vector<double> ms, bool graph, bool held) {
  Timing t;
  t.held = held;
  t.reps = static_cast<int>(ms.size());
  t.graph = graph;
  std::sort(ms.begin(), ms.end());
  t.min_ms = ms.front();
  t.median_ms = ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
  return t;
}

int reps_for(double one_ms, const TimingOptions& opt) {
  const int by_budget = one_ms > 0 ? static_cast<int>(opt.budget_ms / one_ms) : opt.max_reps;
  return std::clamp(by_budget, opt.min_reps, opt.max_reps);
}

#if TESSERA_HAVE_CUDA
class Events {
 public:
  Events() {
    TESSERA_CUDA(cudaEventCreate(&start_));
    TESSERA_CUDA(cudaEventCreate(&stop_));
  }
  ~Events() {
    (void)cudaEventDestroy(start_);
    (void)cudaEventDestroy(stop_);
  }
  // Milliseconds between the events around f's work. The stream is held
  // (StreamBlocker) while f enqueues, so the host's enqueue time is not
  // counted; if f waited on the GPU while enqueuing, the hold timed out, that
  // sample is dropped and this and every later sample are taken unheld.
  template <class F>
  double time(cudaStream_t s, F&& f) {
    if (holding_) {
      blocker_.hold(s);
      const double ms = record(s, f, true);
      if (!blocker_.timed_out()) return ms;
      holding_ = false;
    }
    return record(s, f, false);
  }
  bool held() const { return holding_; }

 private:
  template <class F>
  double record(cudaStream_t s, F& f, bool release) {
    try {
      TESSERA_CUDA(cudaEventRecord(start_, s));
      f();
      TESSERA_CUDA(cudaEventRecord(stop_, s));
    } catch (...) {
      if (release) blocker_.release();  // never leave the stream held past a failed run
      throw;
    }
    if (release) blocker_.release();
    TESSERA_CUDA(cudaEventSynchronize(stop_));
    float ms = 0;
    TESSERA_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

  cudaEvent_t start_{}, stop_{};
  StreamBlocker blocker_;
  bool holding_ = blocker_.usable();
};

// Captures `k` runs into a graph; nullptr if the work cannot be captured.
cudaGraphExec_t capture(const std::function<void(stream_t)>& run, cudaStream_t s, int k) {
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  bool ok = true;
  try {
    for (int i = 0; i < k; ++i) run(s);
  } catch (const Error&) {
    ok = false;
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(s, &graph);
  cudaGraphExec_t exec = nullptr;
  if (ok && end == cudaSuccess && graph != nullptr && cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) exec = nullptr;
  if (graph != nullptr) (void)cudaGraphDestroy(graph);
  (void)cudaGetLastError();
  return exec;
}
#endif

}  // namespace

Timing time_gpu(const std::function<void(stream_t)>& run, stream_t stream, const TimingOptions& opt) {
#if TESSERA_HAVE_CUDA
  Events ev;
  double one = 0;
  for (int i = 0; i < std::max(1, opt.warmup); ++i) one = ev.time(stream, [&] { run(stream); });
  if (one < SHORT_RUN_MS) {
    // Enough runs per replay that one replay lasts ~0.5 ms.
    const int k = std::clamp(static_cast<int>(0.5 / std::max(one, 1e-4)), 4, 256);
    if (cudaGraphExec_t exec = capture(run, stream, k)) {
      std::vector<double> ms;
      TESSERA_CUDA(cudaGraphLaunch(exec, stream));  // warm-up replay
      const int reps = reps_for(one * k, opt);
      for (int i = 0; i < reps; ++i) ms.push_back(ev.time(stream, [&] { TESSERA_CUDA(cudaGraphLaunch(exec, stream)); }) / k);
      (void)cudaGraphExecDestroy(exec);
      return summarize(std::move(ms), true, ev.held());
    }
  }
  std::vector<double> ms;
  const int reps = reps_for(one, opt);
  for (int i = 0; i < reps; ++i) ms.push_back(ev.time(stream, [&] { run(stream); }));
  return summarize(std::move(ms), false, ev.held());
#else
  (void)run;
  (void)stream;
  (void)opt;
  return {};
#endif
}

Timing time_cpu(const std::function<void()>& run, const TimingOptions& opt) {
  auto once = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  double one = 0;
  for (int i = 0; i < opt.warmup; ++i) one = once();
  std::vector<double> ms;
  if (opt.warmup == 0) ms.push_back(one = once());
  const int reps = reps_for(one, opt);
  while (static_cast<int>(ms.size()) < reps) ms.push_back(once());
  return summarize(std::move(ms), false, false);
}

}  // namespace tessera::harness
