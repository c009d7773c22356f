// `tessera traces` through the built binary: exit codes and messages of the
// refusals, and what a run interrupted by SIGINT/SIGTERM leaves behind.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "segy_bytes_support.hpp"
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

// --verbose: the phases, where the scan ran and why, and the run against a
// plain copy, whose temporary is gone afterwards.
TEST_F(TracesCli, VerbosePrintsPhasesAndTheRatioToAPlainCopy) {
  write_raw(in, 25 * 1000);
  const CliResult r = run_cli({"traces", in, out, "--traces", "25", "--samples", "1000", "--variant", "cpu_openmp",
                               "--verbose"},
                              log);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(has_substr(r.output, "where   host (")) << r.output;
  EXPECT_TRUE(has_substr(r.output, "(--variant cpu_openmp)")) << r.output;
  for (const char* step : {"phases  seconds since the process started", "open IN", "fsync the output",
                           "rename over OUT", "batch  read"})
    EXPECT_TRUE(has_substr(r.output, step)) << step << "\n" << r.output;
  const std::regex ratio(R"(run \d+\.\d\d s, plain copy \d+\.\d\d s: \d+\.\d\d)");
  EXPECT_TRUE(std::regex_search(r.output, ratio)) << r.output;
  EXPECT_TRUE(has_substr(r.output, "\xC3\x97 copy")) << r.output;  // U+00D7, the multiplication sign
  EXPECT_EQ(d.files(), (std::vector<std::string>{"in.f32", "out.f32"}));
  EXPECT_EQ(read_bytes(out).size(), 25u * 1000u * 4u);
}

// A run on the host never loads the CUDA driver (libcuda), whether the host
// was asked for (--variant cpu_*, --device host) or chosen (a small file): the
// binary asks the dynamic loader at the end of the run, a check that fails on
// a GPU machine if anything on the host path reached the CUDA runtime.
TEST_F(TracesCli, HostRunsNeverLoadTheCudaDriver) {
  write_raw(in, 25 * 1000);
  const std::vector<std::vector<std::string>> pins = {{"--variant", "cpu_openmp"}, {"--device", "host"}, {}};
  for (const auto& pin : pins) {
    std::vector<std::string> args = {"traces", in, out, "--traces", "25", "--samples", "1000", "--verbose"};
    args.insert(args.end(), pin.begin(), pin.end());
    const CliResult r = run_cli(args, log);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(has_substr(r.output, "where   host (")) << r.output;
    EXPECT_TRUE(has_substr(r.output, "gpu     not started: the CUDA driver was never loaded")) << r.output;
    EXPECT_FALSE(has_substr(r.output, "GPU start")) << r.output;
    if (pin.empty()) {
      EXPECT_TRUE(has_substr(r.output, "plus a GPU's start")) << r.output;
    }
  }
  const CliResult bad = run_cli({"traces", in, out, "--traces", "25", "--samples", "1000", "--device", "tpu"}, log);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_TRUE(has_substr(bad.output, "--device: unknown device 'tpu' (auto, host, gpu)")) << bad.output;
}

// The same from the dynamic loader's side, on any machine: with LD_DEBUG=libs
// the loader reports every library it looks for; a host run never looks for
// libcuda, while a GPU run (CUDA builds) does, found or not (the control that
// shows the check can see it).
TEST_F(TracesCli, HostRunsNeverSearchForTheCudaDriver) {
  write_raw(in, 25 * 1000);
  const std::vector<std::string> shape = {"traces", in, out, "--traces", "25", "--samples", "1000"};
  for (const char* device : {"host", "auto"}) {
    std::vector<std::string> args = shape;
    args.insert(args.end(), {"--device", device});
    const CliResult r = run_cli(args, log, {"LD_DEBUG=libs"});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_FALSE(has_substr(r.output, "find library=libcuda.so")) << device << "\n" << r.output;
  }
#if TESSERA_HAVE_CUDA
  std::vector<std::string> args = shape;
  args.insert(args.end(), {"--device", "gpu"});
  const CliResult gpu = run_cli(args, log, {"LD_DEBUG=libs"});
  EXPECT_TRUE(has_substr(gpu.output, "find library=libcuda.so")) << gpu.output;
#endif
}

