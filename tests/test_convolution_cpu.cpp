// The convolution ladders without a GPU: the tables, the CPU rungs against
// an independent long-double reference (odd sizes, masks as wide as the
// input, width 1, pitched rows), separability detection, every bad input
// refused with its message and nothing written, the tiling arithmetic of
// the cost model, the FFT blocking, and the harness on both patterns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "conv_test_support.hpp"
#include "core/gpu_present.hpp"
#include "families/convolution/api_common.hpp"
#include "families/convolution/contract.hpp"
#include "families/convolution/fft_fused_math.hpp"
#include "families/convolution/fft_geometry.hpp"
#include "families/convolution/separable.hpp"
#include "families/convolution/tiles.hpp"
#include "harness/registry.hpp"
#include "harness/runner.hpp"
#include "tessera/convolution.hpp"
#include "tessera/core/error.hpp"

namespace {

using namespace tessera;
using namespace conv_test;
namespace ci = tessera::convolution_impl;

// ---- the tables ------------------------------------------------------------------

TEST(ConvTable, LadderContract) {
  for (bool one_d : {true, false}) {
    const auto all = ci::ladder_for(one_d).all();
    ASSERT_GE(all.size(), 2u);
    EXPECT_EQ(all[0].info.name, "cpu_reference");
    EXPECT_EQ(all[1].info.name, "cpu_openmp");
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto& v = all[i];
      EXPECT_TRUE(names.insert(v.info.name).second) << v.info.name;
      EXPECT_EQ(v.info.pattern, one_d ? "conv1d" : "conv2d");
      EXPECT_GT(v.info.adds.size(), 30u) << v.info.name;
      if (i > 0) {
        EXPECT_LE(all[i - 1].info.step, v.info.step);
      }
    }
#if TESSERA_HAVE_CUDA
    for (const char* n : {"basic", "constant_mask", "tiled_output_blocks", "tiled_input_blocks", "tiled_interior_l2",
                          "register_blocked"})
      EXPECT_NE(ci::ladder_for(one_d).find(n), nullptr) << n;
    EXPECT_EQ(ci::ladder_for(one_d).find("separable") != nullptr, !one_d);
    EXPECT_EQ(ci::ladder_for(one_d).find("fft_overlap_save") != nullptr, one_d);
    EXPECT_EQ(ci::ladder_for(one_d).find("cufft_whole_signal") != nullptr, one_d);
#endif
  }
}

// ---- the CPU rungs through the public API ---------------------------------------

struct Case2D {
  std::size_t w, h, mw, mh, pad;
};

void check_2d(const Case2D& c, const std::string& variant, std::uint32_t seed) {
  const std::size_t pitch = c.w + c.pad;
  const auto in = random_floats((c.h - 1) * pitch + c.w, seed);
  const auto mask = random_floats(c.mw * c.mh, seed + 1);
  std::vector<float> out((c.h - 1) * pitch + c.w, -7.0f);
  conv2d(in.data(), c.w, c.h, mask.data(), c.mw, c.mh, out.data(), {.pitch = pitch, .variant = variant});
  const std::string what = variant + " " + std::to_string(c.w) + "x" + std::to_string(c.h) + " mask " +
                           std::to_string(c.mw) + "x" + std::to_string(c.mh);
  expect_close(out, c.w, c.h, pitch, expected(in, c.w, c.h, pitch, mask, c.mw, c.mh), c.mw * c.mh, what);
  for (std::size_t y = 0; y + 1 < c.h; ++y)
    for (std::size_t x = c.w; x < pitch; ++x) ASSERT_EQ(out[y * pitch + x], -7.0f) << what << ": wrote the padding";
}

