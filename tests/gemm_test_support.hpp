// Helpers shared by the GEMM tests (tests/ and lab/tests/): seeded row-major
// matrices with marked padding, an independent reference (long double,
// written here rather than taken from the library), the element-wise check
// and, in CUDA builds, device copies of a shape and the shapes that put a
// tile configuration at its edges.
//
// Tolerance (docs/gemm.md): each element of C is within
//   gamma_{k+2} * (|alpha| sum_k |a_ik| |b_kj| + |beta| |c0_ij|),
//   gamma_n = n u / (1 - n u), u = 2^-24,
// whatever the summation order: the worst-case bound of a k-term float dot
// product plus the scaling and the final rounding. Written !(err <= tol), so
// a NaN fails; the padding columns of C must keep their poison bits.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if TESSERA_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "families/gemm/contract.hpp"
#include "families/gemm/cuda_rungs.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "test_gpu_support.hpp"
#endif

namespace gemm_test {

// Padding of inputs: a huge value that wrecks any product that reads it.
inline constexpr float INPUT_PAD = 1.0e30f;
// Poison bytes of C (0xFFFFFFFF: a NaN no arithmetic produces).
inline constexpr int POISON = 0xFF;

struct Mat {
  std::size_t rows = 0, cols = 0, ld = 1;
  std::vector<float> v;  // max(1, rows * ld)
  float at(std::size_t i, std::size_t j) const { return v[i * ld + j]; }
};

inline std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform values in [-1, 1) (never all zero), padding INPUT_PAD.
inline Mat random_mat(std::size_t rows, std::size_t cols, std::size_t pad, std::uint64_t seed) {
  Mat m{rows, cols, std::max<std::size_t>(1, cols + pad), {}};
  m.v.assign(std::max<std::size_t>(1, rows * m.ld), INPUT_PAD);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      m.v[i * m.ld + j] = float(double(splitmix(seed) >> 40) * 0x1.0p-23 - 1.0);
  return m;
}

// C's initial contents: random values (beta != 0) or poison (beta == 0);
// padding always poison.
inline Mat initial_c(std::size_t rows, std::size_t cols, std::size_t pad, float beta, std::uint64_t seed) {
  Mat c = random_mat(rows, cols, pad, seed);
  for (std::size_t i = 0; i < rows; ++i)
    std::memset(c.v.data() + i * c.ld + (beta == 0 ? 0 : cols), POISON,
                (beta == 0 ? c.ld : c.ld - cols) * sizeof(float));
  if (rows == 0) std::memset(c.v.data(), POISON, c.v.size() * sizeof(float));
  return c;
}

struct Reference {
  std::vector<long double> ref, scale;  // rows * cols of C
};

// C = alpha * op(A) * op(B) + beta * C0 with op(B) = B (aat == false) or
// A^T; op(A) = A^T when `ta` (A stored k x m), op(B) = B^T when `tb` (B
// stored n x k). A naive triple loop in long double.
inline Reference reference(const Mat& a, const Mat* b, bool aat, float alpha, float beta, const Mat& c0,
                           bool ta = false, bool tb = false) {
  const std::size_t m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols;
  const std::size_t n = aat ? a.rows : (tb ? b->rows : b->cols);
  auto op_a = [&](std::size_t i, std::size_t p) { return ta ? a.at(p, i) : a.at(i, p); };
  auto op_b = [&](std::size_t p, std::size_t j) { return aat ? a.at(j, p) : (tb ? b->at(j, p) : b->at(p, j)); };
  Reference r{std::vector<long double>(m * n), std::vector<long double>(m * n)};
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      long double dot = 0, mag = 0;
      for (std::size_t p = 0; p < k; ++p) {
        const long double x = (long double)op_a(i, p) * op_b(p, j);
        dot += x;
        mag += std::fabs(x);
      }
      long double v = (long double)alpha * dot, s = std::fabs((long double)alpha) * mag;
      if (beta != 0) {
        v += (long double)beta * c0.at(i, j);
        s += std::fabs((long double)beta * c0.at(i, j));
      }
      r.ref[i * n + j] = v;
      r.scale[i * n + j] = s;
    }
  return r;
}

inline long double gamma_k(std::size_t n) {
  const long double nu = (long double)n * 0x1.0p-24L;
  return nu / (1 - nu);
}