// Without --verbose: no phases and no copy.
TEST_F(TracesCli, QuietRunPrintsNoPhases) {
  write_raw(in, 20);
  const CliResult r = run_cli({"traces", in, out, "--traces", "4", "--samples", "5", "--variant", "cpu_openmp"}, log);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(has_substr(r.output, "phases")) << r.output;
  EXPECT_FALSE(has_substr(r.output, "plain copy")) << r.output;
}

// ---- SEG-Y given as raw float32 --------------------------------------------

// 15 traces of 60 IEEE samples: 3600 + 15 x 480 = 10800 bytes, which is also
// 27 raw traces of 100 float32 samples.
std::vector<unsigned char> segy_sized_like_raw() {
  SegyBytesSpec s;
  s.format = 5;
  s.samples = 60;
  s.traces.assign(15, std::vector<double>(60, 1.5));
  return segy_bytes(s);
}

TEST_F(TracesCli, SegyGivenAsRawIsRefused) {
  const auto bytes = segy_sized_like_raw();
  ASSERT_EQ(bytes.size(), 27u * 100u * 4u);
  write_bytes(in, bytes);
  const CliResult r = run_cli({"traces", in, out, "--traces", "27", "--samples", "100"}, log);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has_substr(r.output, "in.f32: given as raw float32 (--traces/--samples) but it is a SEG-Y file"))
      << r.output;
  EXPECT_TRUE(has_substr(r.output, "EBCDIC")) << r.output;
  EXPECT_TRUE(has_substr(r.output, "--raw")) << r.output;
  EXPECT_EQ(d.files(), std::vector<std::string>{"in.f32"});
}

TEST_F(TracesCli, RawFlagReadsSegyBytesAsRawFloat32) {
  write_bytes(in, segy_sized_like_raw());
  const CliResult r =
      run_cli({"traces", in, out, "--traces", "27", "--samples", "100", "--raw", "--variant", "cpu_openmp"}, log);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_bytes(out).size(), 10800u);
}

// ---- --out-format ---------------------------------------------------------------

TEST_F(TracesCli, UnknownOutFormatIsNamed) {
  write_raw(in, 20);
  const CliResult r = run_cli({"traces", in, out, "--traces", "4", "--samples", "5", "--out-format", "int9"}, log);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has_substr(r.output, "--out-format: unknown format 'int9' (same, ieee, ibm, double)")) << r.output;
}

#if TESSERA_HAVE_SEGYIO
// int16 samples: IEEE float output by default; `same` refused once a sum
// leaves int16, naming the trace and sample.
TEST_F(TracesCli, IntegerInputOutFormats) {
  SegyBytesSpec s;
  s.format = 3;
  s.samples = 3;
  s.traces = {{1, 2, 3}, {30000, 30000, 1}};
  write_bytes(in, segy_bytes(s));
  const std::vector<std::string> args{"traces", in, out, "--direction", "forward", "--variant", "cpu_openmp"};
  const CliResult ieee = run_cli(args, log);
  EXPECT_EQ(ieee.exit_code, 0) << ieee.output;
  EXPECT_TRUE(has_substr(ieee.output, "out.f32: format 5 (4-byte IEEE float)")) << ieee.output;
  auto same_args = args;
  same_args.insert(same_args.end(), {"--out-format", "same"});
  const CliResult same = run_cli(same_args, log);
  EXPECT_EQ(same.exit_code, 2) << same.output;
  EXPECT_TRUE(has_substr(same.output, "out.f32: trace 1 sample 1: the result 60000 does not fit")) << same.output;
}
#endif

// ---- interrupted runs ---------------------------------------------------------

bool is_temporary(const std::string& name) { return name.find(".tessera-") != std::string::npos; }

// SIGINT or SIGTERM mid-run: the process dies of the signal, its temporary is
// gone and the existing OUT is untouched. The input is a sparse 512 MiB raw
// file (quick to make, a second or more to scan); the signal goes out as soon
// as the temporary exists, i.e. while the run is writing it.
class TracesCliSignal : public TracesCli, public ::testing::WithParamInterface<int> {};