TEST(ConvCpu, TwoDRungsMatchTheDefinition) {
  const Case2D cases[] = {{1, 1, 1, 1, 0},   {5, 3, 5, 3, 0},   {7, 7, 7, 7, 0},    {33, 17, 3, 3, 0},
                          {31, 9, 9, 9, 0},  {100, 1, 5, 1, 0}, {1, 100, 1, 5, 0},  {64, 48, 11, 7, 3},
                          {45, 33, 45, 33, 0}, {97, 101, 9, 9, 5}};
  std::uint32_t seed = 1;
  for (const auto& c : cases)
    for (const char* v : {"cpu_reference", "cpu_openmp"}) check_2d(c, v, seed++);
}

TEST(ConvCpu, OneDRungsMatchTheDefinition) {
  const std::size_t cases[][2] = {{1, 1}, {7, 7}, {100, 3}, {255, 1}, {1025, 1025}, {5000, 33}, {9001, 257}};
  std::uint32_t seed = 100;
  for (const auto& c : cases) {
    const auto in = random_floats(c[0], seed++);
    const auto mask = random_floats(c[1], seed++);
    const auto e = expected(in, c[0], 1, c[0], mask, c[1], 1);
    for (const char* v : {"cpu_reference", "cpu_openmp"}) {
      std::vector<float> out(c[0], std::numeric_limits<float>::quiet_NaN());
      conv1d(in.data(), c[0], mask.data(), c[1], out.data(), {.variant = v});
      expect_close(out, c[0], 1, c[0], e, c[1], std::string(v) + " n=" + std::to_string(c[0]));
    }
  }
}

TEST(ConvCpu, ReferenceAndOpenmpAgree) {
  const auto in = random_floats(300 * 200, 7);
  const auto mask = random_floats(9 * 9, 8);
  std::vector<float> a(in.size()), b(in.size());
  conv2d(in.data(), 300, 200, mask.data(), 9, 9, a.data(), {.variant = "cpu_reference"});
  conv2d(in.data(), 300, 200, mask.data(), 9, 9, b.data(), {.variant = "cpu_openmp"});
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, double(std::fabs(a[i] - b[i])));
  EXPECT_GT(worst, 0.0) << "float and double accumulation should differ somewhere";  // the two rungs really differ
  EXPECT_LT(worst, 1e-4);
}

TEST(ConvCpu, DefaultVariantWithoutGpuIsOpenmp) {
  if (api::gpu_present()) GTEST_SKIP() << "a GPU is present: the GPU tests check the policy";
  const auto m = random_floats(25, 3);
  EXPECT_EQ(conv1d_default_variant(1 << 20, 1025), "cpu_openmp");
  EXPECT_EQ(conv2d_default_variant(512, 512, m.data(), 5, 5), "cpu_openmp");
  EXPECT_EQ(conv1d_workspace_bytes(1000, 7), 0u);  // the CPU rungs need no scratch
  // The default call runs (host pointers) and is right.
  const auto in = random_floats(40 * 30, 4);
  std::vector<float> out(in.size());
  conv2d(in.data(), 40, 30, m.data(), 5, 5, out.data());
  expect_close(out, 40, 30, 40, expected(in, 40, 30, 40, m, 5, 5), 25, "default conv2d");
}