// Every element of `got` (C's storage as the variant left it) within the
// tolerance; only j <= i when `lower_only`; the padding bytes untouched.
inline ::testing::AssertionResult matches(const std::vector<float>& got, const Mat& c0, const Reference& r,
                                          std::size_t k, bool lower_only = false) {
  const long double gamma = gamma_k(k + 2);
  const std::size_t m = c0.rows, n = c0.cols;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (lower_only && j > i) continue;
      const float g = got[i * c0.ld + j];
      const long double err = std::fabs((long double)g - r.ref[i * n + j]);
      const long double tol = gamma * r.scale[i * n + j];
      if (!(err <= tol))
        return ::testing::AssertionFailure() << "C[" << i << "][" << j << "] = " << g << ", expected "
                                             << double(r.ref[i * n + j]) << " (tolerance " << double(tol) << ")";
    }
    for (std::size_t j = n; j < c0.ld; ++j) {
      std::uint32_t bits;
      std::memcpy(&bits, &got[i * c0.ld + j], 4);
      if (bits != 0xFFFFFFFFu)
        return ::testing::AssertionFailure() << "padding C[" << i << "][" << j << "] was written";
    }
  }
  return ::testing::AssertionSuccess();
}

// One shape of the tests.
struct Shape {
  bool aat;
  std::size_t m, n, k;  // aat: n == m
  std::size_t pad_a = 0, pad_b = 0, pad_c = 0;  // added to the stored rows
  float alpha = 1, beta = 0;
  bool ta = false, tb = false;  // op(A), op(B) = T: A stored k x m, B n x k
};

inline std::string shape_name(const Shape& s) {
  std::string r = (s.aat ? "aat_" : "ab_") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                  std::to_string(s.k);
  if (s.pad_a || s.pad_b || s.pad_c)
    r += "_pad" + std::to_string(s.pad_a) + std::to_string(s.pad_b) + std::to_string(s.pad_c);
  if (s.beta != 0) r += "_beta";
  if (s.ta || s.tb) r += std::string("_") + (s.ta ? "T" : "N") + (s.tb ? "T" : "N");
  return r;
}

#if TESSERA_HAVE_CUDA

// ---- GPU (CUDA builds) -------------------------------------------------------

using GpuTest = tessera_test::GpuFixture<::testing::Test>;

// The ladder's rows (with the lab's, where registered) that `keep` selects.
template <class Keep>
std::vector<const tessera::gemm_impl::GemmVariant*> rows_where(Keep&& keep) {
  std::vector<const tessera::gemm_impl::GemmVariant*> out;
  for (const auto& v : tessera::gemm_impl::variants_ladder().all())
    if (keep(v.info)) out.push_back(&v);
  return out;
}

// Every tile size of the ladder (16, 32, 64, 128, 256) at and around its
// multiples, vectors (m or n = 1), k = 0 and k = 1, padded and odd leading
// dimensions (no 16-byte row alignment: the scalar-copy paths), alpha /
// beta, and a C that starts as NaN when beta = 0 (it must not be read).
inline const Shape kGpuShapes[] = {
    {false, 1, 1, 1},
    {false, 2, 3, 5},
    {false, 5, 3, 0, 0, 0, 0, 1, 0.5f},  // k == 0: C = beta * C
    {false, 0, 7, 5},
    {false, 7, 0, 5},
    {false, 17, 19, 23},
    {false, 17, 19, 23, 0, 1, 0},  // odd ldb: 4-byte B copies
    {false, 1, 300, 129},
    {false, 300, 1, 129},
    {false, 65, 129, 1},
    {false, 64, 64, 64},
    {false, 128, 256, 64},
    {false, 129, 257, 17},
    {false, 127, 255, 9, 1, 3, 5, 0.75f, -0.5f},
    {false, 255, 257, 33, 0, 0, 0, -1.25f, 1},
    {false, 200, 300, 100, 4, 4, 4, 2, 0.25f},
    {false, 257, 130, 131, 1, 0, 1},
    {true, 1, 1, 1},
    {true, 1, 1, 9},
    {true, 5, 5, 0, 0, 0, 0, 1, 0.5f},
    {true, 33, 33, 17},
    {true, 64, 64, 64},
    {true, 129, 129, 70, 1, 0, 3, 0.75f, -0.5f},
    {true, 257, 257, 40},
    {true, 256, 256, 64, 4, 0, 4, -1, 2},
};

// Device copies of one shape's inputs and its reference.
struct GpuCase {
  Shape s;
  Mat a, b, c0;
  Reference ref;
  tessera::DeviceBuffer<float> da, db, dc;
  tessera::gemm_impl::GemmSpec spec;

