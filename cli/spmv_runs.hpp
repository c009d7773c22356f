// The measurements behind `tessera spmv` (spmv_cmd.cpp prints them): each
// ladder variant prepared once (its format conversion, timed on its own),
// run once into a poisoned y and checked, then timed; the public API's own
// call for --out; and, without a GPU, each format's footprint from the host
// conversions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/apps/matrix_market.hpp"

namespace tessera::cli::spmv_runs {

// The format a ladder variant runs on: csr, coo, ell, hyb, jds or sell (the
// sliced ELLs: jds_ell_sections, sell_c_sigma).
std::string_view format_of(std::string_view variant);

struct Row {
  std::string variant;
  std::string format;
  bool ran = false;
  std::string why_not;              // when !ran: the preparation's refusal (ell past its footprint cap)
  std::size_t footprint_bytes = 0;  // the format beyond x and y (CSR: its own arrays)
  std::string note;                 // the plan's note ("ell width 5 ...")
  double convert_ms = -1;           // prepare(): conversion + upload; -1: nothing to prepare
  double spmv_ms = 0;               // median of the timed repetitions
  int reps = 0;
  bool graph = false;               // timed as CUDA graph replays of several runs (runs under 0.05 ms)
  bool ok = false;
  double max_rel_err = 0;           // max |y - ref| / sum |a||x| over the rows
  std::string detail;               // on a failed check: which rows, first one
};

// Every variant in `names` on A (host CSR) and x. gpu: the CUDA variants get
// device copies; cpu_ variants always run on the host arrays.
template <class T>
std::vector<Row> run_variants(const mm::Csr<T>& a, const std::vector<T>& x, const std::vector<std::string>& names,
                              bool gpu, int repeat);

// y from tessera::spmv with default options (the API's own pick), checked
// like the rows: ok is false when it is wrong.
template <class T>
std::vector<T> run_api(const mm::Csr<T>& a, const std::vector<T>& x, bool gpu, Row& row);

// A format's footprint and host conversion time (formats.hpp), for machines
// that cannot run the GPU formats.
struct Footprint {
  std::string format;
  std::size_t bytes = 0;
  double convert_ms = 0;
  std::string note;  // or why the format is refused
  bool refused = false;
};
template <class T>
std::vector<Footprint> host_footprints(const mm::Csr<T>& a, const std::vector<std::string>& formats);

}  // namespace tessera::cli::spmv_runs
