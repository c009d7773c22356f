// The CUDA GEMM rungs, the cuBLAS baselines and the public API on a GPU,
// checked element by element against the independent long-double reference
// of gemm_test_support.hpp. Compiled in CUDA builds only; every test skips
// when no device is present.
//
// The shapes cover every tile size of the ladder (16, 32, 64, 128, 256) at
// and around its multiples, vectors (m or n = 1), k = 0 and k = 1, padded and
// odd leading dimensions (no 16-byte row alignment: the scalar-copy paths),
// alpha / beta, and a C that starts as NaN when beta = 0 (it must not be read).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "families/gemm/cuda_rungs.hpp"
#include "gemm_test_support.hpp"
#include "families/gemm/contract.hpp"
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
using gemm_test::Mat;
using gemm_test::Shape;

bool gpu_available() {
  static const bool available = [] {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    (void)cudaGetLastError();
    return err == cudaSuccess && count > 0;
  }();
  return available;
}

class GemmGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gpu_available()) GTEST_SKIP() << "no CUDA device: GPU tests skipped";
    TESSERA_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  void TearDown() override {
    if (stream_ == nullptr) return;
    EXPECT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
    (void)cudaStreamDestroy(stream_);
    const cudaError_t err = cudaGetLastError();
    EXPECT_EQ(err, cudaSuccess) << cudaGetErrorString(err);
  }
  cudaStream_t stream_ = nullptr;
};