  GpuCase(const Shape& sh, std::uint64_t seed) : s(sh) {
    a = s.ta ? random_mat(s.k, s.m, s.pad_a, seed) : random_mat(s.m, s.k, s.pad_a, seed);
    b = s.aat ? Mat{} : (s.tb ? random_mat(s.n, s.k, s.pad_b, seed + 1) : random_mat(s.k, s.n, s.pad_b, seed + 1));
    c0 = initial_c(s.m, s.n, s.pad_c, s.beta, seed + 2);
    ref = reference(a, s.aat ? nullptr : &b, s.aat, s.alpha, s.beta, c0, s.ta, s.tb);
    da = tessera::DeviceBuffer<float>(a.v.size(), "test A");
    da.upload(a.v.data(), a.v.size());
    if (!s.aat) {
      db = tessera::DeviceBuffer<float>(b.v.size(), "test B");
      db.upload(b.v.data(), b.v.size());
    }
    dc = tessera::DeviceBuffer<float>(c0.v.size(), "test C");
    spec = {s.aat ? tessera::gemm_impl::GemmOp::aat : tessera::gemm_impl::GemmOp::ab, s.m, s.n, s.k, a.ld,
            s.aat ? 0 : b.ld, c0.ld, s.ta, s.tb};
  }

  // Runs `v` on C = C0 (its workspace poisoned) and returns C's storage.
  std::vector<float> run(const tessera::gemm_impl::GemmVariant& v, cudaStream_t stream) {
    return run_with(v.workspace_bytes(spec), stream, [&](const tessera::gemm_impl::GemmCall& call) { v.run(call); });
  }

  // The same with `run(call)` and a workspace of `ws_bytes` (split-k).
  template <class Run>
  std::vector<float> run_with(std::size_t ws_bytes, cudaStream_t stream, Run&& run) {
    dc.upload(c0.v.data(), c0.v.size());
    TESSERA_CUDA(cudaDeviceSynchronize());
    tessera::DeviceBytes ws(ws_bytes, "test workspace");
    ws.fill_bytes(0xA5, stream);
    run(tessera::gemm_impl::GemmCall{spec, s.alpha, s.beta, da.data(), s.aat ? nullptr : db.data(), dc.data(),
                                     ws.data(), stream});
    return download(stream);
  }

  std::vector<float> download(cudaStream_t stream) {
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    TESSERA_CUDA(cudaGetLastError());
    std::vector<float> got(c0.v.size());
    dc.download(got.data(), got.size());
    return got;
  }

  ::testing::AssertionResult matches(const std::vector<float>& got, bool lower_only = false) const {
    return gemm_test::matches(got, c0, ref, s.k, lower_only);
  }
};

// A*B shapes around a tile configuration's own tile: a grid with several L2
// groups and a ragged last group; whole tiles with whole slabs (the
// interior copy path: 16-byte and, with an odd ldb, 4-byte B rows; padded
// A); k = 1 (no whole slab at all).
inline std::vector<Shape> tile_edge_shapes(const tessera::gemm_impl::WarpTiledKernels& k) {
  const std::size_t bm = std::size_t(k.bm), bn = std::size_t(k.bn), bk = std::size_t(k.bk);
  return {Shape{false, 9 * bm + 1, 2 * bn - 1, 3 * bk + 1}, Shape{false, bm - 1, bn + 1, 2, 0, 2, 0, 1, 1},
          Shape{false, 2 * bm, 3 * bn, 4 * bk}, Shape{false, 2 * bm, 2 * bn, 2 * bk + 3, 3, 1, 0, 0.75f, -0.5f},
          Shape{false, bm + 1, 2 * bn, 1}};
}

// A*A^T shapes for a square configuration: whole and ragged tiles, whole
// slabs and a partial one (the mirrored stores checked by the reference).
inline std::vector<Shape> aat_tile_shapes(const tessera::gemm_impl::WarpTiledKernels& k) {
  const std::size_t bm = std::size_t(k.bm), bk = std::size_t(k.bk);
  return {Shape{true, 3 * bm, 3 * bm, 2 * bk}, Shape{true, 2 * bm + 1, 2 * bm + 1, bk + 5, 1, 0, 3}};
}

// Runs one configuration's kernels on its tile-edge shapes (A*B) and, when
// square, its A*A^T shapes: `base` is a row of the right product whose run
// function is replaced.
inline void check_configuration(const std::string& name, const tessera::gemm_impl::WarpTiledKernels& k,
                                const tessera::gemm_impl::GemmVariant& ab_base,
                                const tessera::gemm_impl::GemmVariant& aat_base, cudaStream_t stream) {
  tessera::gemm_impl::GemmVariant v = ab_base;
  v.run = k.run_ab;
  for (const Shape& s : tile_edge_shapes(k)) {
    SCOPED_TRACE(name + " " + shape_name(s));
    GpuCase c(s, 3);
    EXPECT_TRUE(c.matches(c.run(v, stream)));
  }
  if (k.run_aat == nullptr) return;
  v = aat_base;
  v.run = k.run_aat;
  for (const Shape& s : aat_tile_shapes(k)) {
    SCOPED_TRACE(name + " " + shape_name(s));
    GpuCase c(s, 5);
    EXPECT_TRUE(c.matches(c.run(v, stream)));
  }
}

#endif  // TESSERA_HAVE_CUDA

}  // namespace gemm_test