#if TESSERA_HAVE_CUDA
// The GPU policy's 1D pick (host code: no GPU needed) against the H100 taps
// sweep it was set from (n = 2^26, medians in ms,
// docs/results/conv1d-taps-sweep-h100-2026-11-28.txt; < 0: not supported):
// at every measured width the pick is the fastest of the three product rungs.
TEST(ConvCpu, GpuPolicyPicksTheTapsSweepsWinner) {
  struct Row {
    std::size_t taps;
    double register_blocked, fft_fused, fft_overlap_save;
  };
  constexpr Row sweep[] = {{7, 0.2181, 0.2609, 1.1123},    {33, 0.3354, 0.2636, 0.8951},
                           {65, 0.4666, 0.2488, 0.8995},   {97, 0.5988, 0.2628, 0.9239},
                           {129, 0.7284, 0.2513, 0.9404},  {193, 0.9903, 0.2518, 0.9229},
                           {257, 1.2520, 0.2566, 0.9439},  {385, 1.7719, 0.2634, 0.9524},
                           {513, 2.2940, 0.2746, 0.9745},  {1025, 4.3807, 0.3072, 1.0765},
                           {2049, 8.5604, 0.4405, 1.3551}, {4097, -1, -1, 1.4933}};
  for (const Row& r : sweep) {
    ci::ConvSpec s;
    s.width = s.pitch = std::size_t(1) << 26;
    s.mask_w = r.taps;
    std::string fastest;
    double best = 0;
    for (const auto& [name, ms] : {std::pair{"register_blocked", r.register_blocked},
                                   std::pair{"fft_fused", r.fft_fused},
                                   std::pair{"fft_overlap_save", r.fft_overlap_save}}) {
      EXPECT_EQ(ms >= 0, ci::ladder_for(true).at(name, "test").supports(s)) << name << " at " << r.taps << " taps";
      if (ms >= 0 && (fastest.empty() || ms < best)) fastest = name, best = ms;
    }
    EXPECT_EQ(ci::pick(s, true, true), fastest) << r.taps << " taps";
  }
  // Past fft_fused's limit, fft_overlap_save only where it beat register_blocked.
  ci::ConvSpec s;
  s.width = s.pitch = std::size_t(1) << 26;
  s.mask_w = 2051;
  EXPECT_EQ(ci::pick(s, true, true), "fft_overlap_save");
}
#endif

// ---- separability ---------------------------------------------------------------

TEST(ConvSeparable, DetectsRankOne) {
  const auto col = random_floats(9, 21), row = random_floats(7, 22);
  const auto m = outer(col, row);
  const auto f = ci::find_separable(m.data(), 7, 9, 1e-6);
  ASSERT_TRUE(f.has_value());
  EXPECT_LE(f->max_error, 1e-6);
  for (std::size_t y = 0; y < 9; ++y)
    for (std::size_t x = 0; x < 7; ++x)
      EXPECT_NEAR(double(f->col[y]) * f->row[x], m[y * 7 + x], 1e-6 * 2) << y << "," << x;
  EXPECT_TRUE(conv_mask_separable(m.data(), 7, 9));
  // A random mask is not; a rank-1 mask disturbed at one tap by 1e-3 of its largest is not either.
  const auto r = random_floats(25, 23);
  EXPECT_FALSE(conv_mask_separable(r.data(), 5, 5));
  auto d = m;
  d[10] += 1e-3f;
  EXPECT_FALSE(conv_mask_separable(d.data(), 7, 9));
  EXPECT_TRUE(conv_mask_separable(d.data(), 7, 9, 1e-2));  // within a looser tolerance
  EXPECT_FALSE(conv_mask_separable(m.data(), 7, 9, -1));    // detection off
  // One row, one column, a single tap and the zero mask are rank <= 1.
  const auto one_row = random_floats(5, 24);
  EXPECT_TRUE(conv_mask_separable(one_row.data(), 5, 1));
  EXPECT_TRUE(conv_mask_separable(one_row.data(), 1, 5));
  const std::vector<float> zeros(9, 0.0f);
  EXPECT_TRUE(conv_mask_separable(zeros.data(), 3, 3));
  // A mask whose largest tap sits off the first row and column (the pivot).
  std::vector<float> c{0.1f, -3.0f, 0.5f}, w{0.2f, 1.0f, -0.7f};
  EXPECT_TRUE(conv_mask_separable(outer(c, w).data(), 3, 3));
}

TEST(ConvSeparable, SeparableMaskGivesTheSameAnswer) {
  const auto m = outer(random_floats(9, 31), random_floats(9, 32));
  const auto in = random_floats(70 * 50, 33);
  std::vector<float> out(in.size());
  conv2d(in.data(), 70, 50, m.data(), 9, 9, out.data(), {.variant = "cpu_openmp"});
  expect_close(out, 70, 50, 70, expected(in, 70, 50, 70, m, 9, 9), 81, "separable mask, cpu_openmp");
}

