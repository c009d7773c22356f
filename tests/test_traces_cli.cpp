// `tessera traces` through the built binary: exit codes and messages of the
// refusals, and what a run interrupted by SIGINT/SIGTERM leaves behind.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "traces_cli_support.hpp"
#include "traces_test_support.hpp"

namespace {

using namespace traces_test;
using tessera_test::has_substr;

void write_raw(const std::string& path, std::size_t floats) {
  std::vector<unsigned char> b(floats * 4);
  for (std::size_t i = 0; i < floats; ++i) {
    const float v = 0.5f + static_cast<float>(i % 7);
    std::memcpy(&b[4 * i], &v, 4);
  }
  write_bytes(path, b);
}

class TracesCli : public ::testing::Test {
 protected:
  ScratchDir d, logs;
  std::string in = d.path("in.f32"), out = d.path("out.f32"), log = logs.path("log");
};

// An unknown variant is a typo: named, with the valid names, exit 2, whether
// or not a GPU is present, and never "no GPU was found".
TEST_F(TracesCli, UnknownVariantIsNamedWithTheValidNames) {
  write_raw(in, 20);
  const CliResult r = run_cli({"traces", in, out, "--traces", "4", "--samples", "5", "--variant", "doesnotexist"}, log);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has_substr(r.output, "--variant doesnotexist: no batched_scan variant of that name")) << r.output;
  EXPECT_TRUE(has_substr(r.output, "cpu_openmp")) << r.output;
  EXPECT_FALSE(has_substr(r.output, "GPU")) << r.output;
  EXPECT_EQ(d.files(), std::vector<std::string>{"in.f32"});
}

TEST_F(TracesCli, RawRunSucceeds) {
  write_raw(in, 20);
  const CliResult r = run_cli({"traces", in, out, "--traces", "4", "--samples", "5", "--variant", "cpu_openmp"}, log);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(d.files(), (std::vector<std::string>{"in.f32", "out.f32"}));
}

}  // namespace
