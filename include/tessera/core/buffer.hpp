// RAII device memory. Pattern code never calls cudaMalloc directly: it uses
// DeviceBuffer, whose failed allocation reports the size asked and the memory
// free. Plain device allocations only (never managed memory).
#pragma once

#include <cstddef>
#include <utility>

#include "tessera/core/types.hpp"

namespace tessera {

// Untyped device allocation; `what` names it in error messages.
class DeviceBytes {
 public:
  DeviceBytes() = default;
  explicit DeviceBytes(std::size_t bytes, const char* what = "device buffer");
  ~DeviceBytes();
  DeviceBytes(DeviceBytes&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBytes& operator=(DeviceBytes&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;

  void* data() const noexcept { return ptr_; }
  std::size_t bytes() const noexcept { return bytes_; }
  void reset() noexcept;

  // Host <-> device copies of the first `bytes` bytes (synchronous).
  void upload(const void* src, std::size_t bytes);
  void download(void* dst, std::size_t bytes) const;
  // Fill every byte with `value` (used to poison outputs before a check).
  void fill_bytes(int value, stream_t stream = nullptr);

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count, const char* what = "device buffer")
      : raw_(count * sizeof(T), what), count_(count) {}
  T* data() const noexcept { return static_cast<T*>(raw_.data()); }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return raw_.bytes(); }
  void upload(const T* src, std::size_t count) { raw_.upload(src, count * sizeof(T)); }
  void download(T* dst, std::size_t count) const { raw_.download(dst, count * sizeof(T)); }
  void fill_bytes(int value, stream_t stream = nullptr) { raw_.fill_bytes(value, stream); }

 private:
  DeviceBytes raw_;
  std::size_t count_ = 0;
};

}  // namespace tessera
