// spmv_batched on the GPU (skipped without one): batched_nnz_split and
// cusparse_loop against tessera::spmv matrix by matrix on random batches
// (edge matrices, tiles crossing many small matrices, matrices longer than
// a tile), beta on and off; batched_nnz_split's bits twice the same, and a
// workspace the caller gives.
#include <gtest/gtest.h>

#include <cstring>

#include "spmv_batched_test_support.hpp"
#include "tessera/core/buffer.hpp"
#include "test_gpu_support.hpp"

namespace {

using namespace tessera_test::batched;

template <class V>
tessera::DeviceBuffer<V> to_device(const std::vector<V>& v) {
  tessera::DeviceBuffer<V> d(std::max<std::size_t>(v.size(), 1));
  if (!v.empty()) d.upload(v.data(), v.size());
  return d;
}

template <class T>
struct DeviceBatch {
  explicit DeviceBatch(const HostBatch<T>& h)
      : rs(to_device(h.row_starts)), cs(to_device(h.col_starts)), ns(to_device(h.nnz_starts)),
        off(to_device(h.offsets)), col(to_device(h.col)), val(to_device(h.val)), host(h.view()) {
    tessera_test::device_sync();
  }
  tessera::CsrBatch<T> view() const {
    tessera::CsrBatch<T> b = host;
    b.row_starts = rs.data();
    b.col_starts = cs.data();
    b.nnz_starts = ns.data();
    b.row_offsets = off.data();
    b.col_indices = col.data();
    b.values = val.data();
    return b;
  }
  tessera::DeviceBuffer<std::int64_t> rs, cs, ns, off;
  tessera::DeviceBuffer<std::int32_t> col;
  tessera::DeviceBuffer<T> val;
  tessera::CsrBatch<T> host;
};

class SpmvBatchedGpu : public tessera_test::GpuFixture<::testing::TestWithParam<const char*>> {
 protected:
  // The variant's y (from y0) for this batch.
  template <class T>
  std::vector<T> run(const HostBatch<T>& h, const std::vector<T>& x, const std::vector<T>& y0, double alpha,
                     double beta, const char* variant) {
    const DeviceBatch<T> d(h);
    auto dx = to_device(x);
    auto dy = to_device(y0);
    tessera_test::device_sync();
    tessera::spmv_batched(d.view(), dx.data(), dy.data(),
                          {.alpha = alpha, .beta = beta, .variant = variant, .stream = stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    std::vector<T> y(y0.size());
    dy.download(y.data(), y.size());
    return y;
  }
  template <class T>
  void check(const BatchShape& shape, std::uint64_t seed, double alpha, double beta) {
    const HostBatch<T> h = random_batch<T>(shape, seed);
    const auto x = random_vector<T>(h.col_starts.back(), seed ^ 1);
    const auto y0 = random_vector<T>(h.row_starts.back(), seed ^ 2);
    const auto got = run(h, x, y0, alpha, beta, GetParam());
    expect_close(h, x, y0, alpha, beta, per_matrix(h, x, y0, alpha, beta), got);
  }
};

TEST_P(SpmvBatchedGpu, MatchesPerMatrixFloat) {
  check<float>({.count = 300, .min_rows = 1, .max_rows = 60, .min_len = 0, .max_len = 12, .banded = 0.3,
                .edges = true},
               21, 1, 0);
  check<float>({.count = 50, .min_rows = 100, .max_rows = 2000, .min_len = 1, .max_len = 40, .banded = 0.25}, 22,
               -1.5, 0.5);
  check<float>({.count = 1, .min_rows = 1, .max_rows = 1, .min_len = 1, .max_len = 1}, 23, 2, 1);
}
TEST_P(SpmvBatchedGpu, MatchesPerMatrixDouble) {
  check<double>({.count = 200, .min_rows = 1, .max_rows = 500, .min_len = 0, .max_len = 40, .banded = 0.3,
                 .edges = true},
                24, -1.5, 0.5);
  // Tiny matrices only: a tile crosses hundreds of them.
  check<double>({.count = 3000, .min_rows = 1, .max_rows = 3, .min_len = 1, .max_len = 3}, 25, 1, 0);
}

INSTANTIATE_TEST_SUITE_P(SpmvBatched, SpmvBatchedGpu, ::testing::Values("batched_nnz_split", "cusparse_loop"),
                         [](const auto& info) { return std::string(info.param); });

class SpmvBatchedGpuApi : public tessera_test::GpuFixture<::testing::Test> {
 protected:
  template <class T>
  void check_same_pattern(const BatchShape& shape, std::uint64_t seed, double alpha, double beta) {
    const HostBatch<T> h = random_batch<T>(shape, seed);
    const auto x = random_vector<T>(h.col_starts.back(), seed ^ 1);
    const auto y0 = random_vector<T>(h.row_starts.back(), seed ^ 2);
    const auto want = per_matrix(h, x, y0, alpha, beta);
    for (const char* variant : {"cusparse_strided", "batched_nnz_split"}) {
      const DeviceBatch<T> d(h);
      auto dx = to_device(x);
      auto dy = to_device(y0);
      tessera_test::device_sync();
      tessera::spmv_batched(d.view(), dx.data(), dy.data(),
                            {.alpha = alpha, .beta = beta, .variant = variant, .stream = stream()});
      TESSERA_CUDA(cudaStreamSynchronize(stream()));
      std::vector<T> got(y0.size());
      dy.download(got.data(), got.size());
      SCOPED_TRACE(variant);
      expect_close(h, x, y0, alpha, beta, want, got);
    }
  }
};

// cuSPARSE's strided batch (the second vendor baseline) on same-pattern
// batches, float and double, against tessera::spmv matrix by matrix; a batch
// of mixed shapes is refused with the first matrix that differs.
TEST_F(SpmvBatchedGpuApi, StridedBaselineOnSamePatternBatches) {
  check_same_pattern<float>({.count = 40, .min_rows = 300, .max_rows = 300, .min_len = 1, .max_len = 40,
                             .same_pattern = true}, 31, 1, 0);
  check_same_pattern<double>({.count = 25, .min_rows = 1, .max_rows = 200, .min_len = 0, .max_len = 20,
                              .same_pattern = true}, 32, -1.5, 0.5);
  check_same_pattern<float>({.count = 1, .min_rows = 7, .max_rows = 7, .min_len = 1, .max_len = 3,
                             .same_pattern = true}, 33, 2, 1);
  const HostBatch<float> mixed = random_batch<float>({.count = 5, .min_rows = 10, .max_rows = 50, .min_len = 1,
                                                      .max_len = 5}, 34);
  const DeviceBatch<float> d(mixed);
  auto dx = to_device(random_vector<float>(mixed.col_starts.back(), 35));
  auto dy = to_device(random_vector<float>(mixed.row_starts.back(), 36));
  try {
    tessera::spmv_batched(d.view(), dx.data(), dy.data(), {.variant = "cusparse_strided", .stream = stream()});
    ADD_FAILURE() << "a batch of mixed shapes ran through cuSPARSE's strided batch";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find("matrix "), std::string::npos) << e.what();
  }
}

TEST_F(SpmvBatchedGpuApi, NnzSplitIsDeterministicAndTakesAWorkspace) {
  const HostBatch<float> h = random_batch<float>(
      {.count = 500, .min_rows = 100, .max_rows = 2000, .min_len = 1, .max_len = 40, .banded = 0.25}, 31);
  const DeviceBatch<float> d(h);
  const auto x = random_vector<float>(h.col_starts.back(), 32);
  auto dx = to_device(x);
  tessera::DeviceBuffer<float> y1(std::size_t(h.row_starts.back())), y2(std::size_t(h.row_starts.back()));
  const tessera::SpmvOptions o{.variant = "batched_nnz_split", .stream = stream()};
  const std::size_t ws_bytes = tessera::spmv_batched_workspace_bytes(d.view(), o);
  EXPECT_GE(ws_bytes, std::size_t(h.row_starts.back() + 1) * 8);
  tessera::DeviceBytes ws(ws_bytes);
  tessera_test::device_sync();
  tessera::spmv_batched(d.view(), dx.data(), y1.data(), o);
  tessera::SpmvOptions given = o;
  given.workspace = {ws.data(), ws.bytes()};
  tessera::spmv_batched(d.view(), dx.data(), y2.data(), given);
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  std::vector<float> a(y1.size()), b(y2.size());
  y1.download(a.data(), a.size());
  y2.download(b.data(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
  given.workspace.bytes = ws_bytes - 1;
  EXPECT_THROW(tessera::spmv_batched(d.view(), dx.data(), y2.data(), given), tessera::Error);
}

TEST_F(SpmvBatchedGpuApi, StructureCheckOnDeviceNamesTheArray) {
  HostBatch<float> h = random_batch<float>({.count = 4, .min_rows = 3, .max_rows = 9, .max_len = 3}, 41);
  h.nnz_starts[2] = h.nnz_starts[1] - 1;
  const DeviceBatch<float> d(h);
  const auto x = random_vector<float>(h.col_starts.back(), 42);
  auto dx = to_device(x);
  tessera::DeviceBuffer<float> y(std::size_t(h.row_starts.back()));
  try {
    tessera::spmv_batched(d.view(), dx.data(), y.data(), {.validate_structure = true, .stream = stream()});
    ADD_FAILURE() << "no error for decreasing nnz_starts";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find("nnz_starts[2]"), std::string::npos) << e.what();
  }
}

}  // namespace
