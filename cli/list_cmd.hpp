// `tessera list [PATTERN[/VARIANT]] [--long]`: the registry of variants, one
// row each, cut to the terminal; one variant in full.
#pragma once

#include <string>

namespace tessera::cli {

int list_cmd(const std::string& selector, bool long_rows);

// The terminal's width: $COLUMNS, else the tty's (TIOCGWINSZ), else 100
// (a pipe or a file).
int terminal_columns();

// `text` cut to `columns` display columns (UTF-8 aware), ending in "…" when cut.
std::string cut_to_columns(const std::string& text, int columns);

}  // namespace tessera::cli
