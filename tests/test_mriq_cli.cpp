// `tessera mriq IN.bin OUT.bin` through the built binary: Q written in the
// classic layout and equal to the double definition, numK = 0, and every bad
// input (short header, negative counts, sizes that disagree with the
// counts, NaN and infinity) refused with exit 2, a message naming the file
// and the offset or the bytes, and OUT left as it was.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "matrix_market_test_support.hpp"
#include "mriq_test_support.hpp"
#include "test_support.hpp"
#include "traces_cli_support.hpp"

namespace {

using mm_test::ScratchDir;
using mriq_test::Inputs;
using tessera_test::has_substr;
using traces_test::CliResult;
using traces_test::run_cli;

template <class T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

std::string file_bytes(const Inputs& in) {
  std::string s;
  put(s, std::int32_t(in.num_k()));
  put(s, std::int32_t(in.num_x()));
  for (const auto* a : {&in.kx, &in.ky, &in.kz, &in.x, &in.y, &in.z, &in.phi_r, &in.phi_i})
    for (float v : *a) put(s, v);
  return s;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string read_bytes(const std::string& path) {
  std::stringstream ss;
  ss << std::ifstream(path, std::ios::binary).rdbuf();
  return ss.str();
}

class MriqCli : public ::testing::Test {
 protected:
  ScratchDir dir;
  std::string in = dir.path("k.bin"), out = dir.path("q.bin"), log = dir.path("log");

  CliResult run(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"mriq", in, out};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args, log);
  }

  // Exit 2, the message names the file and `what`, OUT untouched.
  void refused(const std::string& bytes, const std::string& what) {
    write_bytes(in, bytes);
    write_bytes(out, "keep");
    const CliResult r = run();
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_TRUE(has_substr(r.output, in)) << r.output;
    EXPECT_TRUE(has_substr(r.output, what)) << r.output;
    EXPECT_EQ(read_bytes(out), "keep");
    EXPECT_EQ(dir.entries(), 3u) << "a temporary was left behind";
  }
};

TEST_F(MriqCli, WritesQOfTheDefinition) {
  const Inputs k = mriq_test::random_inputs(1500, 777, 21, 12.0f);
  write_bytes(in, file_bytes(k));
  const CliResult r = run();
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "numK            1500"));
  EXPECT_TRUE(has_substr(r.output, "numX            777"));
  EXPECT_TRUE(has_substr(r.output, "pairs/s"));
  // The compute time is the call alone: on a GPU its device time, the
  // uploads, the kernel-loading first call and the copies back apart.
  if (has_substr(r.output, "variant         cpu_"))
    EXPECT_TRUE(has_substr(r.output, "the call on the host")) << r.output;
  else
    EXPECT_TRUE(has_substr(r.output, "device time of the call") &&
                has_substr(r.output, "first call (kernel loading, 512 samples)") &&
                has_substr(r.output, "copies back"))
        << r.output;
  EXPECT_TRUE(has_substr(r.output, "(read ")) << r.output;
  const std::string q = read_bytes(out);
  ASSERT_EQ(q.size(), 4 + 8 * 777u);
  std::uint32_t n = 0;
  std::memcpy(&n, q.data(), 4);
  EXPECT_EQ(n, 777u);
  std::vector<float> qr(777), qi(777);
  std::memcpy(qr.data(), q.data() + 4, 777 * 4);
  std::memcpy(qi.data(), q.data() + 4 + 777 * 4, 777 * 4);
  std::vector<double> rr, ri;
  mriq_test::reference(k, rr, ri);
  EXPECT_LE(mriq_test::relative_error(qr, qi, rr, ri), 1e-4);
}

TEST_F(MriqCli, NoSamplesWritesZeros) {
  const Inputs k = mriq_test::random_inputs(0, 10, 22);
  write_bytes(in, file_bytes(k));
  const CliResult r = run();
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string q = read_bytes(out);
  ASSERT_EQ(q.size(), 4 + 80u);
  for (std::size_t b = 4; b < q.size(); ++b) ASSERT_EQ(q[b], 0) << b;
}

TEST_F(MriqCli, ShortHeader) { refused(std::string(6, '\0'), "the header (int32 numK, int32 numX) needs 8"); }

TEST_F(MriqCli, NegativeCounts) {
  std::string s;
  put(s, std::int32_t(-3));
  put(s, std::int32_t(5));
  refused(s, "offset 0: numK = -3 is negative");
  s.clear();
  put(s, std::int32_t(3));
  put(s, std::int32_t(-1));
  refused(s, "offset 4: numX = -1 is negative");
}

TEST_F(MriqCli, SizeDisagreesWithCounts) {
  const Inputs k = mriq_test::random_inputs(7, 9, 23);
  const std::string good = file_bytes(k);  // 8 + 4 x (35 + 27) = 256 bytes
  refused(good.substr(0, good.size() - 1), "need 256 bytes (8 + 4 x (5 numK + 3 numX)), the file has 255: truncated");
  refused(good + "xyz", "the file has 259: extra bytes");
}

TEST_F(MriqCli, NanAndInfinityNamedWithOffset) {
  Inputs k = mriq_test::random_inputs(7, 9, 24);
  k.phi_r[3] = std::numeric_limits<float>::quiet_NaN();
  // phiR starts after the header and kx, ky, kz, x, y, z: 8 + 4 x (21 + 27) = 200.
  refused(file_bytes(k), "offset 212: phiR[3] is NaN");
  k.phi_r[3] = 1.0f;
  k.y[0] = -std::numeric_limits<float>::infinity();
  refused(file_bytes(k), "offset 128: y[0] is infinite");
}

TEST_F(MriqCli, MissingInputAndUnknownVariant) {
  const CliResult r = run_cli({"mriq", dir.path("absent.bin"), out}, log);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has_substr(r.output, "cannot open"));
  write_bytes(in, file_bytes(mriq_test::random_inputs(2, 2, 25)));
  const CliResult v = run({"--variant", "warp_magic"});
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_TRUE(has_substr(v.output, "no variant named 'warp_magic'"));
}

}  // namespace
