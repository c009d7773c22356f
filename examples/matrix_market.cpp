// A sparse matrix and a vector through Matrix Market files: written
// atomically, read back as CSR (duplicates summed) and a dense vector, y = A x.
#include <tessera/apps/matrix_market.hpp>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "where.hpp"

namespace mm = tessera::mm;

int main() {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string a_path = (dir / "tessera_example_A.mtx").string(), x_path = (dir / "tessera_example_x.mtx").string();

  // 3 x 3, with (1, 0) given twice: the file holds 4 entries, the matrix 3.
  mm::Coo<double> coo{.rows = 3, .cols = 3, .row = {0, 1, 1, 2}, .col = {0, 0, 0, 2}, .val = {2.0, 1.0, 0.5, -4.0}};
  mm::write_coo(a_path, coo);
  const std::vector<double> x0 = {1.0, 2.0, 3.0};
  mm::write_vector<double>(x_path, x0);

  const mm::Csr<double> A = mm::read_csr<double>(a_path);
  const mm::Dense<double> x = mm::read_array<double>(x_path);
  std::vector<double> y(static_cast<std::size_t>(A.rows), 0.0);
  for (std::int64_t r = 0; r < A.rows; ++r)
    for (auto k = A.row_offsets[r]; k < A.row_offsets[r + 1]; ++k)
      y[static_cast<std::size_t>(r)] += A.values[static_cast<std::size_t>(k)] *
                                        x.values[static_cast<std::size_t>(A.col_indices[static_cast<std::size_t>(k)])];
  std::filesystem::remove(a_path);
  std::filesystem::remove(x_path);

  example::expect(A.nnz() == 3, "the duplicate (1, 0) merged");
  example::expect(y == std::vector<double>{2.0, 1.5, -12.0}, "y = A x");
  std::printf("matrix_market: %lld x %lld, %lld entries, y = [%g %g %g]\n", static_cast<long long>(A.rows),
              static_cast<long long>(A.cols), static_cast<long long>(A.nnz()), y[0], y[1], y[2]);
}
