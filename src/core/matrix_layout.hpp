// The layout of a row-major matrix, shared by the dense patterns (transpose,
// GEMM), their public APIs, the harness and the tests: `rows` x `cols`
// elements, row i starting `ld` elements (the leading dimension, or pitch)
// after row i - 1. Plain arithmetic, no CUDA: usable everywhere.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>

namespace tessera {

struct MatrixLayout {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::size_t ld = 0;  // elements between the starts of consecutive rows; >= cols

  // A dense layout: ld == cols.
  static constexpr MatrixLayout dense(std::size_t rows, std::size_t cols) { return {rows, cols, cols}; }

  constexpr bool empty() const { return rows == 0 || cols == 0; }
  constexpr bool is_dense() const { return ld == cols; }
  // ld large enough for the rows not to overlap (any ld will do when empty).
  constexpr bool valid() const { return empty() || ld >= cols; }

  // Element count rows * cols, or nullopt when it overflows size_t.
  constexpr std::optional<std::size_t> count() const {
    if (cols != 0 && rows > std::numeric_limits<std::size_t>::max() / cols) return std::nullopt;
    return rows * cols;
  }

  // Elements from the first element to one past the last, (rows - 1) * ld +
  // cols: the storage a caller must provide (the last row needs no pitch
  // padding). 0 when empty; nullopt when it overflows size_t.
  constexpr std::optional<std::size_t> span() const {
    if (empty()) return std::size_t(0);
    const std::size_t r = rows - 1;
    if (ld != 0 && r > (std::numeric_limits<std::size_t>::max() - cols) / ld) return std::nullopt;
    return r * ld + cols;
  }

  // Whole rows including the last row's pitch padding, rows * ld: what the
  // harness allocates, so that every row has the same padding to check.
  constexpr std::optional<std::size_t> storage() const {
    if (ld != 0 && rows > std::numeric_limits<std::size_t>::max() / ld) return std::nullopt;
    return rows * ld;
  }

  // Offset of element (i, j).
  constexpr std::size_t at(std::size_t i, std::size_t j) const { return i * ld + j; }
};

}  // namespace tessera
