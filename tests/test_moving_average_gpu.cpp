// The moving_average CUDA rungs and the public API on a GPU: every variant
// on random inputs at edge sizes (n = 1, tile +/- 1, w near n, both edge
// rules, box and general weights, unaligned pointers) against the double
// window sums, the running sums' precision ordering, graph capture, the
// workspace contract and the API's refusals with device pointers. Compiled
// in CUDA builds only; every test skips when no device is present.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "families/moving_average/contract.hpp"
#include "families/moving_average/cpu_rungs.hpp"
#include "families/moving_average/segmented_model.hpp"
#include "harness/registry.hpp"
#include "harness/runner.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/moving_average.hpp"
#include "test_gpu_support.hpp"
#include "test_support.hpp"

namespace {

using namespace tessera;
using moving_average_impl::MovingAverageSpec;
using moving_average_impl::MovingAverageVariant;
using moving_average_impl::Precision;
using MovingAverageGpu = tessera_test::GpuFixture<::testing::Test>;
using tessera_test::device_sync;

std::vector<float> random_samples(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.5f);  // mean 0.25: prefixes grow like n / 4
  std::vector<float> x(n);
  for (auto& v : x) v = u(rng);
  return x;
}

std::vector<float> window_of(std::size_t w, bool box, unsigned seed) {
  if (box) return std::vector<float>(w, 1.0f / float(w));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 1.0f);
  std::vector<float> k(w);
  for (auto& v : k) v = u(rng) / float(w);
  if (w > 1 && k[0] == k[1]) k[0] *= 1.5f;
  return k;
}

struct Errors {
  double max_rel = 0;  // |got - ref| / window absolute sum
  std::size_t first_bad = SIZE_MAX;
};

// Output i within the bound of the variant's Precision (as the harness):
// eps_out |ref| + eps_acc (16 + 4 sqrt(terms) + clamped repeats) M.
Errors compare(const MovingAverageVariant& v, const MovingAverageSpec& s, const std::vector<float>& x,
               const std::vector<float>& k, const std::vector<float>& got) {
  std::vector<double> ref(s.n), mag(s.n);
  moving_average_impl::cpu::window_sums_f64(x.data(), s, k.data(), false, 0, s.n, ref.data());
  moving_average_impl::cpu::window_sums_f64(x.data(), s, k.data(), true, 0, s.n, mag.data());
  const double eps_acc = v.accum == Accum::f64 ? 0x1.0p-53 : 0x1.0p-24;
  // Running sums: the samples their prefixes span (besides the window) each
  // weigh at most |c| max |x|. Measured, not assumed: random_samples stay
  // below 1.5, the offset inputs (1000 + noise) do not.
  double x_max = 0;
  for (float xv : x) x_max = std::max(x_max, double(std::fabs(xv)));
  const double prefix_weight = x_max * std::fabs(double(k[0]));
  Errors e;
  for (std::size_t i = 0; i < s.n; ++i) {
    double m = mag[i], terms = double(s.w);
    if (v.precision == Precision::tile_prefix) {
      terms = double(moving_average_impl::TILE_PREFIX_SPAN + s.w);
      m = prefix_weight * terms;
    } else if (v.precision == Precision::global_prefix) {
      terms = double(i + s.w);
      m = prefix_weight * terms;
    } else if (v.precision == Precision::segment_prefix) {
      terms = double(moving_average_impl::SEGMENT_PREFIX_SPAN + s.w);
      m = prefix_weight * terms;
    }
    const double err = std::fabs(double(got[i]) - ref[i]);
    // A clamped edge repeats one sample: those roundings add up in step.
    const auto gi = static_cast<long long>(i), h = static_cast<long long>(s.w / 2), n = static_cast<long long>(s.n);
    const double repeats =
        s.edge == Edge::clamp ? double(std::max(0LL, h - gi) + std::max(0LL, gi + h + 1 - n)) : 0.0;
    const double tol = 0x1.0p-24 * std::fabs(ref[i]) + eps_acc * (16.0 + 4.0 * std::sqrt(terms) + repeats) * m;
    e.max_rel = std::max(e.max_rel, mag[i] > 0 ? err / mag[i] : err);
    if (!(err <= tol) && e.first_bad == SIZE_MAX) e.first_bad = i;
  }
  return e;
}

