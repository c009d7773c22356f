// The CUDA GEMM rungs, the cuBLAS baselines, warp_tiled's tile
// configurations and the public API on a GPU, checked element by element
// against the independent long-double reference of gemm_test_support.hpp
// (which also lists the shapes). Compiled in CUDA builds only; every test
// skips when no device is present. The lab's tuning rows are tested in
// lab/tests/test_gemm_lab_gpu.cpp.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>
#include <string_view>
#include <vector>

#include "families/gemm/contract.hpp"
#include "families/gemm/cuda_rungs.hpp"
#include "families/gemm/policy.hpp"
#include "gemm_test_support.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/error.hpp"
#include "tessera/gemm.hpp"

namespace {

using namespace tessera;
using gemm_impl::Fill;
using gemm_impl::GemmCall;
using gemm_impl::GemmOp;
using gemm_impl::GemmSpec;
using gemm_impl::GemmVariant;
using gemm_test::GpuCase;
using gemm_test::Shape;
using GemmGpu = gemm_test::GpuTest;

std::vector<const GemmVariant*> gpu_variants() {
  return gemm_test::rows_where([](const VariantInfo& v) { return v.backend == Backend::cuda; });
}

TEST_F(GemmGpu, EveryVariantEveryShape) {
  std::uint64_t seed = 100;
  for (const Shape& s : gemm_test::kGpuShapes) {
    GpuCase c(s, seed += 10);
    int ran = 0;
    for (const GemmVariant* v : gpu_variants()) {
      if (!v->supports(c.spec)) continue;
      SCOPED_TRACE(std::string(v->info.name) + " " + gemm_test::shape_name(s));
      EXPECT_TRUE(c.matches(c.run(*v, stream()), v->fill == Fill::lower));
      ++ran;
    }
    EXPECT_GE(ran, s.aat ? 5 : 13) << gemm_test::shape_name(s);
  }
}

// Every tessera A*A^T rung gives an exactly symmetric C; the warp-tiled one
// by construction (mirrored stores), the others because a_ik a_jk and
// a_jk a_ik are the same products summed in the same order.
TEST_F(GemmGpu, AatIsExactlySymmetric) {
  GpuCase c({true, 300, 300, 77, 1, 0, 2}, 7);
  for (const GemmVariant* v : gpu_variants()) {
    if (!v->supports(c.spec) || v->fill != Fill::full) continue;
    SCOPED_TRACE(std::string(v->info.name));
    const auto got = c.run(*v, stream());
    for (std::size_t i = 0; i < c.s.m; ++i)
      for (std::size_t j = 0; j < i; ++j)
        ASSERT_EQ(got[i * c.c0.ld + j], got[j * c.c0.ld + i]) << i << " " << j;
  }
}

// Each configuration warp_tiled chooses among, pinned, at its tile edges and
// (square ones) for A*A^T: the dispatcher takes any of them for some shape.
TEST_F(GemmGpu, WarpTiledConfigurationsAtTheirTileEdges) {
  const auto kernels = gemm_impl::warp_tiled_kernels();
  ASSERT_EQ(kernels.size(), gemm_impl::policy::WARP_TILED_TILE_COUNT);
  const GemmVariant& ab = gemm_impl::variants_ladder().at("warp_tiled", "test");
  const GemmVariant& aat = gemm_impl::variants_ladder().at("aat_warp_tiled", "test");
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& tile = gemm_impl::policy::WARP_TILED_TILES[i];
    EXPECT_EQ(kernels[i].bm, tile.bm);
    EXPECT_EQ(kernels[i].bn, tile.bn);
    EXPECT_EQ(kernels[i].bk, tile.bk);
    EXPECT_EQ(kernels[i].run_aat != nullptr, tile.bm == tile.bn);
    gemm_test::check_configuration(std::string(tile.name), kernels[i], ab, aat, stream());
  }
}

// With 132 SMs (H100 SXM) the wave model must avoid the 192-tile grid of
// 128 x 128 at 1000 x 3000 (2 tiles on the busiest SM, 1.45 on average)
// and take the fastest measured configuration on large squares; on any
// device, A*A^T gets a square configuration.
TEST_F(GemmGpu, DispatcherPicksByTheWaveModel) {
  const auto name_of = [](const GemmSpec& s) {
    return gemm_impl::policy::WARP_TILED_TILES[gemm_impl::choose_warp_tiled(s).tile].name;
  };
  for (const GemmSpec& s : {GemmSpec{GemmOp::aat, 4096, 4096, 64, 64, 0, 4096}, GemmSpec{GemmOp::aat, 5, 5, 5, 5, 0, 5}}) {
    const auto& tile = gemm_impl::policy::WARP_TILED_TILES[gemm_impl::choose_warp_tiled(s).tile];
    EXPECT_EQ(tile.bm, tile.bn);
  }
  int device = 0, sms = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
  if (sms == 132) {
    EXPECT_EQ(name_of(GemmSpec{GemmOp::ab, 1000, 3000, 777, 777, 3000, 3000}), "128x64x16");
    EXPECT_EQ(name_of(GemmSpec{GemmOp::ab, 8192, 8192, 8192, 8192, 8192, 8192}), "128x128x16_serpentine");
  }
}