// ---- bad input -------------------------------------------------------------------

template <class F>
void expect_error(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one saying: " << needle;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what() << "\n  expected: " << needle;
  }
}

TEST(ConvErrors, BadMasksAndPointersWriteNothing) {
  const auto in = random_floats(64, 41);
  auto mask = random_floats(9, 42);
  std::vector<float> out(64, 3.5f);
  const ConvOptions cpu{.variant = "cpu_openmp"};
  expect_error([&] { conv1d(in.data(), 64, mask.data(), 4, out.data(), cpu); }, "mask_width = 4 is even");
  expect_error([&] { conv1d(in.data(), 64, mask.data(), 0, out.data(), cpu); }, "mask_width = 0");
  expect_error([&] { conv1d(in.data(), 5, mask.data(), 7, out.data(), cpu); },
               "mask_width = 7 is wider than the input (n = 5)");
  expect_error([&] { conv1d(nullptr, 64, mask.data(), 3, out.data(), cpu); }, "in is a null pointer");
  expect_error([&] { conv1d(in.data(), 64, mask.data(), 3, nullptr, cpu); }, "out is a null pointer");
  expect_error([&] { conv1d(in.data(), 64, nullptr, 3, out.data(), cpu); }, "mask is a null pointer");
  mask[2] = std::numeric_limits<float>::quiet_NaN();
  expect_error([&] { conv1d(in.data(), 64, mask.data(), 3, out.data(), cpu); }, "mask[2] = nan is not a finite");
  mask[2] = 0.5f;
  mask[5] = std::numeric_limits<float>::infinity();
  expect_error([&] { conv2d(in.data(), 8, 8, mask.data(), 3, 3, out.data(), cpu); }, "mask[1][2] = inf");
  mask[5] = 0.5f;
  expect_error([&] { conv2d(in.data(), 8, 8, mask.data(), 3, 2, out.data(), cpu); }, "mask_h = 2 is even");
  expect_error([&] { conv2d(in.data(), 8, 8, mask.data(), 2, 3, out.data(), cpu); }, "mask_w = 2 is even");
  expect_error([&] { conv2d(in.data(), 2, 32, mask.data(), 3, 3, out.data(), cpu); },
               "mask_w = 3 is wider than the image (width = 2)");
  expect_error([&] { conv2d(in.data(), 32, 2, mask.data(), 3, 3, out.data(), cpu); },
               "mask_h = 3 is taller than the image (height = 2)");
  expect_error([&] { conv2d(in.data(), 8, 4, mask.data(), 3, 3, out.data(), {.pitch = 7, .variant = "cpu_openmp"}); },
               "pitch = 7 is smaller than width = 8");
  // In place, or overlapping by one element.
  std::vector<float> buf(128, 1.0f);
  expect_error([&] { conv1d(buf.data(), 64, mask.data(), 3, buf.data() + 63, cpu); }, "overlap");
  expect_error([&] { conv1d(buf.data(), 64, mask.data(), 3, buf.data(), cpu); }, "not in place");
  expect_error([&] { conv1d(in.data(), 64, mask.data(), 3, out.data(), {.variant = "no_such"}); },
               "no variant named 'no_such'");
  expect_error([&] { conv2d(in.data(), 8, 8, mask.data(), 3, 3, out.data(), {.variant = "fft_overlap_save"}); },
               "no variant named 'fft_overlap_save'");
  for (float v : out) ASSERT_EQ(v, 3.5f) << "an error wrote output";
  for (float v : buf) ASSERT_EQ(v, 1.0f) << "an error wrote output";
}

TEST(ConvErrors, EmptyInputIsNarrowerThanAnyMask) {
  float in = 1, out = 2, m = 1;
  expect_error([&] { conv1d(&in, 0, &m, 1, &out, {.variant = "cpu_openmp"}); }, "wider than the input (n = 0)");
  EXPECT_EQ(out, 2.0f);
}