// Runs variant v through its contract on device copies of x and k, input
// and output `in_offset` / `out_offset` floats into their buffers.
std::vector<float> run_variant(const MovingAverageVariant& v, const MovingAverageSpec& s, const std::vector<float>& x,
                               const std::vector<float>& k, cudaStream_t stream, std::size_t in_offset = 0,
                               std::size_t out_offset = 0) {
  DeviceBuffer<float> d_in(s.n + in_offset), d_out(s.n + out_offset), d_k(s.w);
  DeviceBytes ws(v.workspace_bytes(s));
  TESSERA_CUDA(cudaMemcpy(d_in.data() + in_offset, x.data(), s.n * 4, cudaMemcpyHostToDevice));
  d_k.upload(k.data(), s.w);
  d_out.fill_bytes(0xFF);  // NaN: an output never written fails
  device_sync();
  v.run({s, d_in.data() + in_offset, d_out.data() + out_offset, d_k.data(), ws.data(), stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  std::vector<float> got(s.n);
  TESSERA_CUDA(cudaMemcpy(got.data(), d_out.data() + out_offset, s.n * 4, cudaMemcpyDeviceToHost));
  return got;
}

TEST_F(MovingAverageGpu, EveryVariantAtEdgeSizes) {
  const std::size_t ns[] = {1, 2, 3, 5, 253, 254, 255, 257, 1791, 1792, 1793, 4095, 4096, 4097, 8193, 100003,
                            (std::size_t(1) << 20) + 7};
  unsigned seed = 100;
  int runs = 0;
  for (const auto& v : moving_average_impl::variants_ladder().all()) {
    if (v.info.backend != Backend::cuda) continue;
    for (std::size_t n : ns) {
      std::vector<std::size_t> ws = {1, 3, 5, 31, 1001, 4097};
      ws.push_back(n % 2 == 1 ? n : n - 1);  // w near n
      if (n > 2) ws.push_back(n % 2 == 1 ? n - 2 : n - 3);
      for (std::size_t w : ws) {
        if (w > n || w == 0) continue;
        for (bool box : {true, false}) {
          const Edge edge = (seed % 2 == 0) ? Edge::zero : Edge::clamp;
          const auto x = random_samples(n, ++seed);
          const auto k = window_of(w, box, ++seed);
          bool uniform = true;
          for (float c : k) uniform = uniform && c == k[0];
          const MovingAverageSpec s{Dtype::f32, n, w, edge, uniform};
          if (!v.supports(s)) continue;
          const auto got = run_variant(v, s, x, k, stream());
          const Errors e = compare(v, s, x, k, got);
          ++runs;
          ASSERT_EQ(e.first_bad, SIZE_MAX) << v.info.name << " n=" << n << " w=" << w << (box ? " box" : " weighted")
                                           << (edge == Edge::zero ? " zero" : " clamp") << ": out[" << e.first_bad
                                           << "] = " << got[e.first_bad];
        }
      }
    }
  }
  EXPECT_GT(runs, 200);
}

// Double samples on the GPU: shared_window (direct, double FMAs) and
// running_sum_tiled (double prefixes), within a few double roundings of the
// window sums, at edge sizes and with the input one element off alignment.
TEST_F(MovingAverageGpu, DoubleVariants) {
  const std::size_t ns[] = {1, 3, 255, 1793, 4097, 8193, 100003};
  unsigned seed = 500;
  int runs = 0;
  for (const char* name : {"shared_window", "running_sum_tiled"}) {
    const auto& v = moving_average_impl::variants_ladder().at(name, "test");
    for (std::size_t n : ns)
      for (std::size_t w : {std::size_t(1), std::size_t(3), std::size_t(31), std::size_t(1001), n % 2 ? n : n - 1}) {
        if (w > n || w > 8191) continue;
        for (std::size_t off : {std::size_t(0), std::size_t(1)}) {
          const auto xf = random_samples(n, ++seed);
          const std::vector<double> x(xf.begin(), xf.end());
          const bool box = std::string_view(name) == "running_sum_tiled" || seed % 2 == 0;
          std::vector<double> k(w, 1.0 / double(w));
          if (!box)
            for (std::size_t j = 0; j < w; ++j) k[j] = (double(j % 7) - 2.5) / double(w);
          bool uniform = true;
          for (double c : k) uniform = uniform && c == k[0];
          const MovingAverageSpec s{Dtype::f64, n, w, off ? Edge::clamp : Edge::zero, uniform};
          ASSERT_TRUE(v.supports(s)) << name;
          DeviceBuffer<double> d_in(n + off), d_out(n), d_k(w);
          TESSERA_CUDA(cudaMemcpy(d_in.data() + off, x.data(), n * 8, cudaMemcpyHostToDevice));
          d_k.upload(k.data(), w);
          d_out.fill_bytes(0xFF);
          device_sync();
          v.run({s, d_in.data() + off, d_out.data(), d_k.data(), nullptr, stream()});
          TESSERA_CUDA(cudaStreamSynchronize(stream()));
          std::vector<double> got(n), ref(n), mag(n);
          d_out.download(got.data(), n);
          moving_average_impl::cpu::window_sums_f64(x.data(), s, k.data(), false, 0, n, ref.data());
          moving_average_impl::cpu::window_sums_f64(x.data(), s, k.data(), true, 0, n, mag.data());
          ++runs;
          for (std::size_t i = 0; i < n; ++i) {
            // Running sums: the tile's prefix (at most 4104 + w samples, |x| < 1.5) bounds the cancellation.
            const double m = v.precision == Precision::tile_prefix ? 1.5 * std::fabs(k[0]) * double(4104 + w) : mag[i];
            // Worst case of a sum of (w + repeated edge samples) or (tile + w) double roundings.
            ASSERT_LE(std::fabs(got[i] - ref[i]), (64.0 + 4104.0 + double(w)) * 0x1.0p-53 * m + 0x1.0p-52 * std::fabs(ref[i]))
                << name << " n=" << n << " w=" << w << " i=" << i;
          }
        }
      }
  }
  EXPECT_GT(runs, 40);
}

// float4 paths and their scalar fallbacks: input and output 1, 2, 3 floats
// past a 16-byte boundary.
TEST_F(MovingAverageGpu, UnalignedPointers) {
  const std::size_t n = 10007;
  for (const auto& v : moving_average_impl::variants_ladder().all()) {
    if (v.info.backend != Backend::cuda) continue;
    for (std::size_t off : {1u, 2u, 3u})
      for (std::size_t w : {std::size_t(3), std::size_t(101)}) {
        const auto x = random_samples(n, unsigned(off * 7 + w));
        const auto k = window_of(w, true, 1);
        const MovingAverageSpec s{Dtype::f32, n, w, off == 2 ? Edge::clamp : Edge::zero, true};
        if (!v.supports(s)) continue;
        const auto got = run_variant(v, s, x, k, stream(), off, 4 - off);
        EXPECT_EQ(compare(v, s, x, k, got).first_bad, SIZE_MAX) << v.info.name << " offset " << off << " w " << w;
      }
  }
}

// The precision of the running sums at 2^24 samples, box w = 1001: the
// global float prefix loses digits (|P| ~ 4e6, float spacing 0.25-0.5), the
// tiled float prefix much fewer, the tiled double prefix none (each output
// within 1 ulp of its correctly rounded value).
TEST_F(MovingAverageGpu, RunningSumPrecisionOrdering) {
  const std::size_t n = std::size_t(1) << 24, w = 1001;
  const auto x = random_samples(n, 77);
  const auto k = window_of(w, true, 0);
  const MovingAverageSpec s{Dtype::f32, n, w, Edge::zero, true};
  auto error_of = [&](const char* name) {
    const auto& v = moving_average_impl::variants_ladder().at(name, "test");
    const auto got = run_variant(v, s, x, k, stream());
    const Errors e = compare(v, s, x, k, got);
    EXPECT_EQ(e.first_bad, SIZE_MAX) << name;
    return e.max_rel;
  };
  const double global = error_of("running_sum_global");
  const double tiled_float = error_of("running_sum_tiled_float");
  const double tiled = error_of("running_sum_tiled");
  const double segmented = error_of("running_sum_segmented");
  const double direct = error_of("shared_window");
  RecordProperty("global", std::to_string(global));
  RecordProperty("tiled_float", std::to_string(tiled_float));
  RecordProperty("tiled_double", std::to_string(tiled));
  RecordProperty("segmented", std::to_string(segmented));
  RecordProperty("direct", std::to_string(direct));
  // Step 7: a few float roundings of the window (its CPU model: 1.1e-7 at
  // 2^20 samples), below the direct sum and the tiled float prefix.
  EXPECT_LT(segmented, direct) << segmented << " vs " << direct;
  EXPECT_LT(segmented, tiled_float) << segmented << " vs " << tiled_float;
  EXPECT_LE(segmented, 4e-7);
  EXPECT_GT(global, 10 * tiled_float) << global << " vs " << tiled_float;
  EXPECT_GT(tiled_float, 2 * tiled) << tiled_float << " vs " << tiled;
  EXPECT_LE(tiled, 2 * 0x1.0p-24) << "the compensated running sum: one rounding";
  EXPECT_LE(tiled, direct * 1.01) << "no worse than the direct sum";
}

// Step 7 rounds exactly as its CPU model (segmented_model.hpp), whose
// error bound the CPU tests check: every output bitwise equal, on random and
// offset (1000 + small noise) samples, n off every tile and segment, w from
// 1 to 8191, both edges, the input aligned and one float off; and every
// output within the harness's tolerance (compare: prefix spans weighed by
// the samples' own max |x|, ~1000 for the offset inputs).
TEST_F(MovingAverageGpu, SegmentedMatchesItsCpuModelBitForBit) {
  const auto& v = moving_average_impl::variants_ladder().at("running_sum_segmented", "test");
  const std::size_t ns[] = {1, 3, 127, 129, 4095, 4097, 3 * 4096 + 131, 100003};
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(-1.0f, 1.5f), noise(-0.01f, 0.01f);
  int runs = 0;
  for (bool offset : {false, true})
    for (std::size_t n : ns)
      for (std::size_t w : {std::size_t(1), std::size_t(3), std::size_t(15), std::size_t(127), std::size_t(1001),
                            std::size_t(8191)}) {
        if (w > n) continue;
        std::vector<float> x(n);
        for (auto& e : x) e = offset ? 1000.0f + noise(rng) : u(rng);
        const auto k = window_of(w, true, 0);
        const Edge edge = (runs % 2 == 0) ? Edge::zero : Edge::clamp;
        const MovingAverageSpec s{Dtype::f32, n, w, edge, true};
        ASSERT_TRUE(v.supports(s));
        const auto got = run_variant(v, s, x, k, stream(), std::size_t(runs % 2));
        const auto model = moving_average_impl::segmented::model_outputs(x.data(), n, w, edge, k[0]);
        ++runs;
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(std::memcmp(&got[i], &model[i], 4), 0)
              << "n=" << n << " w=" << w << (offset ? " offset" : "") << " out[" << i << "] = " << got[i]
              << ", the model " << model[i];
        EXPECT_EQ(compare(v, s, x, k, got).first_bad, SIZE_MAX) << "n=" << n << " w=" << w;
      }
  EXPECT_GT(runs, 60);
}

// A variant's run only enqueues: it captures into a graph.
TEST_F(MovingAverageGpu, RunsCaptureIntoGraphs) {
  const std::size_t n = 50000, w = 201;
  const auto x = random_samples(n, 5);
  const auto k = window_of(w, true, 0);
  DeviceBuffer<float> d_in(n), d_out(n), d_k(w);
  d_in.upload(x.data(), n);
  d_k.upload(k.data(), w);
  device_sync();
  for (const auto& v : moving_average_impl::variants_ladder().all()) {
    if (v.info.backend != Backend::cuda) continue;
    const MovingAverageSpec s{Dtype::f32, n, w, Edge::clamp, true};
    if (!v.supports(s)) continue;
    DeviceBytes ws(v.workspace_bytes(s));
    // First run outside the capture (kernel attributes are set once).
    v.run({s, d_in.data(), d_out.data(), d_k.data(), ws.data(), stream()});
    TESSERA_CUDA(cudaStreamSynchronize(stream()));
    tessera_test::CapturedGraph g(stream(), [&] { v.run({s, d_in.data(), d_out.data(), d_k.data(), ws.data(), stream()}); });
    EXPECT_TRUE(g.ok()) << v.info.name;
  }
}

// The public API: its picks, on device pointers, match the definition; with a
// workspace of moving_average_workspace_bytes it allocates nothing.
TEST_F(MovingAverageGpu, PublicApiPicksAndWorkspace) {
  const std::size_t n = 300001;
  const auto x = random_samples(n, 9);
  DeviceBuffer<float> d_in(n), d_out(n);
  d_in.upload(x.data(), n);
  device_sync();
  for (std::size_t w : {std::size_t(1), std::size_t(3), std::size_t(31), std::size_t(1001)})
    for (bool box : {true, false}) {
      const auto k = window_of(w, box, unsigned(w));
      const std::string pick = moving_average_default_variant(Dtype::f32, n, w, box || w == 1);
      const auto& v = moving_average_impl::variants_ladder().at(pick, "test");
      EXPECT_EQ(v.info.backend, Backend::cuda) << pick;
      const std::size_t bytes = moving_average_workspace_bytes<float>(n, w, box || w == 1);
      DeviceBytes ws(bytes);
      const MovingAverageOptions o{.edge = Edge::clamp, .stream = stream(), .workspace = {ws.data(), bytes}};
      const auto used = tessera_test::pool_bytes_used_by([&] {
        tessera::moving_average(d_in.data(), n, d_out.data(), std::span<const float>(k), o);
        TESSERA_CUDA(cudaStreamSynchronize(stream()));
      });
      EXPECT_EQ(used, 0u) << pick;
      std::vector<float> got(n);
      d_out.download(got.data(), n);
      const MovingAverageSpec s{Dtype::f32, n, w, Edge::clamp, box || w == 1};
      EXPECT_EQ(compare(v, s, x, k, got).first_bad, SIZE_MAX) << pick << " w=" << w;
    }
}

TEST_F(MovingAverageGpu, PublicApiRefusals) {
  const std::size_t n = 1000;
  DeviceBuffer<float> d_in(n), d_out(n);
  const std::vector<float> k(5, 0.2f);
  std::vector<float> host(n, 1.0f);
  auto msg = [&](const float* in, float* out, const MovingAverageOptions& o) {
    return tessera_test::error_message(
        [&] { tessera::moving_average(in, n, out, std::span<const float>(k), o); });
  };
  EXPECT_TRUE(tessera_test::has_substr(msg(host.data(), d_out.data(), {}), "in must point to device memory"));
  EXPECT_TRUE(tessera_test::has_substr(msg(d_in.data(), d_out.data(), {.variant = "juxtaposed_halo"}),
                                       "does not support"));
  EXPECT_TRUE(tessera_test::has_substr(msg(d_in.data(), d_in.data(), {}), "overlap"));
  // Double on the GPU: the seed's 3-point rungs are float only.
  DeviceBuffer<double> d_dbl(n), d_dbl_out(n);
  const std::vector<double> kd(3, 0.25);
  EXPECT_TRUE(tessera_test::has_substr(tessera_test::error_message([&] {
                                         tessera::moving_average(d_dbl.data(), n, d_dbl_out.data(),
                                                                 std::span<const double>(kd),
                                                                 {.variant = "overlapping_blocks"});
                                       }),
                                       "does not support double"));
}

// The harness's quick verify (what compute-sanitizer runs) passes every GPU row.
TEST_F(MovingAverageGpu, HarnessQuickVerify) {
  harness::RunOptions o;
  o.gpu = true;
  o.quick = true;
  std::ostringstream out;
  harness::DeviceInfo dev;
  const auto report = harness::run_verify(harness::parse_selector("moving_average"), o, dev, out);
  EXPECT_EQ(report.failures, 0) << out.str();
  int gpu_rows = 0;
  for (const auto& r : report.results) gpu_rows += r.variant.backend == Backend::cuda;
  EXPECT_GT(gpu_rows, 50);
}

}  // namespace
