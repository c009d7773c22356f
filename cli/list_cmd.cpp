#include "list_cmd.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "exit_codes.hpp"
#include "harness/registry.hpp"
#include "harness/runner.hpp"

namespace tessera::cli {

namespace {

using harness::Pattern;

constexpr int DEFAULT_COLUMNS = 100;

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::size_t display_columns(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return !continuation_byte(c); }));
}

// Word-wraps `text` to `columns`, each line after the first indented by `indent`.
std::string wrap(const std::string& text, std::size_t columns, std::size_t indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && display_columns(line) + 1 + display_columns(word) > columns) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + line;
}

void print_variant_in_full(const Pattern& p, const VariantInfo& v) {
  const int columns = std::max(terminal_columns(), 40);
  fmt::print("{}/{}\n", p.name(), v.name);
  fmt::print("  step     {}\n  backend  {}\n  role     {}\n", v.step, to_string(v.backend), to_string(v.role));
  fmt::print("  results  {}\n", v.deterministic ? "deterministic (bitwise-identical run after run)"
                                                   : "not deterministic (may differ in the last bits run to run)");
  fmt::print("  adds     {}\n", wrap(std::string(v.adds), static_cast<std::size_t>(columns - 11), 11));
}

}  // namespace

int terminal_columns() {
  if (const char* c = std::getenv("COLUMNS"); c && *c) {
    const int n = std::atoi(c);
    if (n > 0) return n;
  }
  winsize ws{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return DEFAULT_COLUMNS;
}

std::string cut_to_columns(const std::string& text, int columns) {
  if (columns <= 0) return {};
  if (display_columns(text) <= static_cast<std::size_t>(columns)) return text;
  // Keep columns - 1 characters (a character starts at a non-continuation
  // byte), then the ellipsis.
  std::size_t kept = 0, i = 0;
  for (; i < text.size(); ++i)
    if (!continuation_byte(text[i]) && kept++ == static_cast<std::size_t>(columns - 1)) break;
  return text.substr(0, i) + "…";
}

int list_cmd(const std::string& selector, bool long_rows) {
  harness::Selector sel;
  try {
    sel = harness::parse_selector(selector);
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
  const auto selected = harness::selected_patterns(sel);
  if (!sel.variant.empty()) {
    for (const auto& v : selected.front()->variants())
      if (v.name == sel.variant) print_variant_in_full(*selected.front(), v);
    return exit_ok;
  }
  std::size_t name_w = 7;
  for (const Pattern* p : selected)
    for (const auto& v : p->variants()) name_w = std::max(name_w, v.name.size());
  // Where `adds` starts: step (4) + 2, name + 1, backend (7) + 1, role (9) + 1, det (3) + 2.
  const int adds_at = static_cast<int>(6 + name_w + 1 + 8 + 10 + 5);
  const int adds_w = std::max(terminal_columns() - adds_at, 20);
  fmt::print("{:>4}  {:<{}} {:<7} {:<9} {:<3}  {}\n", "step", "variant", name_w, "backend", "role", "det", "adds");
  for (const Pattern* p : selected) {
    fmt::print("{}\n", p->name());
    for (const auto& v : p->variants())
      fmt::print("{:>4}  {:<{}} {:<7} {:<9} {:<3}  {}\n", v.step, v.name, name_w, to_string(v.backend),
                 to_string(v.role), v.deterministic ? "det" : "nd",
                 long_rows ? std::string(v.adds) : cut_to_columns(std::string(v.adds), adds_w));
  }
  fmt::print("(det: same bits run after run; nd: not. Full adds: --long or list PATTERN/VARIANT)\n");
  return exit_ok;
}

}  // namespace tessera::cli