// ---- cost model arithmetic and FFT blocking --------------------------------------

TEST(ConvTiling, ReductionRatios) {
  namespace t = ci::tiles;
  ci::ConvSpec s;
  s.width = s.height = s.pitch = 1024;
  s.mask_w = s.mask_h = 5;
  // Strategy 1, 32 x 8 outputs: (32 + 4)(8 + 4) / 256 loads per output.
  EXPECT_DOUBLE_EQ(t::tile_loads(s, {32, 8}).loads_per_output, 36.0 * 12.0 / 256.0);
  // Strategy 2, 32 x 32 inputs: 1024 / (28 x 28).
  EXPECT_DOUBLE_EQ(t::input_block_loads(s, {32, 32}).loads_per_output, 1024.0 / (28.0 * 28.0));
  // Strategy 3: one load; halo reads = 25 taps minus those inside, per output.
  const auto s3 = t::interior_loads(s, {32, 8});
  EXPECT_EQ(s3.loads_per_output, 1.0);
  double inside = 0;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) inside += double(32 - std::abs(dx)) * double(8 - std::abs(dy));
  EXPECT_DOUBLE_EQ(s3.l2_halo_per_output, (25.0 * 256.0 - inside) / 256.0);
  // 1D, strategy 1 with 256 outputs and a 7-tap mask: 262 / 256.
  ci::ConvSpec d;
  d.width = d.pitch = 4096;
  d.mask_w = 7;
  EXPECT_DOUBLE_EQ(t::tile_loads(d, t::output_tile(true)).loads_per_output, 262.0 / 256.0);
  // A mask too wide for strategy 2's block: no outputs.
  d.mask_w = 1025;
  EXPECT_EQ(t::input_block_loads(d, t::input_block(true)).loads_per_output, 0.0);
}

TEST(ConvFft, OverlapSaveBlocking) {
  ci::ConvSpec s;
  s.width = s.pitch = std::size_t(1) << 26;
  s.mask_w = 1025;
  auto os = ci::overlap_save_of(s);
  EXPECT_EQ(os.nfft, 8192u);
  EXPECT_EQ(os.valid, 8192u - 1024u);
  EXPECT_EQ(os.blocks, (s.width + os.valid - 1) / os.valid);
  // The segments read straight from the input: whole windows inside the
  // signal, and every other one (gathered) at the ends, at most a few.
  const std::size_t r = s.rx();
  EXPECT_GE(os.direct_first * os.valid, r);
  EXPECT_LT((os.direct_first - 1) * os.valid, r);
  const std::size_t last = os.direct_first + os.direct - 1;
  EXPECT_LE(last * os.valid - r + os.nfft, s.width);
  EXPECT_GT((last + 1) * os.valid - r + os.nfft, s.width);
  EXPECT_LE(os.blocks - os.direct, 3u);
  s.mask_w = 7;
  EXPECT_EQ(ci::overlap_save_of(s).nfft, 1024u);
  // Never longer than the whole signal needs.
  s.width = 100;
  s.mask_w = 33;
  os = ci::overlap_save_of(s);
  EXPECT_EQ(os.nfft, 256u);  // next_pow2(132)
  EXPECT_EQ(os.blocks, 1u);
  EXPECT_EQ(os.direct, 0u);  // the one window has ghosts at both ends
  // One sample and one tap: the smallest transform.
  ci::ConvSpec one;
  one.width = one.pitch = 1;
  one.mask_w = 1;
  EXPECT_EQ(ci::overlap_save_of(one).nfft, ci::MIN_NFFT);
  EXPECT_EQ(ci::overlap_save_of(one).blocks, 1u);
  const auto whole = ci::whole_signal_of(s);
  EXPECT_EQ(whole.nfft, 256u);
  EXPECT_GE(whole.valid, s.width);
  EXPECT_EQ(whole.direct, 0u);
}

