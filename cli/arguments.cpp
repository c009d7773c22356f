#include "arguments.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace tessera::cli {

namespace {

CLI::Validator integer_at_least(unsigned long long least, const char* what) {
  return CLI::Validator(
      [least, what](std::string& text) -> std::string {
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        errno = 0;
        const unsigned long long v = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
        if (!digits || errno == ERANGE || v < least) return fmt::format("must be {}, got '{}'", what, text);
        return {};
      },
      "", "");
}

}  // namespace

CLI::Validator positive_integer() { return integer_at_least(1, "a positive integer"); }
CLI::Validator non_negative_integer() { return integer_at_least(0, "a non-negative integer"); }

std::optional<Accum> parse_accum_option(std::string_view s) {
  if (s == "float") return Accum::native;
  return parse_accum(s);
}

}  // namespace tessera::cli
