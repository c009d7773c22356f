// PQR in: the ATOM and HETATM records of a PQR file, fields read from the end
// of the line (x y z charge radius), so the optional chain column does not
// matter; the residue number before them must be an integer (with an
// optional insertion letter), which catches a record missing a column.
// Numbers go through std::from_chars (libstdc++'s is the exact, fast
// Eisel-Lemire path): the 100,000-atom file parses in tens of milliseconds.
#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/apps/potential_files.hpp"
#include "tessera/core/error.hpp"

namespace tessera::potential {

namespace {

constexpr std::size_t MAX_FIELDS = 12;  // 11 with the chain; one more to notice extras
constexpr const char* LAYOUT =
    "record serial atom-name residue-name [chain] residue-number x y z charge radius";

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// Splits a line into at most MAX_FIELDS fields; returns how many there are
// (MAX_FIELDS + 1 when there are more).
std::size_t split(std::string_view line, std::array<std::string_view, MAX_FIELDS>& fields) {
  std::size_t n = 0, i = 0;
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (n == MAX_FIELDS) return MAX_FIELDS + 1;
    fields[n++] = line.substr(start, i - start);
  }
  return n;
}

[[noreturn]] void fail(const std::string& name, std::size_t line, const std::string& problem) {
  throw Error(fmt::format("{}:{}: {}", name, line, problem));
}

float number(std::string_view field, const char* what, const std::string& name, std::size_t line) {
  float v = 0;
  const char* first = field.data();
  if (*first == '+') ++first;  // from_chars takes no leading '+'
  const auto [end, ec] = std::from_chars(first, field.data() + field.size(), v);
  if (ec == std::errc::result_out_of_range)
    fail(name, line, fmt::format("{} '{}' is out of the float range", what, field));
  if (ec != std::errc() || end != field.data() + field.size())
    fail(name, line, fmt::format("{} '{}' is not a number", what, field));
  if (!std::isfinite(v)) fail(name, line, fmt::format("{} is {} (not finite)", what, field));
  return v;
}

// A residue number: digits with an optional sign and insertion letter, and
// a chain letter in front when the fixed columns ran them together (PDB2PQR
// writes "A1000" for chain A, residue 1000).
bool residue_number(std::string_view f) {
  std::size_t i = 0;
  while (i < f.size() && std::isalpha(static_cast<unsigned char>(f[i]))) ++i;
  if (i < f.size() && f[i] == '-') ++i;
  const std::size_t digits_from = i;
  while (i < f.size() && f[i] >= '0' && f[i] <= '9') ++i;
  if (i == digits_from) return false;
  return i == f.size() || (i + 1 == f.size() && std::isalpha(static_cast<unsigned char>(f[i])));
}

// The record keyword of a line, serial number run into it or not
// ("HETATM10001": serials past 9999 fill the PDB columns): 0 when the line
// is no ATOM/HETATM record; `merged` says whether the serial came with it.
std::size_t record_keyword(std::string_view rest, bool& merged) {
  for (std::string_view key : {std::string_view("ATOM"), std::string_view("HETATM")}) {
    if (!rest.starts_with(key)) continue;
    std::size_t i = key.size();
    if (i == rest.size() || blank(rest[i])) {
      merged = false;
      return key.size();
    }
    while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9') ++i;
    if (i > key.size() && (i == rest.size() || blank(rest[i]))) {
      merged = true;
      return key.size();
    }
  }
  return 0;
}

}  // namespace

std::vector<Atom> parse_pqr(std::string_view text, const std::string& name) {
  std::vector<Atom> atoms;
  atoms.reserve(text.size() / 70);  // PDB2PQR lines are about 70 characters
  std::array<std::string_view, MAX_FIELDS> f;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    // Only ATOM and HETATM records count (as the first field, exactly, or
    // with the serial number run into it).
    std::size_t s = 0;
    while (s < line.size() && blank(line[s])) ++s;
    const std::string_view rest = line.substr(s);
    bool merged = false;
    const std::size_t key = record_keyword(rest, merged);
    if (key == 0) continue;
    const std::size_t n = split(rest, f);
    const std::string record(rest.substr(0, key));
    // Fields as if the serial stood apart.
    const std::size_t fields = n + (merged ? 1 : 0);
    if (fields < 10)
      fail(name, line_no,
           fmt::format("{} record with {} fields, expected 10 or 11 ({}): a column (the charge or the radius?) is "
                       "missing",
                       record, fields, LAYOUT));
    if (fields > 11)
      fail(name, line_no, fmt::format("{} record with more than 11 fields, expected 10 or 11 ({})", record, LAYOUT));
    const std::string_view resnum = f[n - 6];
    if (!residue_number(resnum))
      fail(name, line_no,
           fmt::format("residue number '{}' (field {} of {}) is not an integer: a column is missing or extra ({})",
                       resnum, fields - 5, fields, LAYOUT));
    Atom a;
    a.x = number(f[n - 5], "x coordinate", name, line_no);
    a.y = number(f[n - 4], "y coordinate", name, line_no);
    a.z = number(f[n - 3], "z coordinate", name, line_no);
    a.q = number(f[n - 2], "charge", name, line_no);
    const float radius = number(f[n - 1], "radius", name, line_no);
    if (radius < 0) fail(name, line_no, fmt::format("radius {} is negative", f[n - 1]));
    atoms.push_back(a);
  }
  if (atoms.empty()) throw Error(fmt::format("{}: no ATOM or HETATM records ({} lines read)", name, line_no));
  return atoms;
}

std::vector<Atom> read_pqr(const std::string& path) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw Error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::string text;
  char buffer[1 << 16];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) text.append(buffer, got);
  if (std::ferror(file.get())) throw Error(fmt::format("{}: read error: {}", path, std::strerror(errno)));
  return parse_pqr(text, path);
}

Lattice lattice_around(std::span<const Atom> atoms, float spacing, float padding) {
  if (!(std::isfinite(spacing) && spacing > 0))
    throw Error(fmt::format("--spacing {}: must be a positive number", spacing));
  if (!(std::isfinite(padding) && padding >= 0))
    throw Error(fmt::format("--padding {}: must be a number >= 0", padding));
  if (atoms.empty()) throw Error("no atoms: the lattice around them is undefined");
  float lo[3] = {atoms[0].x, atoms[0].y, atoms[0].z}, hi[3] = {lo[0], lo[1], lo[2]};
  for (const Atom& a : atoms) {
    const float c[3] = {a.x, a.y, a.z};
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::fmin(lo[d], c[d]);
      hi[d] = std::fmax(hi[d], c[d]);
    }
  }
  Lattice L;
  L.spacing = spacing;
  std::size_t n[3];
  for (int d = 0; d < 3; ++d) {
    L.origin[d] = lo[d] - padding;
    const double extent = (double(hi[d]) - double(lo[d]) + 2.0 * padding) / spacing;
    if (!(extent < double(1 << 24)))
      throw Error(fmt::format("the lattice would have {:.0f} points along axis {} (spacing {}, padding {})",
                              extent + 1, "xyz"[d], spacing, padding));
    n[d] = std::size_t(std::floor(extent)) + 1;
  }
  L.nx = n[0];
  L.ny = n[1];
  L.nz = n[2];
  if (double(L.nx) * double(L.ny) * double(L.nz) > double(std::size_t(1) << 31))
    throw Error(fmt::format("the lattice would be {} x {} x {} points, past 2^31 (raise --spacing)", L.nx, L.ny,
                            L.nz));
  return L;
}

}  // namespace tessera::potential