// ---- the harness on both patterns -------------------------------------------------

harness::RunOptions cpu_run(bool quick) {
  harness::RunOptions o;
  o.gpu = false;
  o.quick = quick;
  o.seed = 11;
  return o;
}

TEST(ConvHarness, VerifyPasses) {
  for (const char* p : {"conv1d", "conv2d"}) {
    std::ostringstream out;
    harness::DeviceInfo dev;
    const auto report = harness::run_verify(harness::parse_selector(p), cpu_run(true), dev, out);
    EXPECT_EQ(report.failures, 0) << out.str();
    EXPECT_FALSE(report.results.empty()) << p;
  }
  // The full lists have the edge shapes.
  std::set<std::string> labels;
  for (const char* p : {"conv1d", "conv2d"})
    for (const auto& f : find_pattern(p)->verify_problems(cpu_run(false))) labels.insert(f.label);
  for (const char* want : {"float 1x1 mask 1x1", "float 7x7 mask 7x7", "float n=1025 mask 1025", "float n=1 mask 1",
                           "float 40x40 mask 9x9 separable", "float 257x129 mask 5x5 pitch 260"})
    EXPECT_TRUE(labels.count(want)) << want;
}

TEST(ConvHarness, CostModelBounds) {
  auto o = cpu_run(false);
  o.size = 64;
  const auto two = find_pattern("conv2d")->bench_problems(o);
  ASSERT_EQ(two.size(), 2u);
  const auto c5 = two[0].make()->cost(), c9 = two[1].make()->cost();
  EXPECT_DOUBLE_EQ(c5.bytes, 2.0 * 64 * 64 * 4);
  EXPECT_DOUBLE_EQ(c5.flops, 2.0 * 25 * 64 * 64);
  EXPECT_EQ(c5.bound, harness::Bound::memory);
  EXPECT_EQ(c9.bound, harness::Bound::compute);
  o.size = 4096;
  const auto one = find_pattern("conv1d")->bench_problems(o);
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0].make()->cost().bound, harness::Bound::compute);  // 1,025 taps
  EXPECT_EQ(one[1].make()->cost().bound, harness::Bound::memory);   // 7 taps
  // The full bench: the sizes on a GPU.
  auto g = cpu_run(false);
  g.gpu = true;
  std::set<std::string> labels;
  for (const char* p : {"conv1d", "conv2d"})
    for (const auto& f : find_pattern(p)->bench_problems(g)) labels.insert(f.label);
  for (const char* want : {"float 8192x8192 mask 5x5", "float 8192x8192 mask 9x9", "float 8192x8192 mask 9x9 separable",
                           "float n=67108864 mask 1025", "float n=67108864 mask 7"})
    EXPECT_TRUE(labels.count(want)) << want;
}

// ---- the fused FFT rung's arithmetic, run here thread by thread ------------------
// The block's stage functions (fft_fused_math.hpp) are host code too: these
// tests run them for the 256 threads in turn, each barrier a loop boundary,
// so the indexing (exchange layouts, twiddles, segment bounds) is checked
// without a GPU. The exchange starts as NaN: a slot read before it is
// written shows up.

namespace fz = tessera::convolution_impl::fused;

