// The read -> compute -> write pipeline over batches of traces. SLOTS batch
// buffers cycle through three queues (free -> read -> computed -> free); one
// mutex and one condition variable guard them all: with batches of hundreds
// of MB, hand-offs are rare and contention is nil.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <fstream>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "engine.hpp"
#include "tessera/core/error.hpp"

namespace tessera::traces {
namespace {

struct Slot {
  std::vector<unsigned char> headers;
  HostBuffer samples;
  std::size_t first = 0, count = 0;
};

class Timer {
 public:
  explicit Timer(double& total) : total_(total), t0_(std::chrono::steady_clock::now()) {}
  ~Timer() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

 private:
  double& total_;
  std::chrono::steady_clock::time_point t0_;
};

class Queues {
 public:
  using Queue = std::deque<Slot*>;
  Queue free, read, computed;

  void push(Queue& q, Slot* s) {
    {
      std::lock_guard lk(m_);
      q.push_back(s);
    }
    cv_.notify_all();
  }
  // The next slot of `q`; null once `q` is empty and `done` is set, or on abort.
  Slot* pop(Queue& q, const bool& done) {
    std::unique_lock lk(m_);
    cv_.wait(lk, [&] { return aborted_ || !q.empty() || done; });
    if (aborted_ || q.empty()) return nullptr;
    Slot* s = q.front();
    q.pop_front();
    return s;
  }
  void finish(bool& done) {
    {
      std::lock_guard lk(m_);
      done = true;
    }
    cv_.notify_all();
  }
  void abort(std::exception_ptr e) {
    {
      std::lock_guard lk(m_);
      if (!error_) error_ = std::move(e);
      aborted_ = true;
    }
    cv_.notify_all();
  }
  bool aborted() {
    std::lock_guard lk(m_);
    return aborted_;
  }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }
  bool reading_done = false, computing_done = false, never = false;

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool aborted_ = false;
  std::exception_ptr error_;
};

}  // namespace

HostBuffer allocate_pageable(std::size_t count) {
  // No zeroing: every sample is read before it is used.
  auto p = std::make_unique_for_overwrite<float[]>(count);
  return HostBuffer(p.release(), [](float* q) { delete[] q; });
}

std::size_t Compute::max_batch_traces(std::size_t) const { return std::numeric_limits<std::size_t>::max(); }

std::string Compute::device() const {
  return fmt::format("host ({} threads)", std::max(1u, std::thread::hardware_concurrency()));
}

std::size_t host_memory_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

std::size_t default_batch_traces(const FileInfo& info, std::size_t header_bytes, std::size_t compute_max_traces,
                                 std::size_t host_available) {
  if (info.traces == 0) return 1;
  const std::size_t per_trace = info.samples * sizeof(float) + header_bytes;
  std::size_t budget = TARGET_BATCH_BYTES;
  if (host_available > 0) budget = std::min(budget, host_available / (4 * SLOTS));
  std::size_t k = budget / per_trace;
  const std::size_t pipelined = (info.traces + MIN_PIPELINE_BATCHES - 1) / MIN_PIPELINE_BATCHES;
  k = std::min({k, compute_max_traces, pipelined});
  return std::max<std::size_t>(k, 1);
}

StageTimes run_pipeline(TraceReader& reader, TraceWriter& writer, Compute& compute, std::size_t batch_traces) {
  const FileInfo& info = reader.info();
  StageTimes times;
  require(batch_traces > 0, "batch of 0 traces");
  const std::size_t batches = (info.traces + batch_traces - 1) / batch_traces;
  times.batches = batches;
  const std::size_t len = info.samples, hdr = reader.header_bytes();

  std::vector<Slot> slots(std::min(SLOTS, std::max<std::size_t>(batches, 1)));
  for (Slot& s : slots) {
    s.headers.resize(batch_traces * hdr);
    s.samples = compute.allocate_host(batch_traces * len);
  }
  Queues q;
  for (Slot& s : slots) q.free.push_back(&s);

  std::thread read_thread([&] {
    try {
      for (std::size_t b = 0; b < batches; ++b) {
        Slot* s = q.pop(q.free, q.never);
        if (s == nullptr) return;
        s->first = b * batch_traces;
        s->count = std::min(batch_traces, info.traces - s->first);
        {
          Timer t(times.read_s);
          reader.read(s->first, s->count, s->headers.data(), s->samples.data());
        }
        q.push(q.read, s);
      }
      q.finish(q.reading_done);
    } catch (...) {
      q.abort(std::current_exception());
    }
  });
  std::thread write_thread([&] {
    try {
      while (Slot* s = q.pop(q.computed, q.computing_done)) {
        {
          Timer t(times.write_s);
          times.nonfinite += writer.write(s->first, s->count, s->headers.data(), s->samples.data());
        }
        q.push(q.free, s);
      }
      if (q.aborted()) return;
      Timer t(times.write_s);
      writer.finish();
    } catch (...) {
      q.abort(std::current_exception());
    }
  });
  try {
    while (Slot* s = q.pop(q.read, q.reading_done)) {
      {
        Timer t(times.compute_s);
        compute.run(s->samples.data(), s->count, len, s->first);
      }
      q.push(q.computed, s);
    }
    q.finish(q.computing_done);
  } catch (...) {
    q.abort(std::current_exception());
  }
  read_thread.join();
  write_thread.join();
  q.rethrow();
  return times;
}

}  // namespace tessera::traces
