// The banner and size line of a Matrix Market file (mm_detail.hpp), and the
// small helpers every part of the reader uses.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include "mm_detail.hpp"
#include "tessera/core/error.hpp"

namespace tessera::mm::detail {
namespace {

constexpr std::string_view BANNER = "%%MatrixMarket";
constexpr std::int64_t MAX_INDEX = std::numeric_limits<std::int32_t>::max();

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Line [begin, end) of the text starting at `pos`, without its LF and a CR
// before it; `next` is where the following line starts.
std::string_view line_at(std::string_view text, std::size_t pos, std::size_t& next) {
  std::size_t lf = text.find('\n', pos);
  if (lf == std::string_view::npos) lf = text.size();
  next = lf < text.size() ? lf + 1 : lf;
  std::string_view line = text.substr(pos, lf - pos);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::vector<std::string_view> split_blanks(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool blank_line(std::string_view line) {
  return std::all_of(line.begin(), line.end(), is_blank);
}

std::string show(std::string_view s) { return quote_token(s.data(), s.data() + s.size()); }

}  // namespace

void fail(const std::string& name, std::int64_t line, std::string_view what) {
  throw Error(fmt::format("{}:{}: {}", name, line, what));
}

std::string quote_token(const char* p, const char* end) {
  std::string out = "'";
  for (int n = 0; p < end && !is_blank(*p) && *p != '\n' && *p != '\r'; ++p, ++n) {
    if (n == 40) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(*p);
    if (std::isprint(c))
      out += static_cast<char>(c);
    else
      out += fmt::format("\\x{:02x}", c);
  }
  return out + "'";
}

unsigned thread_count(unsigned requested, std::size_t bytes, std::size_t min_bytes_per_thread) {
  unsigned n = requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t by_size = bytes / std::max<std::size_t>(1, min_bytes_per_thread);
  return static_cast<unsigned>(std::clamp<std::size_t>(by_size, 1, n));
}

ParsedHeader parse_header(std::string_view text, const std::string& name) {
  ParsedHeader ph;
  Header& h = ph.header;
  if (text.empty()) fail(name, 1, "empty file; expected the %%MatrixMarket banner");
  std::size_t next = 0;
  const std::string_view banner = line_at(text, 0, next);
  if (!banner.starts_with(BANNER) || (banner.size() > BANNER.size() && !is_blank(banner[BANNER.size()])))
    fail(name, 1, fmt::format("missing %%MatrixMarket banner: line 1 starts with {}", show(banner)));
  const auto fields = split_blanks(banner.substr(BANNER.size()));
  if (fields.size() < 4)
    fail(name, 1, fmt::format("the banner has {} of its 4 fields (object format field symmetry)", fields.size()));
  if (fields.size() > 4) fail(name, 1, fmt::format("trailing {} after the banner's 4 fields", show(fields[4])));

  const std::string object = lower(fields[0]), format = lower(fields[1]), field = lower(fields[2]),
                    symmetry = lower(fields[3]);
  if (object != "matrix")
    fail(name, 1, object == "vector" ? std::string("object 'vector' is not supported (only 'matrix')")
                                     : fmt::format("unknown object {} (expected 'matrix')", show(fields[0])));
  if (format == "coordinate")
    h.format = Format::coordinate;
  else if (format == "array")
    h.format = Format::array;
  else
    fail(name, 1, fmt::format("unknown format {} (expected 'coordinate' or 'array')", show(fields[1])));
  if (field == "real" || field == "double")
    h.field = Field::real;
  else if (field == "integer")
    h.field = Field::integer;
  else if (field == "pattern")
    h.field = Field::pattern;
  else if (field == "complex")
    fail(name, 1, "complex matrices are not supported (fields read: real, integer, pattern)");
  else
    fail(name, 1, fmt::format("unknown field {} (expected real, integer, pattern or complex)", show(fields[2])));
  if (symmetry == "general")
    h.symmetry = Symmetry::general;
  else if (symmetry == "symmetric")
    h.symmetry = Symmetry::symmetric;
  else if (symmetry == "skew-symmetric")
    h.symmetry = Symmetry::skew_symmetric;
  else if (symmetry == "hermitian")
    fail(name, 1, "hermitian matrices are not supported (symmetries read: general, symmetric, skew-symmetric)");
  else
    fail(name, 1,
         fmt::format("unknown symmetry {} (expected general, symmetric, skew-symmetric or hermitian)",
                     show(fields[3])));
  if (h.field == Field::pattern && h.symmetry == Symmetry::skew_symmetric)
    fail(name, 1, "'pattern skew-symmetric' is not a valid combination (a pattern has no sign)");
  if (h.format == Format::array && h.field == Field::pattern)
    fail(name, 1, "'array pattern' is not a valid combination (an array stores every value)");
  if (h.format == Format::array && h.symmetry != Symmetry::general)
    fail(name, 1, fmt::format("'array {}' is not supported (only 'array general')", symmetry));

  // Comments and blank lines up to the size line.
  std::int64_t line_no = 1;
  std::string_view size_line;
  bool found = false;
  while (next < text.size()) {
    const std::size_t pos = next;
    const std::string_view line = line_at(text, pos, next);
    ++line_no;
    if (blank_line(line)) continue;
    const std::size_t first = line.find_first_not_of(" \t");
    if (line[first] == '%') continue;
    size_line = line;
    found = true;
    break;
  }
  if (!found) fail(name, line_no, "missing size line: the file ends after the banner and comments");
  ph.size_line = line_no;
  ph.data_begin = next;
  ph.data_first_line = line_no + 1;

  const auto numbers = split_blanks(size_line);
  const std::size_t want = h.format == Format::coordinate ? 3 : 2;
  const char* what = h.format == Format::coordinate ? "rows columns entries" : "rows columns";
  if (numbers.size() != want)
    fail(name, line_no,
         fmt::format("the size line has {} field{}; {} {} file needs {} ({})", numbers.size(),
                     numbers.size() == 1 ? "" : "s", h.format == Format::coordinate ? "a" : "an", format, want,
                     what));
  std::int64_t v[3] = {0, 0, 0};
  static constexpr const char* NAMES[3] = {"rows", "columns", "entries"};
  for (std::size_t i = 0; i < want; ++i) {
    const std::string_view s = numbers[i];
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v[i]);
    if (ec == std::errc::result_out_of_range)
      fail(name, line_no, fmt::format("size line: {} {} is out of range", NAMES[i], show(s)));
    if (ec != std::errc{} || end != s.data() + s.size())
      fail(name, line_no, fmt::format("size line: {} {} is not an integer", NAMES[i], show(s)));
    if (v[i] < 0) fail(name, line_no, fmt::format("size line: negative number of {} ({})", NAMES[i], v[i]));
  }
  h.rows = v[0];
  h.cols = v[1];
  for (int i = 0; i < 2; ++i)
    if (v[i] > MAX_INDEX)
      fail(name, line_no,
           fmt::format("size line: {} {} exceed {} (indices are 32-bit)", v[i], NAMES[i], MAX_INDEX));
  const std::int64_t positions = h.rows * h.cols;  // < 2^62: no overflow
  if (h.format == Format::array) {
    h.entries = positions;
    return ph;
  }
  h.entries = v[2];
  if (h.symmetry != Symmetry::general && h.rows != h.cols)
    fail(name, line_no,
         fmt::format("a {} matrix must be square; the size line says {} x {}",
                     h.symmetry == Symmetry::symmetric ? "symmetric" : "skew-symmetric", h.rows, h.cols));
  // The lower triangle with its diagonal (a skew-symmetric file may state
  // zeros on its diagonal).
  const std::int64_t stored_max = h.symmetry == Symmetry::general ? positions : h.rows * (h.rows + 1) / 2;
  if (h.entries > stored_max)
    fail(name, line_no,
         fmt::format("the size line declares {} entries but a {}{} x {} matrix stores at most {}", h.entries,
                     h.symmetry == Symmetry::general ? "" : (h.symmetry == Symmetry::symmetric ? "symmetric "
                                                                                                 : "skew-symmetric "),
                     h.rows, h.cols, stored_max));
  return ph;
}

}  // namespace tessera::mm::detail
