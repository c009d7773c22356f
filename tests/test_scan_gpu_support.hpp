// GPU helpers of the scan tests, shared by tessera_tests (the product's rows)
// and tessera_lab_tests (the lab's tuning rows): run one ladder row on guarded,
// poisoned device buffers and check it against test_scan_support.hpp's
// independent reference, plus the contention and past-2^31 checks every
// look-back row must pass. CUDA builds only.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "families/scan/contract.hpp"
#include "harness/generate.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/cuda_check.hpp"
#include "test_gpu_support.hpp"
#include "test_scan_support.hpp"

namespace tessera_test {

// The registered rows that run on the GPU and pass `keep`, ladder order.
template <class Keep>
std::vector<const tessera::scan_impl::ScanVariant*> scan_gpu_rows(Keep keep) {
  std::vector<const tessera::scan_impl::ScanVariant*> rows;
  for (const auto& v : tessera::scan_impl::variants_ladder().all())
    if (v.info.backend == tessera::Backend::cuda && keep(v)) rows.push_back(&v);
  return rows;
}

template <class T>
std::vector<T> scan_input(std::size_t n, tessera::harness::Distribution d, const std::string& tag,
                          std::uint64_t salt = 0) {
  std::vector<T> x(n);
  tessera::harness::fill_random(x.data(), n, seed_for(tag, n, salt * 8 + sizeof(T)), d);
  return x;
}

struct GpuRun {
  std::size_t in_offset = 0;   // elements before the input in its allocation
  std::size_t out_offset = 0;  // ... before the output
  bool in_place = false;
  int ws_poison = 0xA5;
};

// Runs a CUDA row on x (uploaded at in_offset into a guarded buffer), with a
// poisoned output and workspace; checks the guards around the output and
// returns the n outputs.
template <class T>
std::vector<T> run_scan_gpu(const tessera::scan_impl::ScanVariant& v, const ScanCombo& c, bool exclusive,
                            const std::vector<T>& x, cudaStream_t stream, const GpuRun& o = {}) {
  using namespace tessera;
  const std::size_t n = x.size();
  constexpr std::size_t GUARD = 4;
  const scan_impl::ScanSpec spec = scan_spec(c, exclusive, n);
  std::vector<T> in_host(o.in_offset + n + GUARD);
  std::memset(in_host.data(), 0x5A, in_host.size() * sizeof(T));
  std::copy(x.begin(), x.end(), in_host.begin() + static_cast<std::ptrdiff_t>(o.in_offset));
  DeviceBuffer<T> d_in(in_host.size(), "test input");
  d_in.upload(in_host.data(), in_host.size());
  DeviceBuffer<T> d_out(o.out_offset + n + GUARD, "test output");
  d_out.fill_bytes(0xFF, stream);
  DeviceBytes ws(v.workspace_bytes(spec), "test workspace");
  ws.fill_bytes(o.ws_poison, stream);
  device_sync();
  T* in = d_in.data() + o.in_offset;
  T* out = o.in_place ? in : d_out.data() + o.out_offset;
  v.run(scan_impl::ScanCall{spec, in, out, ws.data(), stream});
  TESSERA_CUDA(cudaStreamSynchronize(stream));
  TESSERA_CUDA(cudaGetLastError());
  std::vector<T> all(o.in_place ? in_host.size() : d_out.size());
  (o.in_place ? d_in : d_out).download(all.data(), all.size());
  const std::size_t at = o.in_place ? o.in_offset : o.out_offset;
  std::vector<unsigned char> untouched(sizeof(T) * all.size());
  if (o.in_place) std::memcpy(untouched.data(), in_host.data(), untouched.size());
  else std::memset(untouched.data(), 0xFF, untouched.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i >= at && i < at + n) continue;
    EXPECT_EQ(std::memcmp(&all[i], untouched.data() + i * sizeof(T), sizeof(T)), 0)
        << "wrote outside the output, element " << i << " of the buffer (output at " << at << ")";
  }
  const auto first = all.begin() + static_cast<std::ptrdiff_t>(at);
  return std::vector<T>(first, first + static_cast<std::ptrdiff_t>(n));
}

