// GPU helpers of the batched_scan tests (CUDA builds), shared by the
// product's tests (tests/test_batched_scan_gpu.cpp) and the lab's
// (lab/tests/test_batched_scan_tuning_gpu.cpp): device buffers, a checked
// run of one rung on any layout, and the checks every CUDA rung must pass,
// each taking the rungs it checks.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "batched_scan_support.hpp"
#include "families/batched_scan/contract.hpp"
#include "families/batched_scan/cuda_rungs.hpp"
#include "tessera/core/cuda_check.hpp"
#include "test_gpu_support.hpp"

namespace scan_test::gpu {

using tessera::batched_scan_impl::ScanCall;
using tessera::batched_scan_impl::ScanSpec;
using tessera::batched_scan_impl::ScanVariant;

inline constexpr std::size_t TILE = tessera::batched_scan_impl::TilePolicy::TILE;

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

inline std::vector<float> download(const float* d, std::size_t n) {
  std::vector<float> h(n);
  if (n > 0) TESSERA_CUDA(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

inline void upload(float* d, const std::vector<float>& h) {
  if (!h.empty()) TESSERA_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
}

inline ScanSpec spec_of(const Layout& l, ScanDirection d, bool excl, Accum a) {
  return {d, a, excl, l.rows, l.len, l.in_pitch, l.in_place ? l.in_pitch : l.out_pitch, l.in_place};
}

inline int sm_count() {
  int sms = 0;
  TESSERA_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return sms;
}

// Runs variant `v` on the device with `rows0` laid out as `l`; the workspace
// is poisoned (0xFF) so that a rung relying on zeroed memory fails.
inline ::testing::AssertionResult run_and_check(const ScanVariant& v, const Layout& l, ScanDirection d, bool excl,
                                                Accum a, const std::vector<float>& rows0, cudaStream_t stream) {
  const std::vector<float> in = make_input(l, rows0);
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
    before.assign(buffer_elems(l.out_off, l.rows, l.out_pitch, l.len), std::bit_cast<float>(kPoisonBits));
    dout = std::make_unique<DeviceBuffer<float>>(before.size());
    upload(dout->p, before);
    out = dout->p + l.out_off;
  }
  tessera_test::device_sync();
  v.run(ScanCall{spec, din.p + l.in_off, out, ws.p, stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  if (!l.in_place) {
    const std::vector<float> in_after = download(din.p, in.size());
    if (std::memcmp(in_after.data(), in.data(), in.size() * sizeof(float)) != 0)
      return ::testing::AssertionFailure() << "the input was modified";
  }
  const std::vector<float> after = l.in_place ? download(din.p, in.size()) : download(dout->p, before.size());
  return check_output(l, d, excl, a, rows0, before, after);
}

// The ladder's CUDA rows of the given roles (the test binary's ladder: the
// product's, or the product's with the lab's rows added).
inline std::vector<const ScanVariant*> cuda_rungs(std::initializer_list<tessera::Role> roles) {
  std::vector<const ScanVariant*> r;
  for (const auto& v : tessera::batched_scan_impl::all_variants())
    if (v.info.backend == tessera::Backend::cuda && std::find(roles.begin(), roles.end(), v.info.role) != roles.end())
      r.push_back(&v);
  return r;
}

inline const ScanVariant& variant(const char* name) {
  const ScanVariant* v = tessera::batched_scan_impl::find_variant(name);
  if (v == nullptr) throw std::runtime_error(std::string("no batched_scan variant ") + name);
  return *v;
}

// ---- checks every CUDA rung passes ----------------------------------------------

// Every direction, inclusive/exclusive, accumulator and layout, on row
// lengths around the warp, the tile items and the rows-per-warp of the seed
// kernels.
inline void check_small_shapes(const std::vector<const ScanVariant*>& rungs, cudaStream_t stream) {
  const std::size_t shapes[][2] = {{1, 1},  {33, 1},   {70, 5},  {1, 31},  {3, 32},   {2, 33},
                                   {65, 29}, {5, 127}, {9, 128}, {6, 150}, {7, 200}, {3, 256}, {4, 1000}};
  std::uint64_t seed = 100;
  for (const ScanVariant* v : rungs)
    for (const auto& sh : shapes) {
      const std::vector<float> rows0 = random_rows(sh[0], sh[1], ++seed);
      for (const Layout& l : layouts_for(sh[0], sh[1]))
        for (ScanDirection d : kDirections)
          for (bool excl : {false, true})
            for (Accum a : kAccums) {
              if (!v->supports(spec_of(l, d, excl, a))) continue;
              SCOPED_TRACE(std::string(v->info.name) + " " + describe(l, d, excl, a));
              ASSERT_TRUE(run_and_check(*v, l, d, excl, a, rows0, stream));
            }
    }
}

// Lengths at the fused tile's edge (a row filling the tile exactly at every
// alignment) and rows of several tiles (the multi-tile carries, their empty
// last tiles for some alignments), every accumulator. The seed rungs have no
// tiles (the small shapes cover them).
inline void check_tile_boundaries(const std::vector<const ScanVariant*>& rungs, cudaStream_t stream) {
  const std::size_t lens[] = {TILE - 4, TILE - 3, TILE - 2, TILE + 1, 3 * TILE + 7};
  std::uint64_t seed = 500;
  for (const ScanVariant* v : rungs) {
    if (v->info.role == tessera::Role::taught) continue;
    for (std::size_t len : lens) {
      const std::vector<float> rows0 = random_rows(3, len, ++seed);
      for (const Layout& l : layouts_for(3, len))
        for (ScanDirection d : kDirections)
          for (Accum a : kAccums) {
            const bool excl = (seed + static_cast<int>(d)) % 2 == 0;
            if (!v->supports(spec_of(l, d, excl, a))) continue;
            SCOPED_TRACE(std::string(v->info.name) + " " + describe(l, d, excl, a));
            ASSERT_TRUE(run_and_check(*v, l, d, excl, a, rows0, stream));
          }
    }
  }
}

// Persistent grids: many more rows than resident blocks, so every block
// cycles its row buffers (the pipelined stages, the grid-stride loops)
// several times, with rows at every alignment (odd pitches) and in place.
inline void check_many_rows_per_block(const std::vector<const ScanVariant*>& rungs, cudaStream_t stream) {
  const std::size_t rows = 8 * static_cast<std::size_t>(sm_count()) + 5;
  const std::size_t lens[] = {37, TILE - 3};
  std::uint64_t seed = 7000;
  for (const ScanVariant* v : rungs) {
    if (v->info.role == tessera::Role::taught) continue;  // no persistent grid (small shapes cover them)
    for (std::size_t len : lens) {
      const std::vector<float> rows0 = random_rows(rows, len, ++seed);
      const Layout layouts[] = {{rows, len, len + 1, len + 3, 1, 2}, {rows, len, len + 3, len + 3, 1, 1, true}};
      for (const Layout& l : layouts)
        for (ScanDirection d : kDirections)
          for (Accum a : kAccums) {
            // Full rows: forward_backward with a 4- and an 8-byte accumulator keep the run time down.
            if (len > 37 && (d != ScanDirection::forward_backward || a == Accum::f64 || a == Accum::kahan)) continue;
            const bool excl = (seed + static_cast<int>(d) + static_cast<int>(a)) % 2 == 0;
            if (!v->supports(spec_of(l, d, excl, a))) continue;
            SCOPED_TRACE(std::string(v->info.name) + " rows " + std::to_string(rows) + " " + describe(l, d, excl, a));
            ASSERT_TRUE(run_and_check(*v, l, d, excl, a, rows0, stream));
          }
    }
  }
}

// A few long rows (many tiles per row, more than one warp chunk of tile
// carries: > 32 tiles) with wide accumulators.
inline void check_long_rows_many_tiles(std::initializer_list<const char*> names, cudaStream_t stream) {
  for (const char* name : names) {
    const ScanVariant& v = variant(name);
    const std::size_t len = 40 * TILE + 13;
    const std::vector<float> rows0 = random_rows(2, len, 900);
    const Layout l{2, len, len + 1, len + 2, 1, 3};
    for (ScanDirection d : kDirections)
      for (Accum a : {Accum::f64, Accum::dfloat}) {
        SCOPED_TRACE(std::string(name) + " " + describe(l, d, false, a));
        ASSERT_TRUE(run_and_check(v, l, d, false, a, rows0, stream));
      }
  }
}

// The resident rows: many rows of a few tiles (every block cycles its
// buffers with several rows in flight, in place too), a row of exactly the
// capacity (SMs x 2.5 tiles: every block holds tiles of it at once) and a
// row one tile past it (streamed or chained).
inline void check_resident_rows_up_to_capacity(std::initializer_list<const char*> names, cudaStream_t stream) {
  const int sms = sm_count();
  const std::size_t capacity = tessera::batched_scan_impl::resident_max_row_tiles(sms);  // tiles per row
  struct Case {
    std::size_t rows, len;
  };
  const Case cases[] = {{3 * static_cast<std::size_t>(sms) + 1, 3 * TILE + 5},
                        {1, capacity * TILE - 3},
                        {1, capacity * TILE + 100}};
  std::uint64_t seed = 1300;
  for (const Case& c : cases) {
    ASSERT_EQ(tessera::batched_scan_impl::tiles_per_row(c.len),
              c.len > capacity * TILE ? capacity + 1 : (c.rows > 1 ? 4 : capacity));
    const std::vector<float> rows0 = random_rows(c.rows, c.len, ++seed);
    const Layout layouts[] = {{c.rows, c.len, c.len + 1, c.len + 3, 1, 2},
                              {c.rows, c.len, c.len + 3, c.len + 3, 1, 1, true}};
    for (const char* name : names) {
      const ScanVariant& v = variant(name);
      for (const Layout& l : layouts)
        for (ScanDirection d : kDirections)
          for (Accum a : {Accum::native, Accum::dfloat}) {
            const bool excl = (seed + static_cast<int>(d)) % 2 == 1;
            SCOPED_TRACE(std::string(name) + " rows " + std::to_string(c.rows) + " " + describe(l, d, excl, a));
            ASSERT_TRUE(run_and_check(v, l, d, excl, a, rows0, stream));
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
    len = (tessera::batched_scan_impl::resident_max_row_tiles(sm_count()) + 37) * TILE + 11;
    rows0 = random_rows(rows, len, seed);
    layouts = {{rows, len, len + 1, len + 3, 1, 2}, {rows, len, len + 3, len + 3, 1, 1, true}};
  }
};

// Forward or backward alone, rows past the resident capacity: the resident
// rungs chain them (each tile read once, its carry from the chunk totals and
// the tiles before it in its chunk). Every accumulator, both directions,
// inclusive and exclusive, out of place at odd pitches and in place.
inline void check_chained_rows_past_capacity(std::initializer_list<const char*> names, cudaStream_t stream) {
  const PastCapacityRows past(1450);
  int k = 0;
  for (const char* name : names) {
    const ScanVariant& v = variant(name);
    for (const Layout& l : past.layouts)
      for (Accum a : kAccums)
        for (ScanDirection d : {ScanDirection::forward, ScanDirection::backward}) {
          const bool excl = ++k % 2 == 0;
          SCOPED_TRACE(std::string(name) + " " + describe(l, d, excl, a));
          ASSERT_TRUE(run_and_check(v, l, d, excl, a, past.rows0, stream));
        }
  }
}

// The wide accumulators leave only the final rounding on a
// forward-then-backward trace that fills the rung's tile (`len`): positive
// samples, so every output is a sum of positive terms and its relative error
// is that of the accumulation plus 2^-24.
inline void check_wide_sums_round_once(const char* name, std::size_t len, cudaStream_t stream) {
  const ScanVariant& v = variant(name);
  const std::size_t rows = 3;
  std::vector<float> rows0(rows * len);
  for (std::size_t i = 0; i < rows0.size(); ++i) rows0[i] = 1.0f + 0.1f * static_cast<float>((i * 7919) % 101) / 101.0f;
  DeviceBuffer<float> din(rows0.size()), dout(rows0.size());
  upload(din.p, rows0);
  tessera_test::device_sync();
  std::vector<std::vector<long double>> ref(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<long double> s;
    reference(rows0.data() + r * len, len, ScanDirection::forward_backward, false, ref[r], s);
  }
  for (Accum a : {Accum::f64, Accum::dfloat, Accum::kahan}) {
    const ScanSpec spec{ScanDirection::forward_backward, a, false, rows, len, len, len, false};
    v.run(ScanCall{spec, din.p, dout.p, nullptr, stream});
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    const std::vector<float> got = download(dout.p, rows0.size());
    long double m = 0;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = 0; i < len; ++i)
        m = std::max(m, std::fabs(got[r * len + i] - ref[r][i]) / std::fabs(ref[r][i]));
    // Kahan: its compensation adds up to 2u per pass.
    EXPECT_LE(m, a == Accum::kahan ? 0x1.0p-21L : 0x1.0p-23L) << name << " " << tessera::to_string(a);
  }
}

// Two rungs that must give the same bits for the accumulators `accums`, and
// leave the same bytes alone (the gaps between rows, the buffer's ends), at
// every row alignment (in pitch len + 3, out pitch len + 1, out offset 1).
inline void expect_bitwise_same(const char* name_a, const char* name_b, std::initializer_list<Accum> accums,
                                cudaStream_t stream) {
  const ScanVariant& a = variant(name_a);
  const ScanVariant& b = variant(name_b);
  std::uint64_t seed = 7100;
  for (std::size_t len : {std::size_t{1}, std::size_t{5}, std::size_t{4097}, TILE - 4, TILE - 3}) {
    const std::size_t rows = 7, in_pitch = len + 3, out_pitch = len + 1, out_size = rows * out_pitch + 2;
    const std::vector<float> rows0 = random_rows(rows, in_pitch, ++seed);
    DeviceBuffer<float> din(rows0.size()), da(out_size), db(out_size);
    upload(din.p, rows0);
    tessera_test::device_sync();
    for (ScanDirection d : kDirections)
      for (bool excl : {false, true})
        for (Accum acc : accums) {
          const ScanSpec spec{d, acc, excl, rows, len, in_pitch, out_pitch, false};
          ASSERT_TRUE(b.supports(spec));
          SCOPED_TRACE(std::to_string(len) + " " + std::string(tessera::to_string(acc)) + (excl ? " excl" : " incl"));
          TESSERA_CUDA(cudaMemset(da.p, 0x7f, out_size * sizeof(float)));
          TESSERA_CUDA(cudaMemset(db.p, 0x7f, out_size * sizeof(float)));
          a.run(ScanCall{spec, din.p, da.p + 1, nullptr, stream});
          b.run(ScanCall{spec, din.p, db.p + 1, nullptr, stream});
          TESSERA_CUDA(cudaStreamSynchronize(stream));
          const std::vector<float> ga = download(da.p, out_size), gb = download(db.p, out_size);
          ASSERT_EQ(std::memcmp(ga.data(), gb.data(), out_size * sizeof(float)), 0);
        }
  }
}

// Deterministic rungs give the same bits run after run.
inline void check_bitwise_reproducible(const std::vector<const ScanVariant*>& rungs, cudaStream_t stream) {
  const std::size_t rows = 5, len = 3 * TILE + 100;
  const std::vector<float> rows0 = random_rows(rows, len, 4242);
  DeviceBuffer<float> din(rows * len), dout(rows * len);
  upload(din.p, rows0);
  tessera_test::device_sync();
  for (const ScanVariant* v : rungs) {
    if (!v->info.deterministic) continue;
    const ScanSpec spec{ScanDirection::forward_backward, Accum::native, false, rows, len, len, len, false};
    if (!v->supports(spec)) continue;
    SCOPED_TRACE(std::string(v->info.name));
    DeviceBuffer<unsigned char> ws(v->workspace_bytes(spec));
    v->run(ScanCall{spec, din.p, dout.p, ws.p, stream});
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    const std::vector<float> first = download(dout.p, rows * len);
    TESSERA_CUDA(cudaMemset(dout.p, 0, rows * len * sizeof(float)));
    v->run(ScanCall{spec, din.p, dout.p, ws.p, stream});
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    const std::vector<float> second = download(dout.p, rows * len);
    ASSERT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)), 0);
  }
}

// A run only enqueues work on its stream: it can be captured in a graph.
inline void check_graph_capture(const std::vector<const ScanVariant*>& rungs, cudaStream_t stream) {
  const std::size_t rows = 3, len = 2 * TILE + 9;
  const std::vector<float> rows0 = random_rows(rows, len, 31337);
  DeviceBuffer<float> din(rows * len), dout(rows * len), dref(rows * len);
  upload(din.p, rows0);
  tessera_test::device_sync();
  for (const ScanVariant* v : rungs) {
    const ScanSpec spec{ScanDirection::forward_backward, Accum::dfloat, false, rows, len, len, len, false};
    const ScanSpec spec_native{ScanDirection::forward_backward, Accum::native, false, rows, len, len, len, false};
    const ScanSpec& s = v->supports(spec) ? spec : spec_native;
    if (!v->supports(s)) continue;
    SCOPED_TRACE(std::string(v->info.name));
    DeviceBuffer<unsigned char> ws(v->workspace_bytes(s));
    v->run(ScanCall{s, din.p, dref.p, ws.p, stream});
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    TESSERA_CUDA(cudaMemset(dout.p, 0, rows * len * sizeof(float)));
    cudaGraph_t graph = nullptr;
    TESSERA_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    v->run(ScanCall{s, din.p, dout.p, ws.p, stream});
    TESSERA_CUDA(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec = nullptr;
    TESSERA_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    TESSERA_CUDA(cudaGraphLaunch(exec, stream));
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    (void)cudaGraphExecDestroy(exec);
    (void)cudaGraphDestroy(graph);
    const std::vector<float> a = download(dref.p, rows * len), b = download(dout.p, rows * len);
    if (v->info.deterministic) {
      ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0);
    } else {  // CUB's look-back: the association of float partials depends on timing
      const Layout l{rows, len, len, len};
      ASSERT_TRUE(check_output(l, s.direction, s.exclusive, s.accum, rows0, std::vector<float>(rows * len, 0.0f), b));
    }
  }
}

}  // namespace scan_test::gpu
