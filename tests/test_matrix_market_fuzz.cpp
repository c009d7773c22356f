// tessera::mm under random damage: 20,000 mutations of valid files
// (byte changes, truncations, deleted, duplicated and inserted lines). Each
// must either raise tessera::Error (the same message on one thread and in
// many chunks) or give a well-formed matrix that the one-thread parse, the
// COO path and a write-and-read-back all agree with. A crash or hang fails
// the run; the test takes well under ten seconds.
#include <chrono>

#include "matrix_market_test_support.hpp"

namespace {

using namespace mm_test;

std::vector<std::string> seed_files() {
  return {
      "%%MatrixMarket matrix coordinate real general\n% comment\n4 5 6\n1 1 1.5\n2 3 -2e-3\n4 5 7\n3 2 .25\n"
      "1 1 -1\n4 1 1e10\n",
      "%%MatrixMarket matrix coordinate real symmetric\n4 4 5\n1 1 2\n2 1 -1\n3 2 4.5\n4 4 1\n4 1 3\n",
      "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.25\n3 1 -4\n",
      "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 4\n1 1\n3 1\n5 2\n4 4\n",
      "%%MatrixMarket matrix coordinate integer general\n3 2 4\n1 1 12\n3 2 -7\n2 1 0\n1 1 5\n",
      "%%MatrixMarket matrix coordinate pattern general\n\n2 3 3\n\n1 3\n2 1\n2 2\n",
      "%%MatrixMarket matrix array real general\n3 2\n1.5\n-2\n3e2\n4\n5\n0.125\n",
  };
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b < s.size()) {
    std::size_t e = s.find('\n', b);
    if (e == std::string::npos) e = s.size() - 1;
    out.push_back(s.substr(b, e - b + 1));
    b = e + 1;
  }
  return out;
}

std::string mutate(std::string s, std::mt19937_64& rng) {
  static const std::string interesting = "0123456789 \t\n\r-+.eE%x";
  const int rounds = 1 + static_cast<int>(rng() % 3);
  for (int r = 0; r < rounds; ++r) {
    if (s.empty()) s.push_back('\n');  // (not s = "\n": GCC 12 warns, -Wrestrict false positive)
    const std::size_t at = rng() % s.size();
    auto lines = lines_of(s);
    const std::size_t li = rng() % lines.size();
    switch (rng() % 7) {
      case 0:
        s[at] = interesting[rng() % interesting.size()];
        break;
      case 1:
        s[at] = static_cast<char>(rng() % 256);
        break;
      case 2:
        s.resize(at);  // truncation
        break;
      case 3:
        lines.erase(lines.begin() + static_cast<long>(li));
        s.clear();
        for (auto& l : lines) s += l;
        break;
      case 4:
        lines.insert(lines.begin() + static_cast<long>(li), lines[li]);
        s.clear();
        for (auto& l : lines) s += l;
        break;
      case 5:
        s.insert(at, 1, interesting[rng() % interesting.size()]);
        break;
      default:
        s.erase(at, 1);
        break;
    }
  }
  return s;
}

void check_one(const std::string& text, const ScratchDir& dir) {
  const bool array = text.find("array") != std::string::npos && text.find("array") < text.find('\n');
  if (array) {
    mm::Dense<double> a, b;
    const std::string e1 = error_of([&] { a = mm::parse_array<double>(text, "f.mtx", one_thread()); });
    const std::string e2 = error_of([&] { b = mm::parse_array<double>(text, "f.mtx", many_chunks(3)); });
    ASSERT_EQ(e1, e2);
    if (!e1.empty()) {
      ASSERT_EQ(e1.rfind("f.mtx:", 0), 0u) << e1;
      return;
    }
    ASSERT_EQ(a.values.size(), static_cast<std::size_t>(a.rows * a.cols));
    ASSERT_EQ(a.values.size(), b.values.size());
    for (std::size_t k = 0; k < a.values.size(); ++k) ASSERT_TRUE(same_bits(a.values[k], b.values[k]));
    mm::write_array(dir.path("back.mtx"), a);
    const auto c = mm::read_array<double>(dir.path("back.mtx"));
    ASSERT_EQ(c.values.size(), a.values.size());
    for (std::size_t k = 0; k < a.values.size(); ++k) ASSERT_TRUE(same_bits(a.values[k], c.values[k]));
    return;
  }
  mm::Csr<double> a, b;
  const std::string e1 = error_of([&] { a = mm::parse_csr<double>(text, "f.mtx", one_thread()); });
  const std::string e2 = error_of([&] { b = mm::parse_csr<double>(text, "f.mtx", many_chunks(3)); });
  ASSERT_EQ(e1, e2);
  if (!e1.empty()) {
    ASSERT_EQ(e1.rfind("f.mtx:", 0), 0u) << e1;
    return;
  }
  ASSERT_TRUE(well_formed(a));
  ASSERT_TRUE(same_csr(a, b));
  const auto coo = mm::parse_coo<double>(text, "f.mtx", many_chunks(2));
  ASSERT_TRUE(same_csr(mm::to_csr(coo), a));
  ASSERT_TRUE(same_csr(reference_csr(coo), a));
  mm::write_csr(dir.path("back.mtx"), a);
  ASSERT_TRUE(same_csr(mm::read_csr<double>(dir.path("back.mtx")), a));
}

TEST(MatrixMarketFuzz, MutatedFilesThrowOrReparseConsistently) {
  const ScratchDir dir(/*in_memory=*/true);
  std::mt19937_64 rng(0x6d747821);
  const auto seeds = seed_files();
  for (const auto& s : seeds) check_one(s, dir);  // the seeds themselves are valid
  for (const auto& s : seeds) EXPECT_NO_THROW((void)(s.find("array") != std::string::npos
                                                         ? (void)mm::parse_array<double>(s, "seed")
                                                         : (void)mm::parse_csr<double>(s, "seed")));
  const auto start = std::chrono::steady_clock::now();
  int accepted = 0, refused = 0;
  for (int k = 0; k < 20000; ++k) {
    const std::string text = mutate(seeds[rng() % seeds.size()], rng);
    SCOPED_TRACE(::testing::Message() << "mutation " << k << ": [" << text << "]");
    const bool ok = error_of([&] {
                      if (text.find("array") != std::string::npos) (void)mm::parse_array<double>(text, "f.mtx");
                      else (void)mm::parse_csr<double>(text, "f.mtx");
                    }).empty();
    (ok ? accepted : refused)++;
    check_one(text, dir);
    if (HasFatalFailure()) return;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  // Both outcomes occur (a fuzzer that only ever breaks files tests little).
  EXPECT_GT(accepted, 500);
  EXPECT_GT(refused, 5000);
  std::printf("fuzz: %d accepted, %d refused in %.2f s\n", accepted, refused, seconds);
}

}  // namespace
