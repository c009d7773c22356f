// Internals shared by the Matrix Market reader and writer (not installed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tessera/apps/matrix_market.hpp"

namespace tessera::mm::detail {

// Throws tessera::Error("NAME:LINE: WHAT").
[[noreturn]] void fail(const std::string& name, std::int64_t line, std::string_view what);

// A token of a line for messages: up to the next blank or line end, at most
// 40 characters, non-printable bytes shown as \xNN.
std::string quote_token(const char* p, const char* end);

// The banner and size line, parsed, with where the entries start.
struct ParsedHeader {
  Header header;
  std::size_t data_begin = 0;         // byte offset of the first line after the size line
  std::int64_t data_first_line = 0;   // its line number (1-based)
  std::int64_t size_line = 0;         // the size line's number
};
ParsedHeader parse_header(std::string_view text, const std::string& name);

// A whole file's bytes: an mmap of a regular file, else read into memory.
class FileText {
 public:
  explicit FileText(const std::string& path);
  ~FileText();
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  std::string_view text() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  std::string owned_;
};

// Threads to use for `bytes` of work.
unsigned thread_count(unsigned requested, std::size_t bytes, std::size_t min_bytes_per_thread);

// Runs f(0) .. f(n-1), each on its own thread (f(0) on the caller's), and
// rethrows the first exception (lowest index) once all have finished.
template <class F>
void run_parallel(unsigned n, F&& f) {
  if (n <= 1) {
    f(0u);
    return;
  }
  std::vector<std::exception_ptr> errors(n);
  std::vector<std::thread> threads;
  threads.reserve(n);
  unsigned inline_from = n;  // parts left to the caller when a thread cannot start
  for (unsigned t = 1; t < n; ++t) {
    try {
      threads.emplace_back([&f, &errors, t] {
        try {
          f(t);
        } catch (...) {
          errors[t] = std::current_exception();
        }
      });
    } catch (...) {
      inline_from = t;
      break;
    }
  }
  for (unsigned t = 0; t < n; ++t) {
    if (t != 0 && t < inline_from) continue;
    try {
      f(t);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  }
  for (auto& th : threads) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// A run of entries in (row, col, val) arrays, 0-based.
template <class T>
struct Segment {
  const std::int32_t* row = nullptr;
  const std::int32_t* col = nullptr;
  const T* val = nullptr;
  std::size_t size = 0;
};

// Entries parsed from one chunk of the text.
template <class T>
struct Triplets {
  std::vector<std::int32_t> row;
  std::vector<std::int32_t> col;
  std::vector<T> val;
};

// The entry section of a coordinate file, one Triplets per chunk in file
// order, symmetric entries expanded. Throws on any malformed entry or count.
template <class T>
std::vector<Triplets<T>> parse_coordinate_entries(std::string_view text, const ParsedHeader& ph,
                                                  const std::string& name, const ReadOptions& options);
// The values of an array file, one vector per chunk in file order.
template <class T>
std::vector<std::vector<T>> parse_array_entries(std::string_view text, const ParsedHeader& ph,
                                                const std::string& name, const ReadOptions& options);

// CSR from segments taken in order (duplicates summed in that order); indices
// must be in range (checked by the callers).
template <class T>
Csr<T> build_csr(std::int64_t rows, std::int64_t cols, const std::vector<Segment<T>>& segments, unsigned threads);

}  // namespace tessera::mm::detail
