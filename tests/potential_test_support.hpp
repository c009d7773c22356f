// Shared by the `tessera potential` tests: a tiny OpenDX reader (the subset
// APBS writes: counts, origin, deltas, a rank-0 array, values z fastest),
// independent of the writer under test, and PQR text builders.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/atoms.hpp"

namespace potential_test {

struct Dx {
  std::size_t counts[3] = {0, 0, 0};
  double origin[3] = {0, 0, 0};
  double delta[3][3] = {};
  std::size_t items = 0;
  std::vector<double> values;  // x fastest, converted from the file's z-fastest order
  bool has_trailer = false;
};

// Reads the text; ADD_FAILUREs on anything it does not expect.
inline Dx read_dx(const std::string& text) {
  Dx dx;
  std::istringstream in(text);
  std::string line;
  int deltas = 0;
  std::vector<double> file_order;
  bool data = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string w;
    ls >> w;
    if (data && (std::isdigit(static_cast<unsigned char>(w[0])) || w[0] == '-' || w[0] == '+')) {
      std::istringstream vs(line);
      double v;
      int on_line = 0;
      while (vs >> v) {
        file_order.push_back(v);
        ++on_line;
      }
      EXPECT_LE(on_line, 3) << "more than 3 values on a line: " << line;
      continue;
    }
    data = false;
    if (w == "object" && line.find("gridpositions") != std::string::npos) {
      EXPECT_EQ(std::sscanf(line.c_str(), "object 1 class gridpositions counts %zu %zu %zu", &dx.counts[0],
                            &dx.counts[1], &dx.counts[2]),
                3)
          << line;
    } else if (w == "origin") {
      ls >> dx.origin[0] >> dx.origin[1] >> dx.origin[2];
    } else if (w == "delta") {
      EXPECT_LT(deltas, 3) << "more than 3 delta lines";
      if (deltas < 3) ls >> dx.delta[deltas][0] >> dx.delta[deltas][1] >> dx.delta[deltas][2];
      ++deltas;
    } else if (w == "object" && line.find("gridconnections") != std::string::npos) {
      std::size_t c[3];
      EXPECT_EQ(std::sscanf(line.c_str(), "object 2 class gridconnections counts %zu %zu %zu", &c[0], &c[1], &c[2]), 3);
      for (int d = 0; d < 3; ++d) EXPECT_EQ(c[d], dx.counts[d]);
    } else if (w == "object" && line.find("class array") != std::string::npos) {
      EXPECT_EQ(std::sscanf(line.c_str(), "object 3 class array type double rank 0 items %zu data follows", &dx.items), 1)
          << line;
      data = true;
    } else if (w == "component" && line.find("\"data\" value 3") != std::string::npos) {
      dx.has_trailer = true;
    }
  }
  EXPECT_EQ(deltas, 3);
  EXPECT_EQ(file_order.size(), dx.items);
  const std::size_t nx = dx.counts[0], ny = dx.counts[1], nz = dx.counts[2];
  EXPECT_EQ(dx.items, nx * ny * nz);
  if (file_order.size() != nx * ny * nz) return dx;
  dx.values.resize(file_order.size());
  std::size_t t = 0;  // z fastest, then y, then x
  for (std::size_t i = 0; i < nx; ++i)
    for (std::size_t j = 0; j < ny; ++j)
      for (std::size_t k = 0; k < nz; ++k) dx.values[i + nx * (j + ny * k)] = file_order[t++];
  return dx;
}

// One PQR ATOM line as PDB2PQR writes it (with or without the chain).
inline std::string pqr_line(int serial, const tessera::Atom& a, bool chain, const char* record = "ATOM") {
  char buf[160];
  if (chain)
    std::snprintf(buf, sizeof buf, "%-6s %5d  CA  ALA A %3d    %8.3f %8.3f %8.3f %7.4f %6.4f\n", record, serial,
                  serial, a.x, a.y, a.z, a.q, 1.85);
  else
    std::snprintf(buf, sizeof buf, "%-6s %5d  CA  ALA %3d    %8.3f %8.3f %8.3f %7.4f %6.4f\n", record, serial, serial,
                  a.x, a.y, a.z, a.q, 1.85);
  return buf;
}

}  // namespace potential_test
