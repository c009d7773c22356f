// batched_scan on the GPU (skipped without a device): every CUDA rung against
// the independent long double reference of batched_scan_support.hpp, on the
// shapes that break scans (1 sample, warp and tile boundaries, a row that
// fills the fused tile exactly, rows of several tiles), every layout (odd
// pitches, misaligned bases, in place), every direction, inclusive and
// exclusive, every accumulator the rung supports; nothing outside the output
// rows may change. Then the public API: the default variant per length,
// device pointers, bitwise reproducibility, graph capture.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "batched_scan_support.hpp"
#include "families/batched_scan/cuda_rungs.hpp"
#include "harness/generate.hpp"
#include "families/batched_scan/contract.hpp"
#include "tessera/batched_scan.hpp"
#include "tessera/core/cuda_check.hpp"
#include "test_gpu_support.hpp"

namespace {

using namespace tessera;
using batched_scan_impl::ScanCall;
using batched_scan_impl::ScanSpec;
using batched_scan_impl::ScanVariant;
using scan_test::Layout;
using tessera_test::device_sync;

constexpr std::size_t TILE = batched_scan_impl::TilePolicy::TILE;

using scan_test::random_rows;

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  explicit DeviceBuffer(std::size_t n) {
    if (n > 0) TESSERA_CUDA(cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (p != nullptr) (void)cudaFree(p);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

std::vector<float> download(const float* d, std::size_t n) {
  std::vector<float> h(n);
  if (n > 0) TESSERA_CUDA(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

void upload(float* d, const std::vector<float>& h) {
  if (!h.empty()) TESSERA_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
}

ScanSpec spec_of(const Layout& l, ScanDirection d, bool excl, Accum a) {
  return {d, a, excl, l.rows, l.len, l.in_pitch, l.in_place ? l.in_pitch : l.out_pitch, l.in_place};
}

// Runs variant `v` on the device with `rows0` laid out as `l`; the workspace
// is poisoned (0xFF) so that a rung relying on zeroed memory fails.
::testing::AssertionResult run_and_check(const ScanVariant& v, const Layout& l, ScanDirection d, bool excl, Accum a,
                                         const std::vector<float>& rows0, cudaStream_t stream) {
  const std::vector<float> in = scan_test::make_input(l, rows0);
  const ScanSpec spec = spec_of(l, d, excl, a);
  DeviceBuffer<float> din(in.size());
  upload(din.p, in);
  const std::size_t ws_bytes = v.workspace_bytes(spec);
  DeviceBuffer<unsigned char> ws(ws_bytes);
  if (ws_bytes > 0) TESSERA_CUDA(cudaMemset(ws.p, 0xFF, ws_bytes));
  std::vector<float> before;
  std::unique_ptr<DeviceBuffer<float>> dout;
  float* out = nullptr;
  if (l.in_place) {
    before = in;
    out = din.p + l.in_off;
  } else {
    before.assign(scan_test::buffer_elems(l.out_off, l.rows, l.out_pitch, l.len),
                  std::bit_cast<float>(scan_test::kPoisonBits));
    dout = std::make_unique<DeviceBuffer<float>>(before.size());
    upload(dout->p, before);
    out = dout->p + l.out_off;
  }
  device_sync();
  v.run(ScanCall{spec, din.p + l.in_off, out, ws.p, stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  if (!l.in_place) {
    const std::vector<float> in_after = download(din.p, in.size());
    if (std::memcmp(in_after.data(), in.data(), in.size() * sizeof(float)) != 0)
      return ::testing::AssertionFailure() << "the input was modified";
  }
  const std::vector<float> after = l.in_place ? download(din.p, in.size()) : download(dout->p, before.size());
  return scan_test::check_output(l, d, excl, a, rows0, before, after);
}

std::vector<const ScanVariant*> cuda_rungs() {
  std::vector<const ScanVariant*> r;
  for (const auto& v : batched_scan_impl::all_variants())
    if (v.info.backend != Backend::cpu) r.push_back(&v);
  return r;
}

class BatchedScanGpu : public tessera_test::GpuFixture<::testing::Test> {};

// Every rung, every direction, inclusive/exclusive, accumulator and layout,
// on row lengths around the warp, the tile items and the rows-per-warp of the
// seed kernels.
TEST_F(BatchedScanGpu, EveryRungMatchesReferenceOnSmallShapes) {
  const std::size_t shapes[][2] = {{1, 1},  {33, 1},   {70, 5},  {1, 31},  {3, 32},   {2, 33},
                                   {65, 29}, {5, 127}, {9, 128}, {6, 150}, {7, 200}, {3, 256}, {4, 1000}};
  std::uint64_t seed = 100;
  for (const ScanVariant* v : cuda_rungs())
    for (const auto& sh : shapes) {
      const std::vector<float> rows0 = random_rows(sh[0], sh[1], ++seed);
      for (const Layout& l : scan_test::layouts_for(sh[0], sh[1]))
        for (ScanDirection d : scan_test::kDirections)
          for (bool excl : {false, true})
            for (Accum a : scan_test::kAccums) {
              if (!v->supports(spec_of(l, d, excl, a))) continue;
              SCOPED_TRACE(std::string(v->info.name) + " " + scan_test::describe(l, d, excl, a));
              ASSERT_TRUE(run_and_check(*v, l, d, excl, a, rows0, stream()));
            }
    }
}

// Lengths at the fused tile's edge (a row filling the tile exactly at every
// alignment) and rows of several tiles (multi_tile's carries, its empty last
// tiles for some alignments), every accumulator.
TEST_F(BatchedScanGpu, TileBoundaries) {
  const std::size_t lens[] = {TILE - 4, TILE - 3, TILE - 2, TILE + 1, 3 * TILE + 7};
  std::uint64_t seed = 500;
  for (const ScanVariant* v : cuda_rungs()) {
    if (v->info.kind() == Kind::seed) continue;  // the seed rungs have no tiles (small shapes cover them)
    for (std::size_t len : lens) {
      const std::vector<float> rows0 = random_rows(3, len, ++seed);
      for (const Layout& l : scan_test::layouts_for(3, len))
        for (ScanDirection d : scan_test::kDirections)
          for (Accum a : scan_test::kAccums) {
            const bool excl = (seed + static_cast<int>(d)) % 2 == 0;
            if (!v->supports(spec_of(l, d, excl, a))) continue;
            SCOPED_TRACE(std::string(v->info.name) + " " + scan_test::describe(l, d, excl, a));
            ASSERT_TRUE(run_and_check(*v, l, d, excl, a, rows0, stream()));
          }
    }
  }
}

// Persistent grids: many more rows than resident blocks, so every block
// cycles its row buffers (fused_pipelined's stages, the grid-stride loops)
// several times, with rows at every alignment (odd pitches) and in place.
TEST_F(BatchedScanGpu, ManyRowsPerPersistentBlock) {
  int sms = 0;
  TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::size_t rows = 8 * static_cast<std::size_t>(sms) + 5;
  const std::size_t lens[] = {37, TILE - 3};
  std::uint64_t seed = 7000;
  for (const ScanVariant* v : cuda_rungs()) {
    if (v->info.kind() == Kind::seed) continue;  // no persistent grid (small shapes cover them)
    for (std::size_t len : lens) {
      const std::vector<float> rows0 = random_rows(rows, len, ++seed);
      const Layout layouts[] = {{rows, len, len + 1, len + 3, 1, 2}, {rows, len, len + 3, len + 3, 1, 1, true}};
      for (const Layout& l : layouts)
        for (ScanDirection d : scan_test::kDirections)
          for (Accum a : scan_test::kAccums) {
            // Full rows: forward_backward with a 4- and an 8-byte accumulator keep the run time down.
            if (len > 37 && (d != ScanDirection::forward_backward || a == Accum::f64 || a == Accum::kahan)) continue;
            const bool excl = (seed + static_cast<int>(d) + static_cast<int>(a)) % 2 == 0;
            if (!v->supports(spec_of(l, d, excl, a))) continue;
            SCOPED_TRACE(std::string(v->info.name) + " rows " + std::to_string(rows) + " " +
                         scan_test::describe(l, d, excl, a));
            ASSERT_TRUE(run_and_check(*v, l, d, excl, a, rows0, stream()));
          }
    }
  }
}

// A few long rows (many tiles per row, more than one warp chunk of tile
// carries: > 32 tiles) with wide accumulators.
TEST_F(BatchedScanGpu, LongRowsManyTiles) {
  for (const char* name :
       {"multi_tile", "multi_tile_pipelined", "multi_tile_resident", "multi_tile_resident_self", "multi_tile_streamed"}) {
    const ScanVariant* v = batched_scan_impl::find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    const std::size_t len = 40 * TILE + 13;
    const std::vector<float> rows0 = random_rows(2, len, 900);
    const Layout l{2, len, len + 1, len + 2, 1, 3};
    for (ScanDirection d : scan_test::kDirections)
      for (Accum a : {Accum::f64, Accum::dfloat}) {
        SCOPED_TRACE(std::string(name) + " " + scan_test::describe(l, d, false, a));
        ASSERT_TRUE(run_and_check(*v, l, d, false, a, rows0, stream()));
      }
  }
}

// multi_tile_resident keeps whole rows in shared memory: many rows of a few
// tiles (every block cycles its buffers with several rows in flight, in
// place too), a row of exactly its capacity (SMs x 2.5 tiles: every block
// holds tiles of it at once) and a row one tile past it (streamed: the
// kernel's multi_tile_streamed path). multi_tile_streamed streams them all
// (counted, then scanned from a second read).
TEST_F(BatchedScanGpu, ResidentRowsUpToCapacity) {
  int sms = 0;
  TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::size_t capacity = batched_scan_impl::resident_max_row_tiles(sms);  // tiles per row
  struct Case {
    std::size_t rows, len;
  };
  const Case cases[] = {{3 * static_cast<std::size_t>(sms) + 1, 3 * TILE + 5},
                        {1, capacity * TILE - 3},
                        {1, capacity * TILE + 100}};
  std::uint64_t seed = 1300;
  for (const Case& c : cases) {
    ASSERT_EQ(batched_scan_impl::tiles_per_row(c.len), c.len > capacity * TILE ? capacity + 1 : (c.rows > 1 ? 4 : capacity));
    const std::vector<float> rows0 = random_rows(c.rows, c.len, ++seed);
    const Layout layouts[] = {{c.rows, c.len, c.len + 1, c.len + 3, 1, 2},
                              {c.rows, c.len, c.len + 3, c.len + 3, 1, 1, true}};
    for (const char* name : {"multi_tile_resident", "multi_tile_resident_self", "multi_tile_streamed"}) {
      const ScanVariant* v = batched_scan_impl::find_variant(name);
      ASSERT_NE(v, nullptr) << name;
      for (const Layout& l : layouts)
        for (ScanDirection d : scan_test::kDirections)
          for (Accum a : {Accum::native, Accum::dfloat}) {
            const bool excl = (seed + static_cast<int>(d)) % 2 == 1;
            SCOPED_TRACE(std::string(name) + " rows " + std::to_string(c.rows) + " " + scan_test::describe(l, d, excl, a));
            ASSERT_TRUE(run_and_check(*v, l, d, excl, a, rows0, stream()));
          }
    }
  }
}

// Three rows 37 tiles past the resident capacity (the device's), random
// from `seed`, in two layouts: out of place at odd pitches, and in place.
struct PastCapacityRows {
  std::size_t rows = 3, len = 0;
  std::vector<float> rows0;
  std::vector<Layout> layouts;
  explicit PastCapacityRows(std::uint64_t seed) {
    int sms = 0;
    TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    len = (batched_scan_impl::resident_max_row_tiles(sms) + 37) * TILE + 11;
    rows0 = random_rows(rows, len, seed);
    layouts = {{rows, len, len + 1, len + 3, 1, 2}, {rows, len, len + 3, len + 3, 1, 1, true}};
  }
};

// Rows past the resident capacity, several of them: every phase of the
// streamed order (a row's scans with the next rows' counts between them)
// runs with the rings full of scans that wait for their row's carries.
TEST_F(BatchedScanGpu, StreamedRowsPastCapacity) {
  const PastCapacityRows past(1400);
  const ScanVariant* v = batched_scan_impl::find_variant("multi_tile_streamed");
  ASSERT_NE(v, nullptr);
  for (const Layout& l : past.layouts)
    for (Accum a : {Accum::native, Accum::dfloat}) {
      const ScanDirection d = ScanDirection::forward_backward;
      SCOPED_TRACE(scan_test::describe(l, d, false, a));
      ASSERT_TRUE(run_and_check(*v, l, d, false, a, past.rows0, stream()));
    }
  // A row of 1,029 tiles: more than 32 chunks of 32 tiles, so the row's
  // level of the two-level carries loops over its chunks (11 M samples).
  const std::size_t long_len = 1029 * TILE - 40;
  const std::vector<float> long_row = random_rows(1, long_len, 1401);
  const Layout long_layout{1, long_len, long_len, long_len, 1, 1};
  for (ScanDirection d : scan_test::kDirections) {
    const bool excl = d == ScanDirection::backward;
    SCOPED_TRACE(scan_test::describe(long_layout, d, excl, Accum::dfloat));
    ASSERT_TRUE(run_and_check(*v, long_layout, d, excl, Accum::dfloat, long_row, stream()));
  }
}

// Forward or backward alone, rows past the resident capacity: the resident
// rungs chain them (each tile read once, its carry from the chunk totals
// and the tiles before it in its chunk). Every accumulator, both
// directions, inclusive and exclusive, out of place at odd pitches and in
// place; a row of 1,100 tiles (35 chunks: the last chunks' carries sum more
// than 32 chunk totals, two rounds of lanes); and the same bits on a second
// run (deterministic).
TEST_F(BatchedScanGpu, ChainedRowsPastCapacity) {
  const PastCapacityRows past(1450);
  int k = 0;
  for (const char* name : {"multi_tile_resident_self", "multi_tile_resident"}) {
    const ScanVariant* v = batched_scan_impl::find_variant(name);
    ASSERT_NE(v, nullptr);
    for (const Layout& l : past.layouts)
      for (Accum a : scan_test::kAccums)
        for (ScanDirection d : {ScanDirection::forward, ScanDirection::backward}) {
          const bool excl = ++k % 2 == 0;
          SCOPED_TRACE(std::string(name) + " " + scan_test::describe(l, d, excl, a));
          ASSERT_TRUE(run_and_check(*v, l, d, excl, a, past.rows0, stream()));
        }
  }
  const ScanVariant* v = batched_scan_impl::find_variant("multi_tile_resident_self");
  const std::size_t long_len = 1100 * TILE - 40;
  const std::vector<float> long_row = random_rows(1, long_len, 1451);
  const Layout long_layout{1, long_len, long_len, long_len, 1, 1};
  for (ScanDirection d : {ScanDirection::forward, ScanDirection::backward}) {
    SCOPED_TRACE(scan_test::describe(long_layout, d, false, Accum::native));
    ASSERT_TRUE(run_and_check(*v, long_layout, d, false, Accum::native, long_row, stream()));
  }
  // Bitwise the same on a second run.
  const ScanSpec spec{ScanDirection::backward, Accum::native, false, 1, long_len, long_len, long_len, false};
  DeviceBuffer<float> din(long_len), dout(long_len);
  upload(din.p, long_row);
  DeviceBuffer<unsigned char> ws(v->workspace_bytes(spec));
  std::vector<float> runs[2];
  for (auto& r : runs) {
    TESSERA_CUDA(cudaMemset(dout.p, 0, long_len * sizeof(float)));
    v->run(ScanCall{spec, din.p, dout.p, ws.p, stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    r = download(dout.p, long_len);
  }
  ASSERT_EQ(std::memcmp(runs[0].data(), runs[1].data(), long_len * sizeof(float)), 0);
}

// fused_fitted cuts the tile to the row (32 x 12, then 32 x 20 ... 384 x 20,
// one warp apart; float 64 x 12 ... 192 x 12 before 128 x 20): rows that fill each tile exactly
// (len = tile - 3: the worst alignment shift; every direction) and rows one
// sample longer (the next tile), enough rows that the blocks cycle their row
// buffers, at odd pitches and in place.
TEST_F(BatchedScanGpu, FittedTilesAtTheirEdges) {
  const ScanVariant* v = batched_scan_impl::find_variant("fused_fitted");
  ASSERT_NE(v, nullptr);
  std::vector<std::size_t> tiles;
  for (std::size_t w = 1; w <= 6; ++w) tiles.push_back(32 * w * 12);
  for (std::size_t w = 1; w <= 12; ++w) tiles.push_back(32 * w * 20);
  ASSERT_EQ(tiles.back() - 3, batched_scan_impl::FITTED_MAX_LEN);
  std::uint64_t seed = 1700;
  int k = 0;
  for (std::size_t tile : tiles)
    for (std::size_t len : {tile - 3, tile - 2}) {
      if (len > batched_scan_impl::FITTED_MAX_LEN) {
        ASSERT_FALSE(v->supports(ScanSpec{ScanDirection::forward, Accum::native, false, 1, len, len, len, false}));
        continue;
      }
      const std::size_t rows = std::max<std::size_t>(7, 5'000'000 / len);
      const std::vector<float> rows0 = random_rows(rows, len + 3, ++seed);
      const Layout layout = ++k % 2 == 0 ? Layout{rows, len, len + 1, len + 3, 1, 2}
                                         : Layout{rows, len, len + 3, len + 3, 1, 1, true};
      for (ScanDirection d : scan_test::kDirections)
        for (Accum a : scan_test::kAccums) {
          if (d != ScanDirection::forward_backward && (a == Accum::f64 || a == Accum::kahan)) continue;
          if (len == tile - 2 && (d != ScanDirection::forward_backward || a == Accum::f64 || a == Accum::kahan))
            continue;
          const bool excl = (seed + static_cast<int>(d) + static_cast<int>(a)) % 2 == 0;
          SCOPED_TRACE("fused_fitted rows " + std::to_string(rows) + " " + scan_test::describe(layout, d, excl, a));
          ASSERT_TRUE(run_and_check(*v, layout, d, excl, a, rows0, stream()));
        }
    }
}

// Wide accumulators are what the user asked for: on a long trace with a DC
// offset, double and double-float leave only the final rounding to float
// (relative error <= 2^-24, checked with a 2x margin), whatever the path.
TEST_F(BatchedScanGpu, WideAccumulatorsLeaveOnlyTheFinalRounding) {
  const std::size_t len = 100000;
  std::vector<float> rows0(len);
  for (std::size_t i = 0; i < len; ++i) rows0[i] = 1.0f + 0.1f * static_cast<float>((i * 7919) % 101) / 101.0f;
  DeviceBuffer<float> din(len), dout(len);
  upload(din.p, rows0);
  device_sync();
  std::vector<long double> y, s;
  scan_test::reference(rows0.data(), len, ScanDirection::forward, false, y, s);
  auto max_rel = [&](Accum a) {
    BatchedScanOptions o;
    o.direction = ScanDirection::forward;
    o.accum = a;
    o.stream = stream();
    batched_scan(din.p, len, dout.p, len, 1, len, o);
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    const std::vector<float> got = download(dout.p, len);
    long double m = 0;
    for (std::size_t i = 0; i < len; ++i) m = std::max(m, std::fabs(got[i] - y[i]) / std::fabs(y[i]));
    return m;
  };
  EXPECT_LE(max_rel(Accum::dfloat), 0x1.0p-23L);
  EXPECT_LE(max_rel(Accum::f64), 0x1.0p-23L);
  EXPECT_LE(max_rel(Accum::kahan), 0x1.0p-22L);  // Kahan's compensation adds up to 2u
}

// The pipelined rungs for the wide accumulators (one accumulator chain per
// thread, or fused_pipelined_chains' two) leave only the final rounding on a
// forward-then-backward trace that fills the rung's tile (the fused tile;
// fused_fitted's largest): positive samples, so every output is a sum of
// positive terms and its relative error is that of the accumulation plus
// 2^-24.
TEST_F(BatchedScanGpu, PipelinedWideRungsLeaveOnlyTheFinalRounding) {
  for (const char* name : {"fused_pipelined_pair", "fused_pipelined_chains", "fused_pipelined_chains2",
                           "fused_pipelined_chains4", "fused_pipelined_lazy", "fused_pipelined_lazy_bulk",
                           "fused_fitted"}) {
    const ScanVariant* v = batched_scan_impl::find_variant(name);
    ASSERT_NE(v, nullptr) << name;
    const std::size_t len = std::string(name) == "fused_fitted" ? batched_scan_impl::FITTED_MAX_LEN : TILE - 3;
    const std::size_t rows = 3;
    std::vector<float> rows0(rows * len);
    for (std::size_t i = 0; i < rows0.size(); ++i)
      rows0[i] = 1.0f + 0.1f * static_cast<float>((i * 7919) % 101) / 101.0f;
    DeviceBuffer<float> din(rows0.size()), dout(rows0.size());
    upload(din.p, rows0);
    device_sync();
    std::vector<std::vector<long double>> ref(rows);
    for (std::size_t r = 0; r < rows; ++r) {
      std::vector<long double> s;
      scan_test::reference(rows0.data() + r * len, len, ScanDirection::forward_backward, false, ref[r], s);
    }
    for (Accum a : {Accum::f64, Accum::dfloat, Accum::kahan}) {
      const ScanSpec spec{ScanDirection::forward_backward, a, false, rows, len, len, len, false};
      v->run(ScanCall{spec, din.p, dout.p, nullptr, stream()});
      TESSERA_CUDA(cudaStreamSynchronize(stream()));
      const std::vector<float> got = download(dout.p, rows0.size());
      long double m = 0;
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t i = 0; i < len; ++i)
          m = std::max(m, std::fabs(got[r * len + i] - ref[r][i]) / std::fabs(ref[r][i]));
      // Kahan: its compensation adds up to 2u per pass.
      EXPECT_LE(m, a == Accum::kahan ? 0x1.0p-21L : 0x1.0p-23L) << name << " " << to_string(a);
    }
  }
}

// Two rungs that must give the same bits for the accumulators `accums`, and
// leave the same bytes alone (the gaps between rows, the buffer's ends), at
// every row alignment (in pitch len + 3, out pitch len + 1, out offset 1).
void expect_bitwise_same(const char* name_a, const char* name_b, std::initializer_list<Accum> accums,
                         cudaStream_t stream) {
  const ScanVariant* a = batched_scan_impl::find_variant(name_a);
  const ScanVariant* b = batched_scan_impl::find_variant(name_b);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  std::uint64_t seed = 7100;
  for (std::size_t len : {std::size_t{1}, std::size_t{5}, std::size_t{4097}, TILE - 4, TILE - 3}) {
    const std::size_t rows = 7, in_pitch = len + 3, out_pitch = len + 1, out_size = rows * out_pitch + 2;
    const std::vector<float> rows0 = random_rows(rows, in_pitch, ++seed);
    DeviceBuffer<float> din(rows0.size()), da(out_size), db(out_size);
    upload(din.p, rows0);
    device_sync();
    for (ScanDirection d : scan_test::kDirections)
      for (bool excl : {false, true})
        for (Accum acc : accums) {
          const ScanSpec spec{d, acc, excl, rows, len, in_pitch, out_pitch, false};
          ASSERT_TRUE(b->supports(spec));
          SCOPED_TRACE(std::to_string(len) + " " + std::string(to_string(acc)) + (excl ? " excl" : " incl"));
          TESSERA_CUDA(cudaMemset(da.p, 0x7f, out_size * sizeof(float)));
          TESSERA_CUDA(cudaMemset(db.p, 0x7f, out_size * sizeof(float)));
          a->run(ScanCall{spec, din.p, da.p + 1, nullptr, stream});
          b->run(ScanCall{spec, din.p, db.p + 1, nullptr, stream});
          TESSERA_CUDA(cudaStreamSynchronize(stream));
          const std::vector<float> ga = download(da.p, out_size), gb = download(db.p, out_size);
          ASSERT_EQ(std::memcmp(ga.data(), gb.data(), out_size * sizeof(float)), 0);
        }
  }
}

// fused_pipelined_chains2 is fused_pipelined_chains with leaner tile traffic
// and inclusive / exclusive copies: the same arithmetic, so the same bits.
TEST_F(BatchedScanGpu, Chains2IsBitwiseChains) {
  expect_bitwise_same("fused_pipelined_chains", "fused_pipelined_chains2",
                      {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat}, stream());
}

// fused_pipelined_lazy changes only the double-float and Kahan sums: float
// and double are fused_pipelined_chains2's bits.
TEST_F(BatchedScanGpu, LazyIsBitwiseChains2ForFloatAndDouble) {
  expect_bitwise_same("fused_pipelined_chains2", "fused_pipelined_lazy", {Accum::native, Accum::f64}, stream());
}

// The bulk copies move the same bytes: bitwise the rungs they speed up, and
// nothing outside the rows written, at every alignment.
TEST_F(BatchedScanGpu, BulkCopiesAreBitwiseTheirRungs) {
  expect_bitwise_same("fused_pipelined", "fused_pipelined_bulk",
                      {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat}, stream());
  expect_bitwise_same("fused_pipelined_lazy", "fused_pipelined_lazy_bulk",
                      {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat}, stream());
}

// The public call with no variant picks by length and runs on device memory.
TEST_F(BatchedScanGpu, PublicApiDefaultVariantInPlace) {
  const auto fb = ScanDirection::forward_backward;
  EXPECT_EQ(batched_scan_default_variant(9, 128, Accum::dfloat, fb), "short_rows");
  EXPECT_EQ(batched_scan_default_variant(9, 129, Accum::native, fb), "fused_fitted");
  EXPECT_EQ(batched_scan_default_variant(9, 256, Accum::kahan, fb), "short_rows");  // 8 samples per lane
  EXPECT_EQ(batched_scan_default_variant(9, 257, Accum::f64, fb), "fused_fitted");
  EXPECT_EQ(batched_scan_default_variant(9, batched_scan_impl::FITTED_MAX_LEN, Accum::dfloat, fb), "fused_fitted");
  EXPECT_EQ(batched_scan_default_variant(9, 8000, Accum::native, fb), "fused_one_pass");
  EXPECT_EQ(batched_scan_default_variant(9, 8000, Accum::kahan, fb), "fused_pipelined_lazy_bulk");
  EXPECT_EQ(batched_scan_default_variant(9, 10000, Accum::native, fb), "fused_pipelined_bulk");
  EXPECT_EQ(batched_scan_default_variant(9, 100000, Accum::kahan, fb), "multi_tile_resident_self");
  EXPECT_EQ(batched_scan_default_variant(9, 100000, Accum::dfloat, fb), "multi_tile_resident_self");
  for (std::size_t len : {std::size_t{32}, std::size_t{200}, std::size_t{1000}, std::size_t{5000}, std::size_t{8000},
                          std::size_t{10000},
                          2 * TILE + 5, std::size_t{500000}}) {
    const std::size_t rows = 7;
    const std::vector<float> rows0 = random_rows(rows, len, 77 + len);
    const Layout l{rows, len, len, len, 0, 0, true};
    DeviceBuffer<float> d(rows * len);
    upload(d.p, rows0);
    device_sync();
    for (Accum a : scan_test::kAccums) {
      upload(d.p, rows0);
      device_sync();
      BatchedScanOptions o;
      o.direction = ScanDirection::forward_backward;
      o.accum = a;
      o.stream = stream();
      batched_scan(d.p, len, d.p, len, rows, len, o);
      TESSERA_CUDA(cudaStreamSynchronize(stream()));
      std::vector<float> before = rows0;
      before.push_back(0.0f);  // buffer_elems adds one sentinel past the end
      std::vector<float> after = download(d.p, rows * len);
      after.push_back(0.0f);
      SCOPED_TRACE(batched_scan_default_variant(rows, len, a, o.direction) + " " + scan_test::describe(l, o.direction, false, a));
      ASSERT_TRUE(scan_test::check_output(l, o.direction, false, a, rows0, before, after));
    }
  }
}

// Deterministic rungs give the same bits run after run.
TEST_F(BatchedScanGpu, DeterministicRungsAreBitwiseReproducible) {
  const std::size_t rows = 5, len = 3 * TILE + 100;
  const std::vector<float> rows0 = random_rows(rows, len, 4242);
  DeviceBuffer<float> din(rows * len), dout(rows * len);
  upload(din.p, rows0);
  device_sync();
  for (const ScanVariant* v : cuda_rungs()) {
    if (!v->info.deterministic) continue;
    const ScanSpec spec{ScanDirection::forward_backward, Accum::native, false, rows, len, len, len, false};
    if (!v->supports(spec)) continue;
    SCOPED_TRACE(std::string(v->info.name));
    DeviceBuffer<unsigned char> ws(v->workspace_bytes(spec));
    v->run(ScanCall{spec, din.p, dout.p, ws.p, stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    const std::vector<float> first = download(dout.p, rows * len);
    TESSERA_CUDA(cudaMemset(dout.p, 0, rows * len * sizeof(float)));
    v->run(ScanCall{spec, din.p, dout.p, ws.p, stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    const std::vector<float> second = download(dout.p, rows * len);
    ASSERT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)), 0);
  }
}

// A run only enqueues work on its stream: it can be captured in a graph.
TEST_F(BatchedScanGpu, RunsCanBeCapturedInAGraph) {
  const std::size_t rows = 3, len = 2 * TILE + 9;
  const std::vector<float> rows0 = random_rows(rows, len, 31337);
  DeviceBuffer<float> din(rows * len), dout(rows * len), dref(rows * len);
  upload(din.p, rows0);
  device_sync();
  for (const ScanVariant* v : cuda_rungs()) {
    const ScanSpec spec{ScanDirection::forward_backward, Accum::dfloat, false, rows, len, len, len, false};
    const ScanSpec spec_native{ScanDirection::forward_backward, Accum::native, false, rows, len, len, len, false};
    const ScanSpec& s = v->supports(spec) ? spec : spec_native;
    if (!v->supports(s)) continue;
    SCOPED_TRACE(std::string(v->info.name));
    DeviceBuffer<unsigned char> ws(v->workspace_bytes(s));
    v->run(ScanCall{s, din.p, dref.p, ws.p, stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    TESSERA_CUDA(cudaMemset(dout.p, 0, rows * len * sizeof(float)));
    cudaGraph_t graph = nullptr;
    TESSERA_CUDA(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
    v->run(ScanCall{s, din.p, dout.p, ws.p, stream()});
    TESSERA_CUDA(cudaStreamEndCapture(stream(), &graph));
    cudaGraphExec_t exec = nullptr;
    TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    TESSERA_CUDA(cudaGraphLaunch(exec, stream()));
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    (void)cudaGraphExecDestroy(exec);
    (void)cudaGraphDestroy(graph);
    const std::vector<float> a = download(dref.p, rows * len), b = download(dout.p, rows * len);
    if (v->info.deterministic) {
      ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
    } else {  // CUB's look-back: the association of float partials depends on timing
      const Layout l{rows, len, len, len};
      ASSERT_TRUE(scan_test::check_output(l, s.direction, s.exclusive, s.accum, rows0,
                                          std::vector<float>(rows * len, 0.0f), b));
    }
  }
}

}  // namespace
