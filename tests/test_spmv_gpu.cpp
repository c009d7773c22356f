// spmv on the GPU: every CUDA rung (and the vendor) through the public API
// on the shapes of the CPU tests, float and double, against the naive loop
// with the per-row bound; the deterministic rungs give the same bits twice;
// the structure check on device arrays; a user workspace. Skips without a
// GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "families/spmv/contract.hpp"
#include "families/spmv/convert.hpp"
#include "families/spmv/formats.hpp"
#include "spmv_gpu_test_support.hpp"
#include "spmv_test_support.hpp"
#include "test_gpu_support.hpp"
#include "tessera/core/error.hpp"
#include "tessera/spmv.hpp"

namespace {

using namespace tessera_test::spmv;

std::vector<std::string> gpu_variants() {
  std::vector<std::string> out;
  for (const auto& v : tessera::spmv_impl::variants_ladder().all())
    if (v.info.backend == tessera::Backend::cuda) out.emplace_back(v.info.name);
  return out;
}

bool deterministic(const std::string& name) {
  return tessera::spmv_impl::variants_ladder().at(name, "test").info.deterministic;
}

class SpmvGpu : public tessera_test::GpuFixture<::testing::TestWithParam<std::string>> {
 protected:
  template <class T>
  void check_all_shapes() {
    const std::string variant = GetParam();
    for (const Shape& s : shapes()) {
      const auto host = build<T>(s, 31);
      const auto a_host = host.view();
      const DeviceMatrix<T> dev(host);
      const auto x = random_vector<T>(a_host.cols, 32);
      const auto y0 = random_vector<T>(a_host.rows, 33);
      const auto d_x = to_device(x);
      // ELL pads every row to the longest: refused (before writing) where
      // that passes ELL_MAX_FOOTPRINT x the CSR bytes (huge row, power law).
      namespace f = tessera::spmv_impl::formats;
      // A rung that declines the shape (the vendor on duplicate entries:
      // nnz > rows * cols) refuses it with an Error before touching y.
      const tessera::spmv_impl::SpmvSpec spec{tessera::dtype_of<T>(), a_host.rows, a_host.cols, a_host.nnz};
      if (!tessera::spmv_impl::variants_ladder().at(variant, "test").supports(spec)) {
        const auto d_y = to_device(y0);
        EXPECT_THROW(tessera::spmv(dev.view(), static_cast<const T*>(d_x->p), static_cast<T*>(d_y->p),
                                   {.variant = variant, .stream = stream()}),
                     tessera::Error)
            << s.name;
        continue;
      }
      if (variant == "ell" && !f::ell_fits(a_host.rows, f::row_stats(a_host).max_length, a_host.nnz, sizeof(T))) {
        const auto d_y = to_device(y0);
        EXPECT_THROW(tessera::spmv(dev.view(), static_cast<const T*>(d_x->p), static_cast<T*>(d_y->p),
                                   {.variant = variant, .stream = stream()}),
                     tessera::Error)
            << s.name;
        continue;
      }
      for (const auto& [alpha, beta] : {std::pair{1.0, 0.0}, std::pair{-1.5, 0.5}}) {
        std::vector<T> y = y0;
        if (beta == 0) std::fill(y.begin(), y.end(), std::numeric_limits<T>::quiet_NaN());  // must not be read
        const auto d_y = to_device(y);
        const tessera::SpmvOptions o{.alpha = alpha, .beta = beta, .validate_structure = true, .variant = variant,
                                     .stream = stream()};
        tessera::spmv(dev.view(), static_cast<const T*>(d_x->p), static_cast<T*>(d_y->p), o);
        TESSERA_CUDA(cudaStreamSynchronize(stream()));
        TESSERA_CUDA(cudaMemcpy(y.data(), d_y->p, y.size() * sizeof(T), cudaMemcpyDeviceToHost));
        expect_close(a_host, x, y0, alpha, beta, y, variant + " " + s.name + " beta=" + std::to_string(beta));
        if (deterministic(variant) && a_host.rows > 0) {  // the same bits again
          std::vector<T> again = y0;
          const auto d_again = to_device(again);
          tessera::spmv(dev.view(), static_cast<const T*>(d_x->p), static_cast<T*>(d_again->p), o);
          TESSERA_CUDA(cudaStreamSynchronize(stream()));
          TESSERA_CUDA(cudaMemcpy(again.data(), d_again->p, again.size() * sizeof(T), cudaMemcpyDeviceToHost));
          EXPECT_EQ(std::memcmp(again.data(), y.data(), y.size() * sizeof(T)), 0) << variant << " " << s.name;
        }
      }
    }
  }
};

// A run, its format prepared beforehand, enqueues only: it can be captured
// into a graph (what the harness does for short runs) and the replay is right.
TEST_P(SpmvGpu, RunCanBeCapturedInAGraph) {
  const auto& v = tessera::spmv_impl::variants_ladder().at(GetParam(), "test");
  const auto host = build<float>(shapes()[3], 61);  // empty rows
  const auto a = host.view();
  const DeviceMatrix<float> dev(host);
  const auto x = random_vector<float>(a.cols, 62);
  const auto y0 = random_vector<float>(a.rows, 63);
  const auto d_x = to_device(x);
  const auto d_y = to_device(y0);
  const tessera::spmv_impl::SpmvSpec spec{tessera::Dtype::f32, a.rows, a.cols, a.nnz};
  const tessera::spmv_impl::CsrArrays h{a.row_offsets, a.col_indices, a.values};
  const tessera::spmv_impl::CsrArrays d{dev.view().row_offsets, dev.view().col_indices, dev.view().values};
  std::unique_ptr<tessera::spmv_impl::SpmvPlan> plan;
  if (v.prepare != nullptr) plan = v.prepare({spec, h, d, stream()});
  DeviceArray ws(v.workspace_bytes(spec));
  tessera_test::device_sync();
  const tessera::spmv_impl::SpmvCall call{spec, d, d_x->p, d_y->p, 1.5, -0.5, plan.get(), ws.p, stream()};
  tessera_test::CapturedGraph graph(stream(), [&] { v.run(call); });
  ASSERT_TRUE(graph.ok()) << GetParam();
  ASSERT_EQ(graph.launch(stream()), cudaSuccess);
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  std::vector<float> y(y0.size());
  TESSERA_CUDA(cudaMemcpy(y.data(), d_y->p, y.size() * 4, cudaMemcpyDeviceToHost));
  expect_close(a, x, y0, 1.5, -0.5, y, GetParam() + " graph replay");
}

// A few rows of 1e5 entries among short ones: every rung gets them right
// (csr_subwarp_vec4 and the guarded rungs hand them to a whole block; the
// formats to their long-rows part), float and double, in bounded time.
template <class T>
void check_long_rows(const std::string& variant, cudaStream_t stream) {
  const auto host = long_rows_matrix<T>(17);
  const auto a = host.view();
  const tessera::spmv_impl::SpmvSpec spec{tessera::dtype_of<T>(), a.rows, a.cols, a.nnz};
  namespace f = tessera::spmv_impl::formats;
  if (!tessera::spmv_impl::variants_ladder().at(variant, "test").supports(spec) ||
      (variant == "ell" && !f::ell_fits(a.rows, f::row_stats(a).max_length, a.nnz, sizeof(T))))
    return;  // refused before writing: the shapes test checks that
  const DeviceMatrix<T> dev(host);
  const auto x = random_vector<T>(a.cols, 18);
  const auto y0 = random_vector<T>(a.rows, 19);
  const auto d_x = to_device(x);
  const auto d_y = to_device(y0);
  const auto plan = tessera::spmv_plan(dev.view(), {.variant = variant, .stream = stream});
  tessera::spmv(plan, static_cast<const T*>(d_x->p), static_cast<T*>(d_y->p),
                {.alpha = 0.75, .beta = 2, .stream = stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  std::vector<T> y(y0.size());
  TESSERA_CUDA(cudaMemcpy(y.data(), d_y->p, y.size() * sizeof(T), cudaMemcpyDeviceToHost));
  expect_close(a, x, y0, 0.75, 2.0, y, variant + " few rows of 1e5 entries");
}
TEST_P(SpmvGpu, FewRowsOf1e5Entries) {
  check_long_rows<float>(GetParam(), stream());
  check_long_rows<double>(GetParam(), stream());
}

TEST_P(SpmvGpu, MatchesReferenceFloat) { check_all_shapes<float>(); }
TEST_P(SpmvGpu, MatchesReferenceDouble) { check_all_shapes<double>(); }

INSTANTIATE_TEST_SUITE_P(Spmv, SpmvGpu, ::testing::ValuesIn(gpu_variants()),
                         [](const auto& info) { return info.param; });

class SpmvGpuApi : public tessera_test::GpuFixture<::testing::Test> {};

// The structure check on device arrays names the array and the first bad
// index, and leaves y alone.
TEST_F(SpmvGpuApi, StructureCheckOnDevice) {
  const std::vector<std::int64_t> bad_off{0, 3, 2, 5};
  const std::vector<std::int32_t> cols{0, 2, 1, 0, 2}, bad_cols{0, 2, 1, 9, 2};
  const std::vector<float> vals{1, 2, 3, 4, 5}, x{1, 1, 1}, y{7, 7, 7};
  const std::vector<std::int64_t> off{0, 2, 3, 5};
  auto d_bad_off = to_device(bad_off), d_off = to_device(off);
  auto d_cols = to_device(cols), d_bad_cols = to_device(bad_cols), d_vals = to_device(vals);
  auto d_x = to_device(x), d_y = to_device(y);
  const tessera::SpmvOptions o{.validate_structure = true, .stream = stream()};
  auto a = [&](const DeviceArray& o_, const DeviceArray& c_) {
    return tessera::Csr<float>{3, 3, 5, static_cast<const std::int64_t*>(o_.p), static_cast<const std::int32_t*>(c_.p),
                               static_cast<const float*>(d_vals->p)};
  };
  try {
    tessera::spmv(a(*d_bad_off, *d_cols), static_cast<const float*>(d_x->p), static_cast<float*>(d_y->p), o);
    ADD_FAILURE() << "no error for decreasing offsets";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find("row_offsets[2] = 2 is less than row_offsets[1] = 3"), std::string::npos)
        << e.what();
  }
  try {
    tessera::spmv(a(*d_off, *d_bad_cols), static_cast<const float*>(d_x->p), static_cast<float*>(d_y->p), o);
    ADD_FAILURE() << "no error for a column out of range";
  } catch (const tessera::Error& e) {
    EXPECT_NE(std::string(e.what()).find("col_indices[3] = 9"), std::string::npos) << e.what();
  }
  std::vector<float> back(3);
  TESSERA_CUDA(cudaMemcpy(back.data(), d_y->p, 12, cudaMemcpyDeviceToHost));
  EXPECT_EQ(back, y);
  // A host pointer for a GPU variant is refused.
  EXPECT_THROW(tessera::spmv(a(*d_off, *d_cols), x.data(), static_cast<float*>(d_y->p), {.variant = "csr_vector"}),
               tessera::Error);
}

// With a workspace of spmv_workspace_bytes the default variant allocates
// nothing and gives the same answer.
TEST_F(SpmvGpuApi, UserWorkspace) {
  const auto host = tessera_test::spmv::m::power_law<float>(50000, 50000, 16.0, 20000, 3);
  const DeviceMatrix<float> dev(host);
  const auto x = random_vector<float>(host.cols, 4);
  const auto d_x = to_device(x);
  std::vector<float> y(std::size_t(host.rows), 0.0f);
  const auto d_y = to_device(y);
  const std::size_t bytes = tessera::spmv_workspace_bytes(dev.view());
  DeviceArray ws(bytes);
  tessera::spmv(dev.view(), static_cast<const float*>(d_x->p), static_cast<float*>(d_y->p),
                {.stream = stream(), .workspace = {ws.p, bytes}});
  TESSERA_CUDA(cudaStreamSynchronize(stream()));
  TESSERA_CUDA(cudaMemcpy(y.data(), d_y->p, y.size() * 4, cudaMemcpyDeviceToHost));
  expect_close(host.view(), x, std::vector<float>(y.size(), 0.0f), 1.0, 0.0, y, "default variant, user workspace");
  EXPECT_THROW(tessera::spmv(dev.view(), static_cast<const float*>(d_x->p), static_cast<float*>(d_y->p),
                             {.stream = stream(), .workspace = {ws.p, bytes / 2}}),
               tessera::Error);
}

}  // namespace

// ---- the GPU conversions (convert.cu) against the host ones (formats.hpp),
// byte for byte, on every shape.
namespace conversions {

namespace f = tessera::spmv_impl::formats;
namespace g = tessera::spmv_impl::gpu;

template <class V>
std::vector<V> download(const void* p, std::size_t n) {
  std::vector<V> out(n);
  if (n > 0) TESSERA_CUDA(cudaMemcpy(out.data(), p, n * sizeof(V), cudaMemcpyDeviceToHost));
  return out;
}

template <class T>
void expect_coo_equal(const g::CooView& v, const f::Coo<T>& want, const std::string& what, bool with_empty) {
  EXPECT_EQ(v.nnz, std::int64_t(want.val.size())) << what;
  EXPECT_EQ(download<std::int32_t>(v.row, want.row.size()), want.row) << what << " rows";
  EXPECT_EQ(download<std::int32_t>(v.col, want.col.size()), want.col) << what << " columns";
  EXPECT_EQ(download<T>(v.val, want.val.size()), want.val) << what << " values";
  if (with_empty) {
    EXPECT_EQ(v.empty, std::int64_t(want.empty_rows.size())) << what;
    EXPECT_EQ(download<std::int32_t>(v.empty_rows, want.empty_rows.size()), want.empty_rows) << what << " empty rows";
  }
}

template <class T>
void expect_ell_equal(const g::EllView& v, const f::Ell<T>& want, const std::string& what) {
  EXPECT_EQ(v.width, want.width) << what;
  EXPECT_EQ(download<std::int32_t>(v.col, want.col.size()), want.col) << what << " columns";
  EXPECT_EQ(download<T>(v.val, want.val.size()), want.val) << what << " values";
}

template <class T>
void check_shape(const Shape& s, cudaStream_t stream) {
  const auto host = build<T>(s, 51);
  const auto a = host.view();
  const DeviceMatrix<T> dev(host);
  const tessera::spmv_impl::SpmvSpec spec{tessera::dtype_of<T>(), a.rows, a.cols, a.nnz};
  const tessera::spmv_impl::CsrArrays d{dev.view().row_offsets, dev.view().col_indices, dev.view().values};
  const auto stats = f::row_stats(a);
  const auto got_stats = g::device_row_stats(spec, d, stream);
  EXPECT_EQ(got_stats.max_length, stats.max_length) << s.name;
  EXPECT_EQ(got_stats.histogram, stats.histogram) << s.name;
  expect_coo_equal(g::device_coo<T>(spec, d, stream)->view, f::to_coo(a), s.name + " coo", true);
  const std::int64_t width = std::min<std::int64_t>(stats.max_length, 64);
  expect_ell_equal(g::device_ell<T>(spec, d, width, stream)->view, f::to_ell(a, width), s.name + " ell");
  for (std::int64_t w : {f::choose_hyb_width(stats, a.rows, sizeof(T)), std::int64_t(2), std::int64_t(0)}) {
    const auto plan = g::device_hyb<T>(spec, d, w, stream);
    const auto want = f::to_hyb(a, w);
    expect_ell_equal(plan->ell.view, want.ell, s.name + " hyb ell w=" + std::to_string(w));
    expect_coo_equal(plan->coo.view, want.coo, s.name + " hyb coo w=" + std::to_string(w), false);
    EXPECT_EQ(plan->footprint_bytes, want.bytes()) << s.name;
  }
}

template <class T>
void expect_long_rows_equal(const g::LongRowsView& v, const f::LongRows<T>& want, const std::string& what) {
  EXPECT_EQ(v.count, want.count()) << what;
  EXPECT_EQ(v.huge, want.huge) << what;
  EXPECT_EQ(download<std::int32_t>(v.row, want.row.size()), want.row) << what << " long rows";
  EXPECT_EQ(download<std::int64_t>(v.offsets, want.offsets.size()), want.offsets) << what << " long offsets";
  EXPECT_EQ(download<std::int32_t>(v.col, want.col.size()), want.col) << what << " long columns";
  EXPECT_EQ(download<T>(v.val, want.val.size()), want.val) << what << " long values";
}

// JDS and the sliced formats sorted on the GPU: every array equal to the
// host conversion's, at the format's own cut and at smaller ones (more long
// rows, huge ones too), with sort windows that cut the rows unevenly.
template <class T>
void check_sorted_formats(const tessera::spmv_impl::matrices::HostMatrix<T>& host, const std::string& name,
                          cudaStream_t stream) {
  const auto a = host.view();
  const DeviceMatrix<T> dev(host);
  const tessera::spmv_impl::SpmvSpec spec{tessera::dtype_of<T>(), a.rows, a.cols, a.nnz};
  const tessera::spmv_impl::CsrArrays d{dev.view().row_offsets, dev.view().col_indices, dev.view().values};
  for (std::int64_t cut : {f::long_row_cut(a.rows, a.nnz), std::int64_t(3), std::int64_t(20)}) {
    const std::string tag = name + " cut " + std::to_string(cut);
    const auto jds = g::device_jds<T>(spec, d, cut, stream);
    const auto want = f::to_jds(a, cut);
    EXPECT_EQ(jds->view.rows, std::int64_t(want.perm.size())) << tag;
    EXPECT_EQ(jds->view.max_length, std::int64_t(want.diag_offsets.size()) - 1) << tag;
    EXPECT_EQ(download<std::int32_t>(jds->view.perm, want.perm.size()), want.perm) << tag << " jds perm";
    EXPECT_EQ(download<std::int32_t>(jds->view.length, want.length.size()), want.length) << tag << " jds lengths";
    EXPECT_EQ(download<std::int64_t>(jds->view.diag_offsets, want.diag_offsets.size()), want.diag_offsets)
        << tag << " jds diagonals";
    EXPECT_EQ(download<std::int32_t>(jds->view.col, want.col.size()), want.col) << tag << " jds columns";
    EXPECT_EQ(download<T>(jds->view.val, want.val.size()), want.val) << tag << " jds values";
    expect_long_rows_equal(jds->long_rows.view, want.long_rows, tag + " jds");
    EXPECT_EQ(jds->footprint_bytes, want.bytes()) << tag;
    for (const auto& [height, window] : {std::pair<std::int64_t, std::int64_t>{32, 1024}, {256, a.rows + 1}, {4, 7},
                                         {32, 1}}) {
      const std::string st = tag + " sliced " + std::to_string(height) + "/" + std::to_string(window);
      const auto got = g::device_sliced<T>(spec, d, height, window, cut, stream);
      const auto ws = f::to_sliced(a, height, window, cut);
      EXPECT_EQ(got->view.rows, ws.rows) << st;
      EXPECT_EQ(got->view.slices, ws.slices()) << st;
      EXPECT_EQ(download<std::int32_t>(got->view.perm, ws.perm.size()), ws.perm) << st << " perm";
      EXPECT_EQ(download<std::int64_t>(got->view.slice_offsets, ws.slice_offsets.size()), ws.slice_offsets)
          << st << " slice offsets";
      EXPECT_EQ(download<std::int32_t>(got->view.slice_width, ws.slice_width.size()), ws.slice_width)
          << st << " slice widths";
      EXPECT_EQ(download<std::int32_t>(got->view.col, ws.col.size()), ws.col) << st << " columns";
      EXPECT_EQ(download<T>(got->view.val, ws.val.size()), ws.val) << st << " values";
      expect_long_rows_equal(got->long_rows.view, ws.long_rows, st);
      EXPECT_EQ(got->footprint_bytes, ws.bytes()) << st;
    }
  }
}

}  // namespace conversions

TEST_F(SpmvGpuApi, GpuSortedConversionsMatchTheHostOnes) {
  for (const Shape& s : shapes()) {
    conversions::check_sorted_formats<float>(build<float>(s, 52), s.name, stream());
    conversions::check_sorted_formats<double>(build<double>(s, 53), s.name, stream());
  }
  conversions::check_sorted_formats<float>(long_rows_matrix<float>(54), "few rows of 1e5", stream());
  conversions::check_sorted_formats<float>(tessera::spmv_impl::matrices::stencil_27<float>(20, 55), "stencil27 20^3",
                                           stream());
}

TEST_F(SpmvGpuApi, GpuConversionsMatchTheHostOnes) {
  for (const Shape& s : shapes()) {
    conversions::check_shape<float>(s, stream());
    conversions::check_shape<double>(s, stream());
  }
}
