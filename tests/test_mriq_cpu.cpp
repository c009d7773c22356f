// tessera::mri_q on the host: the CPU rungs against an independent double
// evaluation, the origin's Q = sum |phi|^2, num_k = 0, and every argument
// error (null pointers, NaN and infinity named by array and index, aliased
// outputs, unknown variants) thrown before anything is written.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "families/mriq/contract.hpp"
#include "mriq_test_support.hpp"
#include "tessera/core/error.hpp"
#include "tessera/mriq.hpp"
#include "test_support.hpp"

namespace {

using mriq_test::Inputs;
using mriq_test::random_inputs;
using tessera_test::error_message;
using tessera_test::has_substr;

struct Out {
  std::vector<float> qr, qi;
  explicit Out(std::size_t n, float fill = -7.5f) : qr(n, fill), qi(n, fill) {}
};

void call(const Inputs& in, Out& out, const std::string& variant, bool check = true) {
  tessera::mri_q(in.kx.data(), in.ky.data(), in.kz.data(), in.phi_r.data(), in.phi_i.data(), in.num_k(),
                 in.x.data(), in.y.data(), in.z.data(), in.num_x(), out.qr.data(), out.qi.data(),
                 {.check_inputs = check, .variant = variant});
}

class MriqCpu : public ::testing::TestWithParam<const char*> {};

TEST_P(MriqCpu, MatchesDoubleDefinition) {
  for (auto [k, x] : {std::pair<std::size_t, std::size_t>{1, 1}, {1, 37}, {2, 5}, {97, 129}, {2049, 65}}) {
    const Inputs in = random_inputs(k, x, 1000 + k * 7 + x);
    Out out(x);
    call(in, out, GetParam());
    std::vector<double> rr, ri;
    mriq_test::reference(in, rr, ri);
    // Double evaluation rounded once to float: within a few float ulps of
    // max|Q| (the sum order is the same; only the final rounding differs).
    EXPECT_LE(mriq_test::relative_error(out.qr, out.qi, rr, ri), 1e-6) << k << " samples, " << x << " voxels";
    // The origin: every phase is 0, Q = sum |phi|^2 exactly in double.
    double sum = 0;
    for (std::size_t m = 0; m < k; ++m) sum += double(in.phi_r[m]) * in.phi_r[m] + double(in.phi_i[m]) * in.phi_i[m];
    EXPECT_EQ(out.qr[0], static_cast<float>(sum));
    EXPECT_EQ(out.qi[0], 0.0f);
  }
}

TEST_P(MriqCpu, OneSampleIsOnePhasor) {
  Inputs in = random_inputs(1, 300, 77);
  Out out(300);
  call(in, out, GetParam());
  const double mag = double(in.phi_r[0]) * in.phi_r[0] + double(in.phi_i[0]) * in.phi_i[0];
  for (std::size_t n = 0; n < 300; ++n) {
    const double arg = 2 * std::numbers::pi * (double(in.kx[0]) * in.x[n] + double(in.ky[0]) * in.y[n] +
                                               double(in.kz[0]) * in.z[n]);
    ASSERT_NEAR(out.qr[n], mag * std::cos(arg), 1e-6 * mag) << n;
    ASSERT_NEAR(out.qi[n], mag * std::sin(arg), 1e-6 * mag) << n;
  }
}

TEST_P(MriqCpu, NoSamplesGiveZero) {
  const Inputs in = random_inputs(0, 50, 3);
  Out out(50);
  tessera::mri_q(nullptr, nullptr, nullptr, nullptr, nullptr, 0, in.x.data(), in.y.data(), in.z.data(), 50,
                 out.qr.data(), out.qi.data(), {.variant = GetParam()});
  for (std::size_t n = 0; n < 50; ++n) {
    EXPECT_EQ(out.qr[n], 0.0f);
    EXPECT_EQ(out.qi[n], 0.0f);
  }
}

INSTANTIATE_TEST_SUITE_P(Rungs, MriqCpu, ::testing::Values("cpu_reference", "cpu_openmp"),
                         [](const auto& info) { return std::string(info.param); });

TEST(MriqCpuApi, ReferenceAndOpenmpAgreeBitForBit) {
  const Inputs in = random_inputs(513, 1031, 11, 20.0f);
  Out a(1031), b(1031);
  call(in, a, "cpu_reference");
  call(in, b, "cpu_openmp");
  EXPECT_EQ(a.qr, b.qr);
  EXPECT_EQ(a.qi, b.qi);
}

TEST(MriqCpuApi, NoVoxelsWritesNothing) {
  const Inputs in = random_inputs(5, 0, 4);
  tessera::mri_q(in.kx.data(), in.ky.data(), in.kz.data(), in.phi_r.data(), in.phi_i.data(), 5, nullptr, nullptr,
                 nullptr, 0, nullptr, nullptr, {.variant = "cpu_openmp"});
}

// The error, and that the outputs were not touched.
std::string refused(const Inputs& in, Out& out, const std::string& variant = "cpu_openmp") {
  const std::string msg = error_message([&] { call(in, out, variant); });
  for (float v : out.qr) EXPECT_EQ(v, -7.5f);
  return msg;
}

TEST(MriqCpuApi, NanAndInfinityNamedByArrayAndIndex) {
  Inputs in = random_inputs(20, 30, 5);
  Out out(30);
  in.phi_i[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(has_substr(refused(in, out), "phi_i[5] is NaN"));
  in.phi_i[5] = 0.25f;
  in.z[29] = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(has_substr(refused(in, out), "z[29] is infinite"));
  in.z[29] = 0.0f;
  in.kx[0] = -std::numeric_limits<float>::infinity();
  EXPECT_TRUE(has_substr(refused(in, out, "cpu_reference"), "kx[0] is infinite"));
}

TEST(MriqCpuApi, NullPointersNamed) {
  const Inputs in = random_inputs(4, 6, 6);
  std::vector<float> q(6);
  auto msg = error_message([&] {
    tessera::mri_q(in.kx.data(), nullptr, in.kz.data(), in.phi_r.data(), in.phi_i.data(), 4, in.x.data(),
                   in.y.data(), in.z.data(), 6, q.data(), q.data() + 0, {.variant = "cpu_openmp"});
  });
  EXPECT_TRUE(has_substr(msg, "ky is a null pointer"));
  std::vector<float> qr(6);
  msg = error_message([&] {
    tessera::mri_q(in.kx.data(), in.ky.data(), in.kz.data(), in.phi_r.data(), in.phi_i.data(), 4, in.x.data(),
                   in.y.data(), in.z.data(), 6, qr.data(), nullptr, {.variant = "cpu_openmp"});
  });
  EXPECT_TRUE(has_substr(msg, "q_i is a null pointer"));
}

TEST(MriqCpuApi, AliasedOutputsRefused) {
  const Inputs in = random_inputs(4, 6, 7);
  std::vector<float> q(12, -7.5f);
  // q_i starting inside q_r.
  auto msg = error_message([&] {
    tessera::mri_q(in.kx.data(), in.ky.data(), in.kz.data(), in.phi_r.data(), in.phi_i.data(), 4, in.x.data(),
                   in.y.data(), in.z.data(), 6, q.data(), q.data() + 3, {.variant = "cpu_openmp"});
  });
  EXPECT_TRUE(has_substr(msg, "overlap"));
  // An output written over an input.
  Inputs copy = in;
  std::vector<float> qi(6);
  msg = error_message([&] {
    tessera::mri_q(copy.kx.data(), copy.ky.data(), copy.kz.data(), copy.phi_r.data(), copy.phi_i.data(), 4,
                   copy.x.data(), copy.y.data(), copy.z.data(), 6, copy.y.data(), qi.data(), {.variant = "cpu_openmp"});
  });
  EXPECT_TRUE(has_substr(msg, "q_r overlaps the input y"));
  EXPECT_EQ(copy.y, in.y);
  // Adjacent (not overlapping) outputs are fine.
  tessera::mri_q(in.kx.data(), in.ky.data(), in.kz.data(), in.phi_r.data(), in.phi_i.data(), 4, in.x.data(),
                 in.y.data(), in.z.data(), 6, q.data(), q.data() + 6, {.variant = "cpu_openmp"});
  EXPECT_NE(q[0], -7.5f);
  EXPECT_NE(q[6], -7.5f);
}

// Every row's workspace query is host code, answered before any GPU is
// touched: edge shapes (no samples, no voxels) must not trap, and a row
// that keeps per-sample data must grow with the samples.
TEST(MriqCpuApi, EveryRowsWorkspaceQueryOnEdgeShapes) {
  for (const auto& v : tessera::mriq_impl::variants_ladder().all()) {
    for (auto [k, x] : {std::pair<std::size_t, std::size_t>{0, 0}, {0, 5}, {5, 0}, {1, 1}, {4097, 3}, {3, 4097}}) {
      const std::size_t ws = tessera::mri_q_workspace_bytes(k, x, {.variant = std::string(v.info.name)});
      EXPECT_LT(ws, std::size_t(1) << 30) << v.info.name << " " << k << " x " << x;
    }
    const std::size_t small = v.workspace_bytes({1, 1000}), large = v.workspace_bytes({262144, 1000});
    EXPECT_LE(small, large) << v.info.name;
    if (small > 0) {
      EXPECT_GE(large, 262144u * sizeof(float)) << v.info.name;
    }
  }
}

TEST(MriqCpuApi, UnknownVariantListsTheLadder) {
  const Inputs in = random_inputs(4, 6, 8);
  Out out(6);
  const std::string msg = refused(in, out, "warp_magic");
  EXPECT_TRUE(has_substr(msg, "no variant named 'warp_magic'"));
  EXPECT_TRUE(has_substr(msg, "cpu_openmp"));
  EXPECT_THROW((void)tessera::mri_q_workspace_bytes(4, 6, {.variant = "warp_magic"}), tessera::Error);
  EXPECT_EQ(tessera::mri_q_workspace_bytes(4, 6, {.variant = "cpu_openmp"}), 0u);
}

}  // namespace
