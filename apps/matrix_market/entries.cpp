// The entry section, parsed in parallel: the bytes after the size line are cut
// into one chunk per thread at line boundaries, each thread parses its chunk
// into its own arrays (std::from_chars, no locale, no copies), and the chunks
// are returned in file order. A chunk stops at its first bad line; then, and
// when the chunks' entry count disagrees with the size line, one serial pass
// over the whole section finds the first error in file order and reports it
// with its line number (the error path may be slow, the good one may not).
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "fast_number.hpp"
#include "mm_detail.hpp"
#include "tessera/core/error.hpp"

namespace tessera::mm::detail {
namespace {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

inline const char* skip_blanks(const char* p, const char* end) {
  while (p < end && is_blank(*p)) ++p;
  return p;
}

// Past the end of the line when `p` is at it (LF, CR LF, a CR or nothing
// before the end of the text); nullptr when something else is there.
inline const char* past_line_end(const char* p, const char* end) {
  if (p == end) return p;
  if (*p == '\n') return p + 1;
  if (*p == '\r') {
    if (p + 1 == end) return p + 1;
    if (p[1] == '\n') return p + 2;
  }
  return nullptr;
}

// Whether a token ends at `p` (a blank, the line end or the text end).
inline bool token_ends(const char* p, const char* end) {
  return p == end || is_blank(*p) || *p == '\n' || *p == '\r';
}

struct EntryRules {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  std::int64_t declared = 0;  // entries the size line declares
  std::int64_t size_line = 0;
};

struct ChunkOutcome {
  std::int64_t stored = 0;  // entries (lines) read, before symmetric expansion
  std::int64_t lines = 0;   // lines started, the failing one included
  bool failed = false;
  std::string error;
};

// A 1-based index into [1, limit]; digits only.
inline bool parse_index(const char*& p, const char* end, std::int64_t limit, std::int64_t& v) {
  std::uint64_t x = 0;
  bool fits = true;
  const unsigned n = read_digits(p, end, x, fits);
  v = fits ? static_cast<std::int64_t>(x) : std::numeric_limits<std::int64_t>::max();
  return n != 0 && token_ends(p, end) && v >= 1 && v <= limit;
}

std::string index_error(const char* s, const char* end, const char* what, std::int64_t limit) {
  const char* p = s;
  while (p < end && static_cast<unsigned char>(*p - '0') < 10) ++p;
  if (p == s || !token_ends(p, end))
    return fmt::format("{} index {} is not a positive integer", what, quote_token(s, end));
  return fmt::format("{} index {} is out of range 1..{}", what, quote_token(s, end), limit);
}

template <class T>
const char* type_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

// A value of the file's field at `p`; false with `error` set when it is not one.
template <class T>
inline bool parse_value(const char*& p, const char* end, Field field, T& v, std::string& error) {
  const char* s = p;
  if (p < end && *p == '+' && p + 1 < end && *(p + 1) != '-' && *(p + 1) != '+') ++p;  // from_chars takes no '+'
  if (field == Field::integer) {
    std::int64_t x = 0;
    const auto [q, ec] = std::from_chars(p, end, x);
    if (ec == std::errc{} && token_ends(q, end)) {
      v = static_cast<T>(x);
      p = q;
      return true;
    }
    error = ec == std::errc::result_out_of_range && token_ends(q, end)
                ? fmt::format("integer value {} is out of the 64-bit range", quote_token(s, end))
                : fmt::format("value {} is not an integer (the field is integer)", quote_token(s, end));
    return false;
  }
  if (parse_real_fast(p, end, v)) return true;
  const auto [q, ec] = std::from_chars(p, end, v);
  if (ec == std::errc{} && token_ends(q, end)) {
    p = q;
    return true;
  }
  if (ec == std::errc::result_out_of_range && token_ends(q, end)) {
    // Underflow reads as zero (or the nearest subnormal); overflow is an error.
    const std::string token(p, q);
    errno = 0;
    const T x = std::is_same_v<T, float> ? static_cast<T>(std::strtof(token.c_str(), nullptr))
                                         : static_cast<T>(std::strtod(token.c_str(), nullptr));
    if (!std::isinf(x)) {
      v = x;
      p = q;
      return true;
    }
    error = fmt::format("value {} is out of range for {}", quote_token(s, end), type_name<T>());
    return false;
  }
  error = fmt::format("value {} is not a number", quote_token(s, end));
  return false;
}

// Error-message tail for a line that should have ended.
std::string trailing_error(const char* p, const char* end) {
  if (*p == '\r') return "a carriage return inside the line (CR is allowed only before the LF)";
  return fmt::format("trailing {} after the entry", quote_token(p, end));
}

// Estimated entries of a chunk from the line length of its first 4 KiB.
std::size_t estimate_lines(const char* p, const char* end) {
  const std::size_t bytes = static_cast<std::size_t>(end - p);
  const std::size_t sample = std::min<std::size_t>(bytes, 4096);
  const std::size_t lfs = static_cast<std::size_t>(std::count(p, p + sample, '\n'));
  if (lfs == 0) return 16;
  return static_cast<std::size_t>(static_cast<double>(bytes) * static_cast<double>(lfs) / sample * 1.05) + 16;
}

// One chunk of a coordinate file's entries; at most `max_stored` entries
// (the serial pass passes the declared count to catch surplus entries).
template <class T>
ChunkOutcome parse_coordinate_chunk(const char* p, const char* end, const EntryRules& r, std::int64_t max_stored,
                                    Triplets<T>& out) {
  ChunkOutcome o;
  const bool mirrored = r.symmetry != Symmetry::general;
  const T mirror_sign = r.symmetry == Symmetry::skew_symmetric ? T(-1) : T(1);
  auto fail_line = [&](std::string what) {
    o.failed = true;
    o.error = std::move(what);
    return o;
  };
  while (p < end) {
    ++o.lines;
    const char* q = skip_blanks(p, end);
    if (const char* next = past_line_end(q, end)) {  // a blank line
      p = next;
      continue;
    }
    if (*q == '%') return fail_line("a % comment among the entries (comments belong before the size line)");
    if (o.stored == max_stored)
      return fail_line(fmt::format("more entries than the {} declared by the size line (line {})", r.declared,
                                   r.size_line));
    std::int64_t i = 0, j = 0;
    const char* s = q;
    if (!parse_index(q, end, r.rows, i)) return fail_line(index_error(s, end, "row", r.rows));
    q = skip_blanks(q, end);
    if (past_line_end(q, end)) return fail_line("missing column index");
    s = q;
    if (!parse_index(q, end, r.cols, j)) return fail_line(index_error(s, end, "column", r.cols));
    T v = T(1);
    if (r.field != Field::pattern) {
      q = skip_blanks(q, end);
      if (past_line_end(q, end)) return fail_line("missing value");
      std::string error;
      if (!parse_value(q, end, r.field, v, error)) return fail_line(std::move(error));
    }
    q = skip_blanks(q, end);
    const char* next = past_line_end(q, end);
    if (next == nullptr) return fail_line(trailing_error(q, end));
    if (mirrored && i <= j) {
      if (i < j)
        return fail_line(fmt::format("entry ({}, {}) is above the diagonal of a {} file (only the lower "
                                     "triangle may be stored; upper-triangle entries are refused)",
                                     i, j, r.symmetry == Symmetry::symmetric ? "symmetric" : "skew-symmetric"));
      if (r.symmetry == Symmetry::skew_symmetric && !(v == T(0)))
        return fail_line(fmt::format("diagonal entry ({}, {}) = {} in a skew-symmetric file (its diagonal must "
                                     "be zero or absent)",
                                     i, j, v));
    }
    out.row.push_back(static_cast<std::int32_t>(i - 1));
    out.col.push_back(static_cast<std::int32_t>(j - 1));
    out.val.push_back(v);
    if (mirrored && i != j) {
      out.row.push_back(static_cast<std::int32_t>(j - 1));
      out.col.push_back(static_cast<std::int32_t>(i - 1));
      out.val.push_back(mirror_sign * v);
    }
    ++o.stored;
    p = next;
  }
  return o;
}

// One chunk of an array file's values, one a line.
template <class T>
ChunkOutcome parse_array_chunk(const char* p, const char* end, const EntryRules& r, std::int64_t max_stored,
                               std::vector<T>& out) {
  ChunkOutcome o;
  auto fail_line = [&](std::string what) {
    o.failed = true;
    o.error = std::move(what);
    return o;
  };
  while (p < end) {
    ++o.lines;
    const char* q = skip_blanks(p, end);
    if (const char* next = past_line_end(q, end)) {
      p = next;
      continue;
    }
    if (*q == '%') return fail_line("a % comment among the values (comments belong before the size line)");
    if (o.stored == max_stored)
      return fail_line(fmt::format("more values than the {} x {} = {} declared by the size line (line {})", r.rows,
                                   r.cols, r.declared, r.size_line));
    T v{};
    std::string error;
    if (!parse_value(q, end, r.field, v, error)) return fail_line(std::move(error));
    q = skip_blanks(q, end);
    const char* next = past_line_end(q, end);
    if (next == nullptr)
      return fail_line(*q == '\r' ? trailing_error(q, end)
                                  : fmt::format("trailing {} after the value (one value a line)", quote_token(q, end)));
    out.push_back(v);
    ++o.stored;
    p = next;
  }
  return o;
}

// Chunk limits at line starts: n + 1 pointers from begin to end.
std::vector<const char*> split_at_lines(const char* begin, const char* end, unsigned n) {
  std::vector<const char*> bounds(n + 1, end);
  bounds[0] = begin;
  const std::size_t bytes = static_cast<std::size_t>(end - begin);
  for (unsigned k = 1; k < n; ++k) {
    const char* guess = std::max(begin + bytes / n * k, bounds[k - 1]);
    const void* lf = guess < end ? std::memchr(guess, '\n', static_cast<std::size_t>(end - guess)) : nullptr;
    bounds[k] = lf != nullptr ? static_cast<const char*>(lf) + 1 : end;
  }
  return bounds;
}

EntryRules rules_of(const ParsedHeader& ph) {
  const Header& h = ph.header;
  return {h.rows, h.cols, h.field, h.symmetry, h.entries, ph.size_line};
}

// Where the text's last line is, for the truncation message.
std::int64_t last_line(const ParsedHeader& ph, std::int64_t data_lines) {
  return data_lines == 0 ? ph.size_line : ph.data_first_line + data_lines - 1;
}

// The parallel pass for either kind of file; on any failure, the serial one.
template <class Out, class ParseChunk, class Reserve>
std::vector<Out> parse_entries(std::string_view text, const ParsedHeader& ph, const std::string& name,
                               const ReadOptions& options, ParseChunk parse_chunk, Reserve reserve,
                               const char* truncation_what) {
  const char* begin = text.data() + ph.data_begin;
  const char* end = text.data() + text.size();
  const std::int64_t declared = ph.header.entries;
  const unsigned n = thread_count(options.threads, static_cast<std::size_t>(end - begin),
                                  options.min_bytes_per_thread);
  const auto bounds = split_at_lines(begin, end, n);
  std::vector<Out> parts(n);
  std::vector<ChunkOutcome> outcomes(n);
  run_parallel(n, [&](unsigned t) {
    reserve(parts[t], estimate_lines(bounds[t], bounds[t + 1]));
    outcomes[t] = parse_chunk(bounds[t], bounds[t + 1], std::numeric_limits<std::int64_t>::max(), parts[t]);
  });
  std::int64_t stored = 0;
  bool failed = false;
  for (const auto& o : outcomes) {
    stored += o.stored;
    failed = failed || o.failed;
  }
  if (!failed && stored == declared) return parts;

  parts.clear();
  Out scratch;
  const ChunkOutcome o = parse_chunk(begin, end, declared, scratch);
  if (o.failed) fail(name, ph.data_first_line + o.lines - 1, o.error);
  if (o.stored < declared)
    fail(name, last_line(ph, o.lines),
         fmt::format("the file ends after {} of the {} {} declared by the size line (line {}): truncated?",
                     o.stored, declared, truncation_what, ph.size_line));
  throw Error(fmt::format("{}: internal error: the parallel and serial parses disagree", name));
}

}  // namespace

template <class T>
std::vector<Triplets<T>> parse_coordinate_entries(std::string_view text, const ParsedHeader& ph,
                                                  const std::string& name, const ReadOptions& options) {
  const EntryRules rules = rules_of(ph);
  const std::size_t per_line = rules.symmetry == Symmetry::general ? 1 : 2;
  const std::size_t cap = static_cast<std::size_t>(ph.header.entries) * per_line;
  return parse_entries<Triplets<T>>(
      text, ph, name, options,
      [&](const char* b, const char* e, std::int64_t max_stored, Triplets<T>& out) {
        return parse_coordinate_chunk<T>(b, e, rules, max_stored, out);
      },
      [&](Triplets<T>& out, std::size_t lines) {
        const std::size_t n = std::min(lines * per_line, cap);
        out.row.reserve(n);
        out.col.reserve(n);
        out.val.reserve(n);
      },
      "entries");
}

template <class T>
std::vector<std::vector<T>> parse_array_entries(std::string_view text, const ParsedHeader& ph,
                                                const std::string& name, const ReadOptions& options) {
  const EntryRules rules = rules_of(ph);
  const auto cap = static_cast<std::size_t>(ph.header.entries);
  return parse_entries<std::vector<T>>(
      text, ph, name, options,
      [&](const char* b, const char* e, std::int64_t max_stored, std::vector<T>& out) {
        return parse_array_chunk<T>(b, e, rules, max_stored, out);
      },
      [&](std::vector<T>& out, std::size_t lines) { out.reserve(std::min(lines, cap)); }, "values");
}

template std::vector<Triplets<float>> parse_coordinate_entries<float>(std::string_view, const ParsedHeader&,
                                                                      const std::string&, const ReadOptions&);
template std::vector<Triplets<double>> parse_coordinate_entries<double>(std::string_view, const ParsedHeader&,
                                                                        const std::string&, const ReadOptions&);
template std::vector<std::vector<float>> parse_array_entries<float>(std::string_view, const ParsedHeader&,
                                                                    const std::string&, const ReadOptions&);
template std::vector<std::vector<double>> parse_array_entries<double>(std::string_view, const ParsedHeader&,
                                                                      const std::string&, const ReadOptions&);

}  // namespace tessera::mm::detail
