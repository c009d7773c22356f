// Holds a stream on a spinning kernel while timed work is enqueued behind it,
// so that the start event, the work and the stop event reach the GPU together
// and event timing sees the GPU's time for the work, not the host's time to
// enqueue it (argument checks, launch calls: ~5-15 us, which is 2-5% of a
// 0.3 ms kernel and was counted in every tessera and vendor row alike). The
// same idea as nvbench's blocking kernel.
//
// The kernel lets itself go after a timeout: work that synchronises with the
// host while it is being enqueued (a blocking copy, cudaFree) would otherwise
// wait forever on the held stream. timed_out() then says so and the caller
// discards that sample and times without holding.
#pragma once

#include "tessera/core/types.hpp"

namespace tessera::harness {

class StreamBlocker {
 public:
  StreamBlocker();  // allocates a mapped host flag; usable() is false if it cannot
  ~StreamBlocker();
  StreamBlocker(const StreamBlocker&) = delete;
  StreamBlocker& operator=(const StreamBlocker&) = delete;

  // Mapped memory was had and TESSERA_HOLD_STREAM is not 0 (0: time the
  // old way, enqueue included, for comparison).
  bool usable() const { return flags_ != nullptr; }
  void hold(stream_t s);  // enqueues the spinning kernel
  void release();         // lets it go (host write; returns at once)
  bool timed_out() const; // after the stream has passed the kernel: it let itself go

 private:
  volatile int* flags_ = nullptr;  // [0] release (host writes), [1] timed out (kernel writes)
  int* device_flags_ = nullptr;
};

}  // namespace tessera::harness