struct EmulatedBlock {
  std::vector<float> re = std::vector<float>(fz::EXCHANGE, std::numeric_limits<float>::quiet_NaN());
  std::vector<float> im = std::vector<float>(fz::EXCHANGE, std::numeric_limits<float>::quiet_NaN());
  fz::Cx table[fz::TABLE_ENTRIES];
  fz::Cx v[fz::THREADS][16];
  EmulatedBlock() {
    for (int i = 0; i < fz::TABLE_ENTRIES; ++i) table[i] = fz::table_entry(i);
  }
  fz::Exchange ex() { return {re.data(), im.data()}; }
  fz::Twiddles tw() const { return {table}; }
  void forward() {  // the kernel's forward_fft, barrier by barrier
    for (int t = 0; t < fz::THREADS; ++t) {
      fz::forward_stage1(v[t], t, tw());
      fz::store_a_by_bc(ex(), v[t], t);
    }
    for (int t = 0; t < fz::THREADS; ++t) fz::load_a_by_k0c(v[t], ex(), t);
    for (int t = 0; t < fz::THREADS; ++t) {
      fz::forward_stage2(v[t], t, tw());
      fz::store_b_by_k0c(ex(), v[t], t);
    }
    for (int t = 0; t < fz::THREADS; ++t) {
      fz::load_b_by_k0k1(v[t], ex(), t);
      fz::forward_stage3(v[t]);
    }
  }
  void inverse() {
    for (int t = 0; t < fz::THREADS; ++t) {
      fz::inverse_stage1(v[t], t, tw());
      fz::store_b_by_k0k1(ex(), v[t], t);
    }
    for (int t = 0; t < fz::THREADS; ++t) fz::load_b_by_k0c(v[t], ex(), t);
    for (int t = 0; t < fz::THREADS; ++t) {
      fz::inverse_stage2(v[t], t, tw());
      fz::store_a_by_k0c(ex(), v[t], t);
    }
    for (int t = 0; t < fz::THREADS; ++t) {
      fz::load_a_by_bc(v[t], ex(), t);
      fz::inverse_stage3(v[t]);
    }
  }
};

TEST(ConvFusedFft, BlockTransformIsTheDft) {
  const int n = fz::N;
  const auto re = random_floats(n, 91), im = random_floats(n, 92);
  auto block = std::make_unique<EmulatedBlock>();
  for (int t = 0; t < fz::THREADS; ++t)
    for (int a = 0; a < 16; ++a) block->v[t][a] = {re[256 * a + t], im[256 * a + t]};
  block->forward();
  // X[k] = sum x[j] exp(-2 pi i j k / N) in double, exact angles (j k mod N).
  double norm = 0;
  for (int j = 0; j < n; ++j) norm += double(re[j]) * re[j] + double(im[j]) * im[j];
  const double pi = 3.14159265358979323846;
  double worst = 0;
  for (int k : {0, 1, 2, 15, 16, 17, 255, 256, 257, 1000, 2048, 3071, 4095}) {
    double xr = 0, xi = 0;
    for (int j = 0; j < n; ++j) {
      const double a = -2.0 * pi * double((std::int64_t(j) * k) % n) / n;
      xr += re[j] * std::cos(a) - im[j] * std::sin(a);
      xi += re[j] * std::sin(a) + im[j] * std::cos(a);
    }
    const fz::Cx got = block->v[k % 256][k / 256];
    worst = std::max(worst, std::hypot(got.re - xr, got.im - xi));
  }
  // ||X||_2 = sqrt(N) ||x||_2; a float FFT: error ~ log2(N) eps per element's share.
  const double bound = 4.0 * std::log2(double(n)) * std::ldexp(1.0, -24) * std::sqrt(norm) * 4.0;
  EXPECT_LE(worst, bound);
  // And back: the inverse (unnormalised) returns N x.
  block->inverse();
  double back = 0;
  for (int t = 0; t < fz::THREADS; ++t)
    for (int a = 0; a < 16; ++a) {
      const int j = 256 * a + t;
      back = std::max(back, std::hypot(double(block->v[t][a].re) / n - re[j], double(block->v[t][a].im) / n - im[j]));
    }
  EXPECT_LE(back, 8.0 * std::log2(double(n)) * std::ldexp(1.0, -24) * 2.0);
}

