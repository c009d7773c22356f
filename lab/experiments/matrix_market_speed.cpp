// Matrix Market read and write speed: the measurement behind
// docs/matrix_market.md's MB/s. Generates a random real general matrix of
// about the asked size (rows written in order, as a CSR writer does), then
// times read_coo and read_csr per thread count; MB/s = file bytes / seconds,
// median of the repetitions, the file in the page cache (the first read warms
// it and is not counted).
//
//   lab_matrix_market_speed FILE.mtx [MEGABYTES=1000] [REPS=3] [THREADS...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>
#include <algorithm>

#include "tessera/apps/matrix_market.hpp"

namespace mm = tessera::mm;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class F>
double median_seconds(int reps, F&& f) {
  std::vector<double> s;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    s.push_back(seconds_since(t0));
  }
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE.mtx [MEGABYTES=1000] [REPS=3] [THREADS...]\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const double megabytes = argc > 2 ? std::atof(argv[2]) : 1000.0;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
  std::vector<unsigned> threads;
  for (int a = 4; a < argc; ++a) threads.push_back(static_cast<unsigned>(std::atoi(argv[a])));
  if (threads.empty()) threads = {1, std::max(1u, std::thread::hardware_concurrency())};

  if (!std::filesystem::exists(path)) {
    // About 38 bytes a line: two 7-digit indices and a 17-digit double.
    const auto nnz = static_cast<std::size_t>(megabytes * 1e6 / 38);
    mm::Coo<double> coo;
    coo.rows = coo.cols = 2'000'000;
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<std::int32_t> idx(0, 1'999'999);
    std::uniform_real_distribution<double> val(-1, 1);
    coo.row.resize(nnz);
    coo.col.resize(nnz);
    coo.val.resize(nnz);
    for (std::size_t k = 0; k < nnz; ++k) {
      coo.row[k] = idx(rng);
      coo.col[k] = idx(rng);
      coo.val[k] = val(rng);
    }
    const auto csr = mm::to_csr(coo);
    coo = {};
    const auto t0 = std::chrono::steady_clock::now();
    mm::write_csr(path, csr);
    const double s = seconds_since(t0);
    const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
    std::printf("write_csr: %.0f MB, %lld entries in %.2f s = %.0f MB/s (fsync included)\n", mb,
                static_cast<long long>(csr.nnz()), s, mb / s);
  }
  const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  (void)mm::read_coo<double>(path);  // warm the page cache
  for (unsigned t : threads) {
    const mm::ReadOptions opt{.threads = t};
    const double coo_s = median_seconds(reps, [&] { (void)mm::read_coo<double>(path, opt); });
    const double csr_s = median_seconds(reps, [&] { (void)mm::read_csr<double>(path, opt); });
    const double f32_s = median_seconds(reps, [&] { (void)mm::read_csr<float>(path, opt); });
    std::printf("%u thread%s: read_coo<double> %.2f s = %.0f MB/s; read_csr<double> %.2f s = %.0f MB/s; "
                "read_csr<float> %.2f s = %.0f MB/s\n",
                t, t == 1 ? "" : "s", coo_s, mb / coo_s, csr_s, mb / csr_s, f32_s, mb / f32_s);
  }
  return 0;
}