const Shape kShapes[] = {
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
struct Case {
  Shape s;
  Mat a, b, c0;
  gemm_test::Reference ref;
  DeviceBuffer<float> da, db, dc;
  GemmSpec spec;

  explicit Case(const Shape& sh, std::uint64_t seed) : s(sh) {
    a = gemm_test::random_mat(s.m, s.k, s.pad_a, seed);
    b = s.aat ? Mat{} : gemm_test::random_mat(s.k, s.n, s.pad_b, seed + 1);
    c0 = gemm_test::initial_c(s.m, s.n, s.pad_c, s.beta, seed + 2);
    ref = gemm_test::reference(a, s.aat ? nullptr : &b, s.aat, s.alpha, s.beta, c0);
    da = DeviceBuffer<float>(a.v.size(), "test A");
    da.upload(a.v.data(), a.v.size());
    if (!s.aat) {
      db = DeviceBuffer<float>(b.v.size(), "test B");
      db.upload(b.v.data(), b.v.size());
    }
    dc = DeviceBuffer<float>(c0.v.size(), "test C");
    spec = {s.aat ? GemmOp::aat : GemmOp::ab, s.m, s.n, s.k, a.ld, s.aat ? 0 : b.ld, c0.ld};
  }

  // Runs `v` on C = C0 and returns C's storage.
  std::vector<float> run(const GemmVariant& v, cudaStream_t stream) {
    dc.upload(c0.v.data(), c0.v.size());
    TESSERA_CUDA(cudaDeviceSynchronize());
    DeviceBytes ws(v.workspace_bytes(spec), "test workspace");
    ws.fill_bytes(0xA5, stream);
    v.run(GemmCall{spec, s.alpha, s.beta, da.data(), s.aat ? nullptr : db.data(), dc.data(), ws.data(), stream});
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    TESSERA_CUDA(cudaGetLastError());
    std::vector<float> got(c0.v.size());
    dc.download(got.data(), got.size());
    return got;
  }
};

std::vector<const GemmVariant*> gpu_variants() {
  std::vector<const GemmVariant*> out;
  for (const auto& v : gemm_impl::variants_ladder().all())
    if (v.info.backend == Backend::cuda) out.push_back(&v);
  return out;
}

TEST_F(GemmGpu, EveryVariantEveryShape) {
  std::uint64_t seed = 100;
  for (const Shape& s : kShapes) {
    Case c(s, seed += 10);
    int ran = 0;
    for (const GemmVariant* v : gpu_variants()) {
      if (!v->supports(c.spec)) continue;
      SCOPED_TRACE(std::string(v->info.name) + " " + gemm_test::shape_name(s));
      const auto got = c.run(*v, stream_);
      EXPECT_TRUE(gemm_test::matches(got, c.c0, c.ref, s.k, v->fill == Fill::lower));
      ++ran;
    }
    EXPECT_GE(ran, s.aat ? 5 : 17) << gemm_test::shape_name(s);
  }
}

// Every tessera A*A^T rung gives an exactly symmetric C; the warp-tiled one
// by construction (mirrored stores), the others because a_ik a_jk and
// a_jk a_ik are the same products summed in the same order.
TEST_F(GemmGpu, AatIsExactlySymmetric) {
  Case c({true, 300, 300, 77, 1, 0, 2}, 7);
  for (const GemmVariant* v : gpu_variants()) {
    if (!v->supports(c.spec) || v->fill != Fill::full) continue;
    SCOPED_TRACE(std::string(v->info.name));
    const auto got = c.run(*v, stream_);
    for (std::size_t i = 0; i < c.s.m; ++i)
      for (std::size_t j = 0; j < i; ++j)
        ASSERT_EQ(got[i * c.c0.ld + j], got[j * c.c0.ld + i]) << i << " " << j;
  }
}

// Every warp-tiled configuration: the dispatcher's table and the tuning
// configurations it does not (yet) choose among (paired lanes).
struct NamedConfig {
  std::string name;
  gemm_impl::WarpTiledKernels kernels;
};
std::vector<NamedConfig> all_warp_tiled_configs() {
  std::vector<NamedConfig> out;
  for (const auto& cfg : gemm_impl::warp_tiled_configs()) out.push_back({std::string(cfg.name), cfg.kernels});
  for (const NamedConfig& extra : {NamedConfig{"128x128x16_pl", gemm_impl::warp_tiled_kernels_128x128x16_pl()},
                                   NamedConfig{"128x128x32_pl", gemm_impl::warp_tiled_kernels_128x128x32_pl()},
                                   NamedConfig{"128x256x16_pl", gemm_impl::warp_tiled_kernels_128x256x16_pl()}}) {
    bool listed = false;
    for (const NamedConfig& c : out) listed = listed || c.name == extra.name;
    if (!listed) out.push_back(extra);
  }
  return out;
}

// Each warp-tiled configuration at sizes around its own tile, including a
// grid with several L2 groups and a ragged last group; whole tiles with whole
// slabs (the interior copy path of the _ic/_pl configurations: 16-byte and,
// with an odd ldb, 4-byte B rows; padded A); k = 1 (no whole slab at all).
TEST_F(GemmGpu, WarpTiledConfigurationsAtTheirTileEdges) {
  for (const NamedConfig& cfg : all_warp_tiled_configs()) {
    const std::size_t bm = std::size_t(cfg.kernels.bm), bn = std::size_t(cfg.kernels.bn);
    const std::size_t bk = std::size_t(cfg.kernels.bk);
    for (const Shape& s : {Shape{false, 9 * bm + 1, 2 * bn - 1, 3 * bk + 1},
                           Shape{false, bm - 1, bn + 1, 2, 0, 2, 0, 1, 1},
                           Shape{false, 2 * bm, 3 * bn, 4 * bk},
                           Shape{false, 2 * bm, 2 * bn, 2 * bk + 3, 3, 1, 0, 0.75f, -0.5f},
                           Shape{false, bm + 1, 2 * bn, 1}}) {
      SCOPED_TRACE(cfg.name + " " + gemm_test::shape_name(s));
      Case c(s, 3);
      const GemmVariant* v = gemm_impl::variants_ladder().find("warp_tiled_" + cfg.name);
      ASSERT_NE(v, nullptr);
      EXPECT_TRUE(gemm_test::matches(c.run(*v, stream_), c.c0, c.ref, s.k));
    }
  }
}

// The symmetric product with each square configuration (the dispatcher
// picks one; the others run only here): whole and ragged tiles, whole slabs
// and a partial one, the mirrored stores checked by the reference.
TEST_F(GemmGpu, WarpTiledConfigurationsComputeAAt) {
  const GemmVariant* base = gemm_impl::variants_ladder().find("aat_warp_tiled");
  ASSERT_NE(base, nullptr);
  for (const NamedConfig& cfg : all_warp_tiled_configs()) {
    if (cfg.kernels.run_aat == nullptr) continue;
    const std::size_t bm = std::size_t(cfg.kernels.bm), bk = std::size_t(cfg.kernels.bk);
    GemmVariant v = *base;
    v.run = cfg.kernels.run_aat;
    for (const Shape& s : {Shape{true, 3 * bm, 3 * bm, 2 * bk}, Shape{true, 2 * bm + 1, 2 * bm + 1, bk + 5, 1, 0, 3}}) {
      SCOPED_TRACE(cfg.name + " " + gemm_test::shape_name(s));
      Case c(s, 5);
      EXPECT_TRUE(gemm_test::matches(c.run(v, stream_), c.c0, c.ref, s.k));
    }
  }
}

TEST_F(GemmGpu, DispatcherPicksARegisteredConfiguration) {
  for (const GemmSpec& s : {GemmSpec{GemmOp::ab, 4096, 4096, 4096, 4096, 4096, 4096},
                            GemmSpec{GemmOp::ab, 1000, 3000, 777, 777, 3000, 3000},
                            GemmSpec{GemmOp::ab, 1, 1, 1, 1, 1, 1}, GemmSpec{GemmOp::aat, 4096, 4096, 64, 64, 0, 4096}}) {
    const auto& cfg = gemm_impl::choose_warp_tiled(s);
    EXPECT_NE(gemm_impl::variants_ladder().find("warp_tiled_" + std::string(cfg.name)), nullptr);
    if (s.op == GemmOp::aat) {
      EXPECT_NE(cfg.kernels.run_aat, nullptr);
    }
  }
  // With 132 SMs (H100 SXM) the wave model must avoid the 192-tile grid of
  // 128 x 128 at 1000 x 3000 (2 tiles on the busiest SM, 1.45 on average)
  // and take the fastest measured configuration on large squares.
  int device = 0, sms = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
  if (sms == 132) {
    EXPECT_EQ(gemm_impl::choose_warp_tiled(GemmSpec{GemmOp::ab, 1000, 3000, 777, 777, 3000, 3000}).name,
              std::string_view("128x64x16"));
    EXPECT_EQ(gemm_impl::choose_warp_tiled(GemmSpec{GemmOp::ab, 8192, 8192, 8192, 8192, 8192, 8192}).name,
              std::string_view("128x128x16_sp"));
  }
}

// A run only enqueues work: it can be captured in a graph (after a first
// run, which prepares the kernel) and replayed.
TEST_F(GemmGpu, WarpTiledRunIsGraphCapturable) {
  for (const char* name : {"warp_tiled", "aat_warp_tiled"}) {
    SCOPED_TRACE(name);
    const GemmVariant* v = gemm_impl::variants_ladder().find(name);
    ASSERT_NE(v, nullptr);
    const bool aat = v->supports(GemmSpec{GemmOp::aat, 4, 4, 4, 4, 0, 4});
    Case c(aat ? Shape{true, 200, 200, 50} : Shape{false, 200, 150, 50}, 21);
    (void)c.run(*v, stream_);  // first run
    TESSERA_CUDA(cudaMemsetAsync(c.dc.data(), 0xFF, c.dc.bytes(), stream_));
    TESSERA_CUDA(cudaStreamSynchronize(stream_));
    cudaGraph_t graph = nullptr;
    TESSERA_CUDA(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    v->run(GemmCall{c.spec, 1, 0, c.da.data(), aat ? nullptr : c.db.data(), c.dc.data(), nullptr, stream_});
    TESSERA_CUDA(cudaStreamEndCapture(stream_, &graph));
    cudaGraphExec_t exec = nullptr;
    TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    TESSERA_CUDA(cudaGraphLaunch(exec, stream_));
    TESSERA_CUDA(cudaStreamSynchronize(stream_));
    std::vector<float> got(c.c0.v.size());
    c.dc.download(got.data(), got.size());
    EXPECT_TRUE(gemm_test::matches(got, c.c0, c.ref, c.s.k));
    (void)cudaGraphExecDestroy(exec);
    (void)cudaGraphDestroy(graph);
  }
}

// ---- stream-K (warp_tiled_128x128x16_sk) --------------------------------------

// Shapes whose 128 x 128 tiles do not fill whole waves of the device's
// resident blocks (2 per SM), so that the stream-K variant splits tiles by
// k: a ragged k, several tile columns, a tiny remainder (S + 3 tiles) with
// padded leading dimensions, 4-byte B copies and beta; and shapes it must
// run data-parallel (k < 16, T % S == 0, T < S). The reference is the slow
// long-double one: the shapes are thin to keep it to a few seconds.
struct StreamKShape {
  Shape shape;
  bool split;  // expected to share tiles out by k
};
std::vector<StreamKShape> stream_k_shapes(std::size_t slots) {
  const std::size_t tiles_1_5 = (3 * slots / 2 + 1) / 2;  // tile rows for ~1.5 waves of 2 tile columns
  return {
      {{false, tiles_1_5 * 128 - 3, 130, 250}, true},
      {{false, (slots + 3) * 128 - 50, 64, 160, 3, 1, 5, 0.75f, -0.5f}, true},
      {{false, tiles_1_5 * 128 - 3, 130, 9}, false},  // one slab per tile: nothing to split
      {{false, slots * 128, 100, 40}, false},        // T == S
      {{false, 1000, 3000, 7}, false},                // T < S
  };
}

// The resident block slots the stream-K plan assumes: 2 blocks per SM.
std::size_t resident_slots() {
  int device = 0, sms = 0;
  TESSERA_CUDA(cudaGetDevice(&device));
  TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return 2 * std::size_t(sms);
}

TEST_F(GemmGpu, StreamKSplitTilesMatchAndRepeatBitwise) {
  const GemmVariant* v = gemm_impl::variants_ladder().find("warp_tiled_128x128x16_sk");
  ASSERT_NE(v, nullptr);
  std::uint64_t seed = 600;
  for (const StreamKShape& sk : stream_k_shapes(resident_slots())) {
    SCOPED_TRACE(gemm_test::shape_name(sk.shape));
    Case c(sk.shape, seed += 10);
    const auto split = gemm_impl::warp_tiled_128x128x16_sk_split(c.spec);
    EXPECT_EQ(split.sk_blocks > 0, sk.split) << split.sk_blocks << " stream-K blocks, " << split.sk_tiles
                                             << " tiles, " << split.iters << " slabs per tile";
    if (split.sk_blocks > 0) {
      EXPECT_GT(v->workspace_bytes(c.spec), 0u);
    }
    const auto first = c.run(*v, stream_);
    EXPECT_TRUE(gemm_test::matches(first, c.c0, c.ref, sk.shape.k));
    if (!sk.split) continue;
    const auto again = c.run(*v, stream_);  // the workspace re-poisoned, the arrivals in another order
    ASSERT_EQ(first.size(), again.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < first.size(); ++i)
      differ += std::memcmp(&first[i], &again[i], sizeof(float)) != 0;
    EXPECT_EQ(differ, 0u) << "elements that differ between two runs";
  }
}

// The split path (counters memset + one kernel) captured in a graph and
// replayed twice, the workspace re-poisoned before each: each replay must
// zero its counters itself. C is reset to C0 before each (beta != 0).
TEST_F(GemmGpu, StreamKRunIsGraphCapturable) {
  const GemmVariant* v = gemm_impl::variants_ladder().find("warp_tiled_128x128x16_sk");
  ASSERT_NE(v, nullptr);
  Case c(stream_k_shapes(resident_slots())[1].shape, 77);
  (void)c.run(*v, stream_);  // first run prepares the kernel
  DeviceBytes ws(v->workspace_bytes(c.spec), "test workspace");
  TESSERA_CUDA(cudaStreamSynchronize(stream_));
  cudaGraph_t graph = nullptr;
  TESSERA_CUDA(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
  v->run(GemmCall{c.spec, c.s.alpha, c.s.beta, c.da.data(), c.db.data(), c.dc.data(), ws.data(), stream_});
  TESSERA_CUDA(cudaStreamEndCapture(stream_, &graph));
  cudaGraphExec_t exec = nullptr;
  TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    ws.fill_bytes(0x5A + replay, stream_);
    TESSERA_CUDA(cudaStreamSynchronize(stream_));
    c.dc.upload(c.c0.v.data(), c.c0.v.size());
    TESSERA_CUDA(cudaDeviceSynchronize());
    TESSERA_CUDA(cudaGraphLaunch(exec, stream_));
    TESSERA_CUDA(cudaStreamSynchronize(stream_));
    std::vector<float> got(c.c0.v.size());
    c.dc.download(got.data(), got.size());
    EXPECT_TRUE(gemm_test::matches(got, c.c0, c.ref, c.s.k)) << "replay " << replay;
  }
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
}

// ---- public API --------------------------------------------------------------

TEST_F(GemmGpu, ApiDefaultsComputeBothProducts) {
  Case ab({false, 333, 555, 77, 1, 3, 5, 0.5f, -1}, 31);
  ab.dc.upload(ab.c0.v.data(), ab.c0.v.size());
  TESSERA_CUDA(cudaDeviceSynchronize());
  gemm(333, 555, 77, 0.5f, ab.da.data(), ab.a.ld, ab.db.data(), ab.b.ld, -1, ab.dc.data(), ab.c0.ld,
       {.stream = stream_});
  TESSERA_CUDA(cudaStreamSynchronize(stream_));
  std::vector<float> got(ab.c0.v.size());
  ab.dc.download(got.data(), got.size());
  EXPECT_TRUE(gemm_test::matches(got, ab.c0, ab.ref, 77));

  // A*A^T: every API variant writes the whole symmetric C, SYRK included.
  for (const char* name : {"", "cublas_ssyrk", "aat_padded_tile"}) {
    SCOPED_TRACE(name);
    Case aat({true, 300, 300, 65, 0, 0, 1}, 41);
    aat.dc.upload(aat.c0.v.data(), aat.c0.v.size());
    TESSERA_CUDA(cudaDeviceSynchronize());
    gemm_aat(300, 65, 1, aat.da.data(), aat.a.ld, 0, aat.dc.data(), aat.c0.ld, {.variant = name, .stream = stream_});
    TESSERA_CUDA(cudaStreamSynchronize(stream_));
    std::vector<float> full(aat.c0.v.size());
    aat.dc.download(full.data(), full.size());
    EXPECT_TRUE(gemm_test::matches(full, aat.c0, aat.ref, 65));
  }
}

TEST_F(GemmGpu, ApiChecksMemoryKindsAndNames) {
  Case c({false, 8, 8, 8}, 51);
  std::vector<float> host_c(64, -7.0f);
  const std::vector<float> host_a(64, 1.0f), host_b(64, 1.0f);
  // A host pointer for a GPU variant.
  EXPECT_THROW(gemm(8, 8, 8, 1, host_a.data(), 8, c.db.data(), 8, 0, c.dc.data(), 8, {.stream = stream_}), Error);
  EXPECT_THROW(gemm(8, 8, 8, 1, c.da.data(), 8, c.db.data(), 8, 0, host_c.data(), 8, {.stream = stream_}), Error);
  // A variant of the other product.
  EXPECT_THROW(gemm(8, 8, 8, 1, c.da.data(), 8, c.db.data(), 8, 0, c.dc.data(), 8, {.variant = "aat_naive"}), Error);
  EXPECT_THROW(gemm_aat(8, 8, 1, c.da.data(), 8, 0, c.dc.data(), 8, {.variant = "naive"}), Error);
  // Overlap on the device.
  EXPECT_THROW(gemm_aat(4, 4, 1, c.dc.data(), 4, 0, c.dc.data() + 8, 4), Error);
  // A cpu_ variant with host pointers runs in stream order.
  gemm(8, 8, 8, 1, host_a.data(), 8, host_b.data(), 8, 0, host_c.data(), 8,
       {.variant = "cpu_reference", .stream = stream_});
  for (float x : host_c) EXPECT_EQ(x, 8.0f);
  // Empty products with null pointers do nothing.
  EXPECT_NO_THROW(gemm(0, 0, 4, 1, nullptr, 4, nullptr, 1, 0, nullptr, 1, {.stream = stream_}));
  EXPECT_NO_THROW(gemm_aat(0, 4, 1, nullptr, 4, 0, nullptr, 1, {.stream = stream_}));
}

}  // namespace
