// The public readers (tessera/apps/matrix_market.hpp): header, entries, and
// the assembly of COO, CSR or dense results from the parsed chunks.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>

#include "mm_detail.hpp"
#include "tessera/core/error.hpp"

namespace tessera::mm {
namespace {

using detail::ParsedHeader;

ParsedHeader expect(std::string_view text, const std::string& name, Format want) {
  ParsedHeader ph = detail::parse_header(text, name);
  if (ph.header.format != want)
    detail::fail(name, 1,
                 want == Format::coordinate
                     ? "an 'array' (dense) file where a sparse 'coordinate' matrix is expected (read it with read_array)"
                     : "a 'coordinate' (sparse) file where a dense 'array' is expected (read it with read_coo/read_csr)");
  return ph;
}

// Concatenates per-chunk vectors into one, copying the chunks in parallel.
template <class V>
void concatenate(std::vector<V*>&& parts, V& out, unsigned threads) {
  if (parts.size() == 1) {
    out = std::move(*parts[0]);
    return;
  }
  std::vector<std::size_t> starts;
  std::size_t total = 0;
  for (auto* p : parts) {
    starts.push_back(total);
    total += p->size();
  }
  out.resize(total);
  detail::run_parallel(std::min<unsigned>(threads, static_cast<unsigned>(parts.size())), [&](unsigned t) {
    for (std::size_t k = t; k < parts.size(); k += std::min<unsigned>(threads, static_cast<unsigned>(parts.size()))) {
      if (!parts[k]->empty())
        std::memcpy(out.data() + starts[k], parts[k]->data(), parts[k]->size() * sizeof((*parts[k])[0]));
      *parts[k] = V();  // give the memory back as soon as it is copied
    }
  });
}

unsigned threads_of(const ReadOptions& options) { return detail::thread_count(options.threads, ~std::size_t{0}, 1); }

template <class F>
auto with_memory_error(const std::string& name, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw Error(fmt::format("{}: out of memory while reading it (the size line may ask for more than this machine has)",
                            name));
  }
}

}  // namespace

// The readers' bodies, wrapped by with_memory_error.
template <class T>
static Coo<T> assemble_coo(std::string_view text, const std::string& name, const ReadOptions& options);
template <class T>
static Csr<T> assemble_csr(std::string_view text, const std::string& name, const ReadOptions& options);
template <class T>
static Dense<T> assemble_array(std::string_view text, const std::string& name, const ReadOptions& options);

Header read_header(const std::string& path) {
  const detail::FileText file(path);
  return detail::parse_header(file.text(), path).header;
}

template <class T>
Coo<T> parse_coo(std::string_view text, const std::string& name, const ReadOptions& options) {
  return with_memory_error(name, [&] { return assemble_coo<T>(text, name, options); });
}

template <class T>
static Coo<T> assemble_coo(std::string_view text, const std::string& name, const ReadOptions& options) {
  const ParsedHeader ph = expect(text, name, Format::coordinate);
  auto parts = detail::parse_coordinate_entries<T>(text, ph, name, options);
  Coo<T> coo;
  coo.rows = ph.header.rows;
  coo.cols = ph.header.cols;
  std::vector<std::vector<std::int32_t>*> rows, cols;
  std::vector<std::vector<T>*> vals;
  for (auto& p : parts) {
    rows.push_back(&p.row);
    cols.push_back(&p.col);
    vals.push_back(&p.val);
  }
  const unsigned threads = threads_of(options);
  concatenate(std::move(rows), coo.row, threads);
  concatenate(std::move(cols), coo.col, threads);
  concatenate(std::move(vals), coo.val, threads);
  return coo;
}

template <class T>
Csr<T> parse_csr(std::string_view text, const std::string& name, const ReadOptions& options) {
  return with_memory_error(name, [&] { return assemble_csr<T>(text, name, options); });
}