// The whole rung, emulated: the mask's spectrum, then every block's loads,
// transforms, product and stores, against the long-double definition with
// the harness's fused tolerance.
std::vector<float> emulate_fused(const std::vector<float>& in, const std::vector<float>& mask) {
  ci::ConvSpec s;
  s.width = s.pitch = in.size();
  s.mask_w = mask.size();
  const auto f = ci::fused_blocking_of(s);
  auto block = std::make_unique<EmulatedBlock>();
  for (int t = 0; t < fz::THREADS; ++t) fz::load_reversed_mask(block->v[t], mask.data(), int(mask.size()), t);
  block->forward();
  std::vector<fz::Cx> spectrum(fz::N);
  for (int t = 0; t < fz::THREADS; ++t)
    for (int k2 = 0; k2 < 16; ++k2)
      spectrum[t + 256 * k2] = {block->v[t][k2].re / fz::N, block->v[t][k2].im / fz::N};
  std::vector<float> out(in.size(), std::numeric_limits<float>::quiet_NaN());
  const int overlap = int(mask.size() - 1);
  for (std::size_t g = 0; g < f.blocks; ++g) {
    auto b = std::make_unique<EmulatedBlock>();
    for (int t = 0; t < fz::THREADS; ++t)
      fz::load_segments(b->v[t], in.data(), std::int64_t(in.size()), std::int64_t(g), std::int64_t(f.valid), overlap, t);
    b->forward();
    for (int t = 0; t < fz::THREADS; ++t) fz::multiply_spectrum(b->v[t], spectrum.data(), t);
    b->inverse();
    for (int t = 0; t < fz::THREADS; ++t)
      fz::store_segments(out.data(), b->v[t], std::int64_t(in.size()), std::int64_t(g), std::int64_t(f.valid), overlap, t);
  }
  return out;
}

TEST(ConvFusedFft, EmulatedRungMatchesTheDefinition) {
  std::uint32_t seed = 500;
  struct Case {
    std::size_t n, taps;
  };
  // One sample; one segment; an odd number of segments; one off a segment
  // and a block; masks of 1, 3, 1,025 and the limit 2,049 taps; a mask
  // wider than the signal (the rung computes it; the API refuses it).
  const Case cases[] = {{1, 1},    {1, 3},    {5, 3},        {4096, 1},     {4097, 1},    {8193, 1},
                        {4093, 3}, {4094, 3}, {8188, 3},     {8189, 3},     {12283, 3},   {3072, 1025},
                        {3073, 1025}, {6144, 1025}, {9217, 1025}, {700, 1025}, {2048, 2049}, {6145, 2049},
                        {100003, 1025}, {65536, 7}};  // and blocks wholly inside (the untested loads and stores)
  for (const Case& c : cases) {
    const auto in = random_floats(c.n, seed += 2), mask = random_floats(c.taps, seed + 1);
    const auto out = emulate_fused(in, mask);
    double l2 = 0, max_in = 0;
    for (float m : mask) l2 += double(m) * m;
    for (float x : in) max_in = std::max(max_in, std::fabs(double(x)));
    expect_close(out, c.n, 1, c.n, expected(in, c.n, 1, c.n, mask, c.taps, 1), c.taps,
                 "emulated fft_fused n " + std::to_string(c.n) + " taps " + std::to_string(c.taps),
                 4.0 * std::log2(double(ci::FUSED_NFFT)), ci::fused_error_floor(std::sqrt(l2), max_in));
  }
}

TEST(ConvFusedFft, BlockingAndLimits) {
  ci::ConvSpec s;
  s.width = s.pitch = std::size_t(1) << 26;
  s.mask_w = 1025;
  const auto f = ci::fused_blocking_of(s);
  EXPECT_EQ(f.valid, 3072u);
  EXPECT_EQ(f.segments, 21846u);  // ceil(2^26 / 3072)
  EXPECT_EQ(f.blocks, 10923u);
  s.mask_w = ci::FUSED_MAX_TAPS;
  EXPECT_EQ(ci::fused_blocking_of(s).valid, ci::FUSED_NFFT / 2 + 0u);
  s.mask_w = ci::FUSED_MAX_TAPS + 2;
  EXPECT_EQ(ci::fused_blocking_of(s).blocks, 0u);
}

}  // namespace
