// tessera::mm — Matrix Market (.mtx) files in and out: the sparse matrices and
// dense vectors of the SpMV family and of `tessera spmv`.
//
//   auto A = tessera::mm::read_csr<double>("bcsstk17.mtx");   // CSR, duplicates summed
//   auto x = tessera::mm::read_array<double>("x.mtx");        // dense, column-major
//   tessera::mm::write_csr("copy.mtx", A);                    // atomic: all or nothing
//
// Read: `%%MatrixMarket matrix coordinate FIELD SYMMETRY` with FIELD real
// (or its alias double), integer or pattern, SYMMETRY general, symmetric or
// skew-symmetric (pattern skew-symmetric is not a valid combination); and
// `%%MatrixMarket matrix array real|integer general` (column-major, one value
// a line). Keywords are case-insensitive. Refused with an error that says so:
// complex fields, hermitian symmetry, array symmetric/skew-symmetric, objects
// other than `matrix` (e.g. `vector`).
//
// Layout of the text: the banner is line 1; % comment lines and blank lines
// may follow it up to the size line; after the size line blank lines are
// allowed anywhere but a % line is an error (the format puts comments before
// the size line only). Fields are separated by spaces or tabs; a CR before the
// LF is accepted; the last line needs no LF.
//
// Policies (docs/matrix_market.md):
// - Symmetric files store the lower triangle (row >= col) and are expanded on
//   read: an off-diagonal entry (i, j, v) also yields (j, i, v), or (j, i, -v)
//   in a skew-symmetric file. An entry above the diagonal of a symmetric or
//   skew-symmetric file is REFUSED (mirroring it could silently double an
//   entry given both ways); a nonzero diagonal entry of a skew-symmetric
//   file is refused (its diagonal is zero; an explicit 0 is kept as stored).
// - Duplicate entries (the same (row, col) more than once) are SUMMED:
//   read_csr and to_csr merge them into one entry, adding in file order
//   (so the result is deterministic); read_coo keeps them as separate entries,
//   whose meaning is their sum. A pattern entry has the value 1.
// - Indices are 1-based in the file, 0-based in memory. Rows and columns are at
//   most 2^31 - 1 (32-bit indices), the number of entries is 64-bit.
// - Every malformed file raises tessera::Error whose message starts with
//   "FILE:LINE: " and says what is wrong; nothing is returned on error.
//
// Speed: the entry section is split into one chunk per thread at line
// boundaries and parsed in parallel on an mmap of the file (numbers through
// exact fast paths, else std::from_chars); docs/matrix_market.md gives the
// measured MB/s. `write_coo` refuses more entries than rows*cols (no file may
// hold them; to_csr sums duplicates first).
//
// Write: coordinate real general (COO in its order, CSR row by row) and array
// real general; values in the shortest text that reads back to the same bits.
// The file is written to a temporary beside the target, fsync'ed and renamed
// over it: on any error nothing is left behind and an existing file is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::mm {

enum class Format { coordinate, array };
enum class Field { real, integer, pattern };
enum class Symmetry { general, symmetric, skew_symmetric };

// The banner and the size line. `entries` is as declared: the stored entries
// of a coordinate file (before symmetric expansion), rows*cols for an array.
struct Header {
  Format format = Format::coordinate;
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t entries = 0;
};

// Coordinate (triplet) form, 0-based; entry k is (row[k], col[k], val[k]).
template <class T>
struct Coo {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<std::int32_t> row;
  std::vector<std::int32_t> col;
  std::vector<T> val;
  std::int64_t nnz() const { return static_cast<std::int64_t>(val.size()); }
};

// Compressed sparse rows: row r's entries are [row_offsets[r], row_offsets[r+1]),
// columns strictly increasing within a row (no duplicates).
template <class T>
struct Csr {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<std::int64_t> row_offsets;  // rows + 1 values, row_offsets[0] == 0
  std::vector<std::int32_t> col_indices;
  std::vector<T> values;
  std::int64_t nnz() const { return static_cast<std::int64_t>(values.size()); }
};

// Dense, column-major: element (i, j) is values[i + j * rows].
template <class T>
struct Dense {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::vector<T> values;
};

struct ReadOptions {
  // Parsing threads; 0 = std::thread::hardware_concurrency().
  unsigned threads = 0;
  // A thread is used per this many bytes of entries at most, so that small
  // files are parsed on one thread (tests lower it to cut small files into
  // many chunks).
  std::size_t min_bytes_per_thread = std::size_t{1} << 20;
};

// The banner and size line only (reads the file's first lines).
Header read_header(const std::string& path);

// T is float or double (explicitly instantiated). Integer values convert to T;
// a real value that does not fit T (e.g. 1e300 as float) is an error.
template <class T>
Coo<T> read_coo(const std::string& path, const ReadOptions& options = {});
template <class T>
Csr<T> read_csr(const std::string& path, const ReadOptions& options = {});
// An `array` file; a dense vector is an n x 1 array.
template <class T>
Dense<T> read_array(const std::string& path, const ReadOptions& options = {});

// The same from text in memory; `name` stands for the file in messages.
template <class T>
Coo<T> parse_coo(std::string_view text, const std::string& name, const ReadOptions& options = {});
template <class T>
Csr<T> parse_csr(std::string_view text, const std::string& name, const ReadOptions& options = {});
template <class T>
Dense<T> parse_array(std::string_view text, const std::string& name, const ReadOptions& options = {});

// COO to CSR, summing duplicates in COO order. Throws Error on an index out of
// range or sizes beyond 32-bit indices.
template <class T>
Csr<T> to_csr(const Coo<T>& coo, unsigned threads = 0);

// Writers (atomic, see above). write_coo writes the entries in their order,
// duplicates included; write_csr row by row.
template <class T>
void write_coo(const std::string& path, const Coo<T>& coo);
template <class T>
void write_csr(const std::string& path, const Csr<T>& csr);
template <class T>
void write_array(const std::string& path, const Dense<T>& dense);
// A vector as an n x 1 array.
template <class T>
void write_vector(const std::string& path, std::span<const T> values);

}  // namespace tessera::mm