template <class T>
void check_scan_case(const tessera::scan_impl::ScanVariant& v, const ScanCombo& c, bool exclusive,
                     const std::vector<T>& x, cudaStream_t stream, const GpuRun& o = {}, const char* what = "") {
  SCOPED_TRACE(::testing::Message() << v.info.name << " " << scan_combo_name(c)
                                    << (exclusive ? " exclusive" : " inclusive") << " n=" << x.size() << " " << what);
  const auto got = run_scan_gpu<T>(v, c, exclusive, x, stream, o);
  const auto ref = scan_reference(x.data(), x.size(), c.op, exclusive);
  EXPECT_TRUE(check_scan(got.data(), ref, x.size(), c, exclusive));
}

// Many tiles, repeated: any lost or doubled aggregate in a look-back shows in
// an exact integer result.
inline void check_exact_under_contention(const tessera::scan_impl::ScanVariant& v, cudaStream_t stream) {
  using namespace tessera;
  SCOPED_TRACE(std::string(v.info.name));
  for (int rep = 0; rep < 4; ++rep)
    for (Dtype t : {Dtype::i32, Dtype::u32})
      with_scan_type(t, [&]<class T>() {
        const std::size_t n = (std::size_t(1) << 24) + 7 + rep;
        const ScanCombo c{t, Op::sum, Accum::native};
        check_scan_case<T>(v, c, rep % 2 == 1, scan_input<T>(n, harness::Distribution::uniform, "contention", rep),
                           stream);
      });
  const ScanCombo i64{Dtype::i64, Op::sum, Accum::native};
  if (v.supports(scan_spec(i64, false, 1)))
    check_scan_case<std::int64_t>(
        v, i64, false, scan_input<std::int64_t>((std::size_t(1) << 23) + 5, harness::Distribution::uniform, "c64"),
        stream);
}

// An int32 sum of 2^31 + 17 elements (exact, so every output past 2^31 is
// checked bit for bit) through each named row; run by the caller's
// LargePast2To31Elements test after large_scan_enabled(). Returns the rows
// that ran; `then(d, expected)` may use the input afterwards.
template <class Then>
std::size_t check_int32_past_2_31(std::initializer_list<const char*> names, cudaStream_t stream, Then&& then) {
  using namespace tessera;
  constexpr std::size_t n = (std::size_t(1) << 31) + 17;
  std::vector<std::int32_t> x(n);
  harness::fill_random(x.data(), n, 2031, harness::Distribution::small);
  const ScanCombo c{Dtype::i32, Op::sum, Accum::native};
  std::vector<std::int32_t> expected(n);
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < n; ++i) expected[i] = static_cast<std::int32_t>(s += static_cast<std::uint32_t>(x[i]));
  DeviceBuffer<std::int32_t> d(n, "large input"), out(n, "large output");
  d.upload(x.data(), n);
  device_sync();
  std::size_t ran = 0;
  for (const char* name : names) {
    const scan_impl::ScanVariant* v = scan_impl::variants_ladder().find(name);
    EXPECT_NE(v, nullptr) << name;
    if (v == nullptr) continue;
    const scan_impl::ScanSpec spec = scan_spec(c, false, n);
    DeviceBytes ws(v->workspace_bytes(spec));
    out.fill_bytes(0xFF, stream);
    v->run(scan_impl::ScanCall{spec, d.data(), out.data(), ws.data(), stream});
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess) << name;
    std::vector<std::int32_t> got(n);
    out.download(got.data(), n);
    const auto bad = std::mismatch(got.begin(), got.end(), expected.begin()).first;
    EXPECT_EQ(bad - got.begin(), static_cast<std::ptrdiff_t>(n)) << name << ": first wrong output";
    ++ran;
  }
  then(d, expected);
  return ran;
}

// Whether the past-2^31 tests run: TESSERA_LARGE_TESTS=1 and the device
// memory for them (the reason goes to `why` otherwise).
inline bool large_scan_enabled(std::string& why) {
  const char* env = std::getenv("TESSERA_LARGE_TESTS");
  if (env == nullptr || std::string(env) != "1") {
    why = "set TESSERA_LARGE_TESTS=1 for scans past 2^31";
    return false;
  }
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess ||
      free_b < 2 * ((std::size_t(1) << 31) + 17) * sizeof(std::int32_t) + (std::size_t(2) << 30)) {
    why = "not enough device memory";
    return false;
  }
  return true;
}

}  // namespace tessera_test