TEST_P(TracesCliSignal, LeavesNoTemporaryAndKeepsTheOldOutput) {
  const int sig = GetParam();
  const std::size_t traces = 8192, samples = 16384;
  {
    std::ofstream f(in, std::ios::binary);
  }
  ASSERT_EQ(::truncate(in.c_str(), static_cast<off_t>(traces * samples * 4)), 0);
  write_bytes(out, {'o', 'l', 'd'});
  const pid_t pid = spawn_cli({"traces", in, out, "--traces", std::to_string(traces), "--samples",
                               std::to_string(samples), "--variant", "cpu_openmp", "--batch-traces", "256"},
                              log);
  bool seen = false;
  for (int i = 0; i < 20000 && !seen; ++i) {  // up to 20 s
    for (const std::string& name : d.files()) seen = seen || is_temporary(name);
    if (!seen) ::usleep(1000);
  }
  ASSERT_TRUE(seen) << "the run never created its temporary";
  ASSERT_EQ(::kill(pid, sig), 0);
  const CliResult r = wait_cli(pid, log);
  EXPECT_EQ(r.signal, sig) << "exit code " << r.exit_code << ": " << r.output;
  EXPECT_EQ(d.files(), (std::vector<std::string>{"in.f32", "out.f32"}));
  EXPECT_EQ(read_bytes(out), (std::vector<unsigned char>{'o', 'l', 'd'}));
}

// A signal during --verbose's plain copy removes the copy; OUT, already in
// place, stays. The copy of a 512 MiB file runs long enough to be caught
// mid-way on most machines; when it finished first, there is nothing to test.
TEST_P(TracesCliSignal, DuringTheVerboseCopyLeavesNoTemporary) {
  const int sig = GetParam();
  const std::size_t traces = 8192, samples = 16384, bytes = traces * samples * 4;
  {
    std::ofstream f(in, std::ios::binary);
  }
  ASSERT_EQ(::truncate(in.c_str(), static_cast<off_t>(bytes)), 0);
  write_bytes(out, {'o', 'l', 'd'});
  const pid_t pid = spawn_cli({"traces", in, out, "--traces", std::to_string(traces), "--samples",
                               std::to_string(samples), "--variant", "cpu_openmp", "--verbose"},
                              log);
  bool copying = false;
  for (int i = 0; i < 60000 && !copying; ++i) {  // up to 60 s
    struct stat st {};
    const bool committed = ::stat(out.c_str(), &st) == 0 && static_cast<std::size_t>(st.st_size) == bytes;
    if (committed)
      for (const std::string& name : d.files()) copying = copying || is_temporary(name);
    if (!copying) ::usleep(1000);
  }
  ASSERT_TRUE(copying) << "never saw the plain copy's temporary";
  ASSERT_EQ(::kill(pid, sig), 0);
  const CliResult r = wait_cli(pid, log);
  if (r.exit_code == 0) GTEST_SKIP() << "the copy finished before the signal arrived";
  EXPECT_EQ(r.signal, sig) << "exit code " << r.exit_code << ": " << r.output;
  EXPECT_EQ(d.files(), (std::vector<std::string>{"in.f32", "out.f32"}));
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(static_cast<std::size_t>(st.st_size), bytes);
}

INSTANTIATE_TEST_SUITE_P(Signals, TracesCliSignal, ::testing::Values(SIGINT, SIGTERM),
                         [](const auto& info) { return std::string(info.param == SIGINT ? "SIGINT" : "SIGTERM"); });

// A pid that is surely not running: a child that has exited and been reaped.
long dead_pid() {
  const pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  int status = 0;
  ::waitpid(p, &status, 0);
  return p;
}

// What a killed run (SIGKILL, a crash) leaves is removed by the next run on
// the same OUT; a live process's temporary and another OUT's are kept.
TEST_F(TracesCli, NextRunRemovesStaleTemporariesOfItsOutputOnly) {
  write_raw(in, 20);
  const long dead = dead_pid();
  const std::string stale = ".out.f32.tessera-" + std::to_string(dead) + "-0000abcd.tmp";
  const std::string live = ".out.f32.tessera-" + std::to_string(::getpid()) + "-0000abcd.tmp";
  const std::string other = ".other.f32.tessera-" + std::to_string(dead) + "-0000abcd.tmp";
  const std::string unrelated = ".out.f32.tessera-" + std::to_string(dead) + "-notours.tmp";
  for (const auto& n : {stale, live, other, unrelated}) write_bytes(d.path(n), {'x'});
  const CliResult r = run_cli({"traces", in, out, "--traces", "4", "--samples", "5", "--variant", "cpu_openmp"}, log);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  auto expected = std::vector<std::string>{live, other, unrelated, "in.f32", "out.f32"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(d.files(), expected);
}

}  // namespace
