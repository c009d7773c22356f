// The read -> compute -> write pipeline over batches of traces. SLOTS staging
// buffers cycle through three queues (free -> read -> computed -> free); one
// mutex and one condition variable guard them all: with batches of several
// MiB, hand-offs are a few per millisecond at most and contention is nil.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <thread>
#include <vector>

#include "engine.hpp"
#include "tessera/core/error.hpp"

namespace tessera::traces {
namespace {

constexpr std::size_t PAGE_BYTES = 4096;

// Page-aligned, not zeroed (every sample is read before it is used): pread
// fills it straight from the file, pwrite writes it straight out, and the
// GPU side may pin it in place for its copies.
struct StagingBuffer {
  float* data = nullptr;
  std::size_t count = 0;  // whole pages of floats, at least the n asked for
  explicit StagingBuffer(std::size_t n) {
    const std::size_t bytes = (std::max<std::size_t>(n, 1) * sizeof(float) + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
    count = bytes / sizeof(float);
    data = static_cast<float*>(std::aligned_alloc(PAGE_BYTES, bytes));
    if (data == nullptr) throw std::bad_alloc();
  }
  ~StagingBuffer() { std::free(data); }
  StagingBuffer(const StagingBuffer&) = delete;
  StagingBuffer& operator=(const StagingBuffer&) = delete;
};

struct Slot {
  std::vector<unsigned char> headers;
  std::unique_ptr<StagingBuffer> samples;
  bool pinned = false;
  std::size_t first = 0, count = 0;
};

// A stage's busy time (summed) and its phase in the log.
class StageTimer {
 public:
  StageTimer(double& total, PhaseLog& log, const char* stage, std::size_t batch)
      : total_(total), log_(log), stage_(stage), batch_(static_cast<long>(batch)), t0_(seconds_since_start()) {}
  ~StageTimer() {
    const double t1 = seconds_since_start();
    total_ += t1 - t0_;
    log_.add(stage_, batch_, t0_, t1);
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  double& total_;
  PhaseLog& log_;
  const char* stage_;
  long batch_;
  double t0_;
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

void PhaseLog::add(std::string name, long batch, double start_s, double end_s) {
  std::lock_guard lk(m_);
  phases_.push_back({std::move(name), batch, start_s, end_s});
}

std::vector<Phase> PhaseLog::take() {
  std::lock_guard lk(m_);
  std::vector<Phase> out = std::move(phases_);
  phases_.clear();
  std::stable_sort(out.begin(), out.end(), [](const Phase& a, const Phase& b) { return a.start_s < b.start_s; });
  return out;
}

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
                                 std::size_t host_available, std::size_t target_bytes) {
  if (info.traces == 0) return 1;
  const std::size_t per_trace = info.samples * sizeof(float) + header_bytes;
  const std::size_t total = info.traces * per_trace;
  std::size_t budget = target_bytes;
  if (budget == 0)
    budget = total <= ONE_BATCH_BYTES ? total : std::clamp(total / PIPELINE_BATCHES, BATCH_MIN_BYTES, BATCH_MAX_BYTES);
  if (host_available > 0) budget = std::min(budget, host_available / (4 * SLOTS));
  const std::size_t k = std::min({budget / std::max<std::size_t>(per_trace, 1), compute_max_traces, info.traces});
  return std::max<std::size_t>(k, 1);
}

StageTimes run_pipeline(TraceReader& reader, std::size_t batch_traces, const std::function<PipelineEnds()>& start_ends,
                        PhaseLog& log) {
  const FileInfo& info = reader.info();
  StageTimes times;
  require(batch_traces > 0, "batch of 0 traces");
  const std::size_t batches = (info.traces + batch_traces - 1) / batch_traces;
  times.batches = batches;
  const std::size_t len = info.samples, hdr = reader.header_bytes();

  std::vector<Slot> slots(std::min(SLOTS, std::max<std::size_t>(batches, 1)));
  {
    ScopedPhase p(log, fmt::format("staging: {} buffers of {:.1f} MB", slots.size(),
                                   static_cast<double>(batch_traces) * (len * sizeof(float) + hdr) / 1e6));
    for (Slot& s : slots) {
      s.headers.resize(batch_traces * hdr);
      s.samples = std::make_unique<StagingBuffer>(batch_traces * len);
    }
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
          StageTimer t(times.read_s, log, "read", b);
          reader.read(s->first, s->count, s->headers.data(), s->samples->data);
        }
        q.push(q.read, s);
      }
      q.finish(q.reading_done);
    } catch (...) {
      q.abort(std::current_exception());
    }
  });

  PipelineEnds ends;
  // Unpins what was pinned, whatever happens after this point.
  struct Unpin {
    std::vector<Slot>& slots;
    PipelineEnds& ends;
    PhaseLog& log;
    ~Unpin() {
      if (ends.compute == nullptr) return;
      if (!ends.compute->on_gpu()) return;
      ScopedPhase p(log, "unpin staging buffers");
      for (Slot& s : slots)
        if (std::exchange(s.pinned, false)) ends.compute->unpin(s.samples->data);
    }
  } unpin{slots, ends, log};

  try {
    ends = start_ends();
  } catch (...) {
    q.abort(std::current_exception());
    read_thread.join();
    q.rethrow();
  }

  std::thread write_thread([&] {
    try {
      while (Slot* s = q.pop(q.computed, q.computing_done)) {
        {
          StageTimer t(times.write_s, log, "write", s->first / batch_traces);
          times.nonfinite += ends.writer->write(s->first, s->count, s->headers.data(), s->samples->data);
        }
        q.push(q.free, s);
      }
      if (q.aborted()) return;
      ScopedPhase p(log, "close output");
      ends.writer->finish();
    } catch (...) {
      q.abort(std::current_exception());
    }
  });
  try {
    while (Slot* s = q.pop(q.read, q.reading_done)) {
      if (!s->pinned) {
        std::optional<ScopedPhase> p;
        if (ends.compute->on_gpu()) p.emplace(log, "pin a staging buffer");
        ends.compute->pin(s->samples->data, s->samples->count);
        s->pinned = true;
      }
      {
        StageTimer t(times.compute_s, log, "scan", s->first / batch_traces);
        ends.compute->run(s->samples->data, s->count, len, s->first);
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
