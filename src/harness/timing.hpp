// Timing. GPU: CUDA events on the stream, warm-up, then the median of many
// repetitions, each enqueued behind a StreamBlocker so that the host's time to
// enqueue the work is not counted (stream_blocker.hpp); runs shorter than
// SHORT_RUN_MS are captured K times into a CUDA graph and the graph's replays
// are timed (launch gaps would otherwise dominate). CPU: steady_clock around synchronous runs, median.
#pragma once

#include <functional>

#include "tessera/core/types.hpp"

namespace tessera::harness {

struct TimingOptions {
  int warmup = 2;
  int min_reps = 5;
  int max_reps = 100;
  double budget_ms = 250;  // stop adding repetitions past this much run time
};

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  int reps = 0;
  bool graph = false;  // timed through CUDA graph replays
  bool held = false;   // the stream was held while the work was enqueued (StreamBlocker)
};

// Launches shorter than this are timed through a CUDA graph.
inline constexpr double SHORT_RUN_MS = 0.05;

Timing time_gpu(const std::function<void(stream_t)>& run, stream_t stream, const TimingOptions& opt);
Timing time_cpu(const std::function<void()>& run, const TimingOptions& opt);

}  // namespace tessera::harness
