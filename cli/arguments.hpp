// Argument checks shared by the commands: plain messages for the mistakes
// CLI11's own validators word badly (a 300-digit range for --size 0) or
// miss (an unsigned option silently wraps "-5" to 18446744073709551611).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string_view>

#include "tessera/core/types.hpp"

namespace tessera::cli {

// "--size: must be a positive integer, got '0'". Runs on the text before
// CLI11 converts it, so a sign or a fraction never reaches an unsigned field.
CLI::Validator positive_integer();
// The same for options where 0 is meaningful (--seed).
CLI::Validator non_negative_integer();

// parse_accum, plus "float": the help calls native "float" (the native
// accumulator of float data), so users type it.
std::optional<Accum> parse_accum_option(std::string_view s);

}  // namespace tessera::cli