template <class T>
static Csr<T> assemble_csr(std::string_view text, const std::string& name, const ReadOptions& options) {
  const ParsedHeader ph = expect(text, name, Format::coordinate);
  const auto parts = detail::parse_coordinate_entries<T>(text, ph, name, options);
  std::vector<detail::Segment<T>> segments;
  for (const auto& p : parts) segments.push_back({p.row.data(), p.col.data(), p.val.data(), p.val.size()});
  return detail::build_csr<T>(ph.header.rows, ph.header.cols, segments, threads_of(options));
}

template <class T>
Dense<T> parse_array(std::string_view text, const std::string& name, const ReadOptions& options) {
  return with_memory_error(name, [&] { return assemble_array<T>(text, name, options); });
}

template <class T>
static Dense<T> assemble_array(std::string_view text, const std::string& name, const ReadOptions& options) {
  const ParsedHeader ph = expect(text, name, Format::array);
  auto parts = detail::parse_array_entries<T>(text, ph, name, options);
  Dense<T> dense;
  dense.rows = ph.header.rows;
  dense.cols = ph.header.cols;
  std::vector<std::vector<T>*> ptrs;
  for (auto& p : parts) ptrs.push_back(&p);
  concatenate(std::move(ptrs), dense.values, threads_of(options));
  return dense;
}

template <class T>
Coo<T> read_coo(const std::string& path, const ReadOptions& options) {
  const detail::FileText file(path);
  return parse_coo<T>(file.text(), path, options);
}

template <class T>
Csr<T> read_csr(const std::string& path, const ReadOptions& options) {
  const detail::FileText file(path);
  return parse_csr<T>(file.text(), path, options);
}

template <class T>
Dense<T> read_array(const std::string& path, const ReadOptions& options) {
  const detail::FileText file(path);
  return parse_array<T>(file.text(), path, options);
}

template <class T>
Csr<T> to_csr(const Coo<T>& coo, unsigned threads) {
  constexpr std::int64_t MAX_INDEX = std::numeric_limits<std::int32_t>::max();
  require(coo.rows >= 0 && coo.rows <= MAX_INDEX && coo.cols >= 0 && coo.cols <= MAX_INDEX,
          fmt::format("to_csr: a {} x {} matrix does not fit 32-bit indices", coo.rows, coo.cols));
  require(coo.row.size() == coo.val.size() && coo.col.size() == coo.val.size(),
          fmt::format("to_csr: row, col and val have {}, {} and {} elements; they must be equal", coo.row.size(),
                      coo.col.size(), coo.val.size()));
  for (std::size_t k = 0; k < coo.val.size(); ++k)
    if (coo.row[k] < 0 || coo.row[k] >= coo.rows || coo.col[k] < 0 || coo.col[k] >= coo.cols)
      throw Error(fmt::format("to_csr: entry {} at ({}, {}) is outside the {} x {} matrix (0-based)", k, coo.row[k],
                              coo.col[k], coo.rows, coo.cols));
  const std::vector<detail::Segment<T>> one{{coo.row.data(), coo.col.data(), coo.val.data(), coo.val.size()}};
  return detail::build_csr<T>(coo.rows, coo.cols, one, detail::thread_count(threads, ~std::size_t{0}, 1));
}

#define TESSERA_MM_READERS(T)                                                              \
  template Coo<T> parse_coo<T>(std::string_view, const std::string&, const ReadOptions&);   \
  template Csr<T> parse_csr<T>(std::string_view, const std::string&, const ReadOptions&);   \
  template Dense<T> parse_array<T>(std::string_view, const std::string&, const ReadOptions&); \
  template Coo<T> read_coo<T>(const std::string&, const ReadOptions&);                      \
  template Csr<T> read_csr<T>(const std::string&, const ReadOptions&);                      \
  template Dense<T> read_array<T>(const std::string&, const ReadOptions&);                  \
  template Csr<T> to_csr<T>(const Coo<T>&, unsigned);
TESSERA_MM_READERS(float)
TESSERA_MM_READERS(double)
#undef TESSERA_MM_READERS

}  // namespace tessera::mm