// A run only enqueues work: it can be captured in a graph (after a first
// run, which prepares the kernel) and replayed.
TEST_F(GemmGpu, WarpTiledRunIsGraphCapturable) {
  for (const char* name : {"warp_tiled", "aat_warp_tiled"}) {
    SCOPED_TRACE(name);
    const GemmVariant& v = gemm_impl::variants_ladder().at(name, "test");
    const bool aat = v.supports(GemmSpec{GemmOp::aat, 4, 4, 4, 4, 0, 4});
    GpuCase c(aat ? Shape{true, 200, 200, 50} : Shape{false, 200, 150, 50}, 21);
    (void)c.run(v, stream());  // first run
    TESSERA_CUDA(cudaMemsetAsync(c.dc.data(), 0xFF, c.dc.bytes(), stream()));
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    cudaGraph_t graph = nullptr;
    TESSERA_CUDA(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
    v.run(GemmCall{c.spec, 1, 0, c.da.data(), aat ? nullptr : c.db.data(), c.dc.data(), nullptr, stream()});
    TESSERA_CUDA(cudaStreamEndCapture(stream(), &graph));
    cudaGraphExec_t exec = nullptr;
    TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    TESSERA_CUDA(cudaGraphLaunch(exec, stream()));
    EXPECT_TRUE(c.matches(c.download(stream())));
    (void)cudaGraphExecDestroy(exec);
    (void)cudaGraphDestroy(graph);
  }
}

// ---- public API --------------------------------------------------------------

TEST_F(GemmGpu, ApiDefaultsComputeBothProducts) {
  EXPECT_EQ(gemm_default_variant(333, 555, 77), "warp_tiled");
  EXPECT_EQ(gemm_aat_default_variant(300, 65), "aat_warp_tiled");
  GpuCase ab({false, 333, 555, 77, 1, 3, 5, 0.5f, -1}, 31);
  ab.dc.upload(ab.c0.v.data(), ab.c0.v.size());
  TESSERA_CUDA(cudaDeviceSynchronize());
  gemm(ab.da.data(), ab.db.data(), 333, 555, 77, ab.dc.data(),
       {.alpha = 0.5f, .beta = -1, .lda = ab.a.ld, .ldb = ab.b.ld, .ldc = ab.c0.ld, .stream = stream()});
  EXPECT_TRUE(ab.matches(ab.download(stream())));

  // A*A^T: every API variant writes the whole symmetric C, SYRK included.
  for (const char* name : {"", "cublas_ssyrk", "aat_padded_tile"}) {
    SCOPED_TRACE(name);
    GpuCase aat({true, 300, 300, 65, 0, 0, 1}, 41);
    aat.dc.upload(aat.c0.v.data(), aat.c0.v.size());
    TESSERA_CUDA(cudaDeviceSynchronize());
    gemm_aat(aat.da.data(), 300, 65, aat.dc.data(), {.ldc = aat.c0.ld, .variant = name, .stream = stream()});
    EXPECT_TRUE(aat.matches(aat.download(stream())));
  }
}

// Dense leading dimensions by default; a caller's workspace is used as is
// (enough for the cuBLAS variants: no allocation) and one too small is
// refused before anything runs.
TEST_F(GemmGpu, ApiDenseDefaultsAndCallerWorkspace) {
  GpuCase c({false, 70, 90, 50}, 61);
  DeviceBytes ws(gemm_workspace_bytes(70, 90, 50, {.variant = "cublas_sgemm"}), "test workspace");
  for (const char* name : {"warp_tiled", "cublas_sgemm"}) {
    SCOPED_TRACE(name);
    c.dc.upload(c.c0.v.data(), c.c0.v.size());
    TESSERA_CUDA(cudaDeviceSynchronize());
    gemm(c.da.data(), c.db.data(), 70, 90, 50, c.dc.data(),
         {.variant = name, .stream = stream(), .workspace = {ws.data(), ws.bytes()}});
    EXPECT_TRUE(c.matches(c.download(stream())));
  }
  EXPECT_THROW(gemm(c.da.data(), c.db.data(), 70, 90, 50, c.dc.data(),
                    {.variant = "cublas_sgemm", .stream = stream(), .workspace = {ws.data(), 1024}}),
               Error);
}

TEST_F(GemmGpu, ApiChecksMemoryKindsAndNames) {
  GpuCase c({false, 8, 8, 8}, 51);
  std::vector<float> host_c(64, -7.0f);
  const std::vector<float> host_a(64, 1.0f), host_b(64, 1.0f);
  // A host pointer for a GPU variant.
  EXPECT_THROW(gemm(host_a.data(), c.db.data(), 8, 8, 8, c.dc.data(), {.stream = stream()}), Error);
  EXPECT_THROW(gemm(c.da.data(), c.db.data(), 8, 8, 8, host_c.data(), {.stream = stream()}), Error);
  // A variant of the other product.
  EXPECT_THROW(gemm(c.da.data(), c.db.data(), 8, 8, 8, c.dc.data(), {.variant = "aat_naive"}), Error);
  EXPECT_THROW(gemm_aat(c.da.data(), 8, 8, c.dc.data(), {.variant = "naive"}), Error);
  // Overlap on the device.
  EXPECT_THROW(gemm_aat(c.dc.data(), 4, 4, c.dc.data() + 8), Error);
  // A cpu_ variant with host pointers runs in stream order.
  gemm(host_a.data(), host_b.data(), 8, 8, 8, host_c.data(), {.variant = "cpu_reference", .stream = stream()});
  for (float x : host_c) EXPECT_EQ(x, 8.0f);
  // Empty products with null pointers do nothing.
  EXPECT_NO_THROW(gemm(nullptr, nullptr, 0, 0, 4, nullptr, {.stream = stream()}));
  EXPECT_NO_THROW(gemm_aat(nullptr, 0, 4, nullptr, {.stream = stream()}));
}

}  // namespace
