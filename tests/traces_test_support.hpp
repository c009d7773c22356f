// Helpers for the tessera::traces tests: a scratch directory, SEG-Y files
// written through segyio itself (random header bytes wherever SEG-Y leaves
// them free), raw-byte file access, an independent decoder of the samples and
// an independent long-double reference of the scans with its tolerance.
//
// Tolerance on an output sample y[i] (|.| scans: the same scan over |x|):
//
//   |got - exact| <= eps_out * |exact| + (eps_acc * (16 + 4 sqrt(terms)) + eps_mid) * A[i]
//
//   A[i]     the same scan applied to |x| (forward_backward: over the forward
//            scan of |x|), the scale the rounding errors are relative to;
//   eps_out  the output's rounding: float 2^-24; IBM output 2^-24 + 2^-21
//            (the float result, then IBM's half ulp with 21 significant bits
//            when the leading hex digit is 1);
//   eps_acc  the accumulator: native float 2^-24; double, Kahan, double-float
//            2^-44 (as the reduce tests); terms = samples (x2 for
//            forward_backward), the sqrt covering random-walk growth;
//   eps_mid  forward_backward only: 2^-24, the forward result possibly
//            rounded to float before the backward pass (seed 002 does).
// Written as !(err <= tol) so that NaN fails.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "tessera/apps/traces.hpp"
#include "tessera/batched_scan.hpp"

#if TESSERA_HAVE_SEGYIO
#include <segyio/segy.h>
#endif

namespace traces_test {

namespace fs = std::filesystem;
using tessera::Accum;
using tessera::ScanDirection;

// A fresh directory per test, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    std::string tmpl = (fs::temp_directory_path() / "tessera-traces-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  const fs::path& dir() const { return dir_; }
  // The names of the files in the directory, sorted (temporaries included).
  std::vector<std::string> files() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }

 private:
  fs::path dir_;
};

inline std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<unsigned char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// ---- independent sample decoding -------------------------------------------

inline std::uint32_t load_u32(const unsigned char* p, bool little_endian) {
  return little_endian ? (std::uint32_t{p[3]} << 24 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[1]} << 8 | p[0])
                       : (std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3]);
}

// The exact value of an IBM word, in double (always exact: 24-bit fraction,
// exponents from 2^-280 to 2^228).
inline double ibm_exact(std::uint32_t w) {
  const double v = std::ldexp(static_cast<double>(w & 0xFFFFFF), 4 * (static_cast<int>((w >> 24) & 0x7F) - 64) - 24);
  return (w & 0x80000000u) ? -v : v;
}

inline double decode_sample(const unsigned char* p, int format, bool little_endian) {
  const std::uint32_t w = load_u32(p, little_endian);
  if (format == 1) return ibm_exact(w);
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

// ---- reference scans --------------------------------------------------------

inline std::vector<long double> scan_ld(const std::vector<long double>& x, bool forward, bool exclusive) {
  const std::size_t n = x.size();
  std::vector<long double> y(n);
  long double s = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = forward ? k : n - 1 - k;
    if (exclusive) {
      y[i] = s;
      s += x[i];
    } else {
      s += x[i];
      y[i] = s;
    }
  }
  return y;
}

inline std::vector<long double> reference_scan(const std::vector<long double>& x, ScanDirection d, bool exclusive) {
  switch (d) {
    case ScanDirection::forward: return scan_ld(x, true, exclusive);
    case ScanDirection::backward: return scan_ld(x, false, exclusive);
    case ScanDirection::forward_backward: return scan_ld(scan_ld(x, true, exclusive), false, exclusive);
  }
  return {};
}

struct ScanCase {
  ScanDirection direction = ScanDirection::forward_backward;
  Accum accum = Accum::f64;
  bool exclusive = false;
};

// Checks one row of output against the reference; returns the failure text.
inline ::testing::AssertionResult check_row(const std::vector<double>& got, const std::vector<double>& input,
                                            const ScanCase& c, bool ibm_output, std::size_t trace) {
  std::vector<long double> x(input.begin(), input.end()), ax(input.size());
  for (std::size_t i = 0; i < x.size(); ++i) ax[i] = std::fabs(x[i]);
  const auto exact = reference_scan(x, c.direction, c.exclusive);
  const auto scale = reference_scan(ax, c.direction, c.exclusive);
  const bool fb = c.direction == ScanDirection::forward_backward;
  const long double eps_out = ibm_output ? 0x1p-24L + 0x1p-21L : 0x1p-24L;
  const long double eps_acc = c.accum == Accum::native ? 0x1p-24L : 0x1p-44L;
  const long double terms = static_cast<long double>(x.size()) * (fb ? 2 : 1);
  const long double k = eps_acc * (16 + 4 * std::sqrt(terms)) + (fb ? 0x1p-24L : 0.0L);
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double err = std::fabs(static_cast<long double>(got[i]) - exact[i]);
    const long double tol = eps_out * std::fabs(exact[i]) + k * scale[i];
    if (!(err <= tol))
      return ::testing::AssertionFailure()
             << "trace " << trace << " sample " << i << ": got " << got[i] << ", expected "
             << static_cast<double>(exact[i]) << " (|error| " << static_cast<double>(err) << " > tolerance "
             << static_cast<double>(tol) << ")";
  }
  return ::testing::AssertionSuccess();
}

// ---- SEG-Y files written through segyio -------------------------------------

struct SegySpec {
  int format = 1;                 // 1 IBM, 5 IEEE (others for the error tests)
  bool little_endian = false;
  bool byte_order_constant = false;  // rev-2 constant at 3297-3300
  int rev_major = 1, rev_minor = 0;
  std::size_t traces = 0, samples = 0;
  int ext_headers = 0;            // count written at 3505-3506 (-1: variable)
  int ext_records = 0;            // records actually written (variable: the last holds EndText)
  bool ext_samples_field = false; // rev 2: samples in 3269-3272, 0 in 3221-3222
  std::uint64_t rev2_traces = 0;  // bytes 3513-3520
  std::uint64_t seed = 1;
};

// A SEG-Y file's expected content, for the checks.
struct SegyFile {
  SegySpec spec;
  std::uint64_t trace0 = 0;
  std::vector<std::vector<double>> input;  // decoded samples per trace
};

#if TESSERA_HAVE_SEGYIO
inline void segy_ok(int code, const char* what) {
  if (code != SEGY_OK) throw std::runtime_error(std::string("segyio failed: ") + what + " code " + std::to_string(code));
}

// Random samples with structure (DC offset, decaying amplitude, noise), each
// exactly representable in the format: IBM words are generated directly
// (normalised, fraction nonzero), IEEE floats as floats.
inline SegyFile write_segy(const std::string& path, const SegySpec& s) {
  std::mt19937_64 rng(s.seed);
  auto byte = [&] { return static_cast<char>(rng() & 0xFF); };
  SegyFile out;
  out.spec = s;

  segy_file* fp = segy_open(path.c_str(), "w+b");
  if (fp == nullptr) throw std::runtime_error("segy_open failed: " + path);
  const int fmt_flag = s.little_endian ? SEGY_LSB : SEGY_MSB;
  segy_ok(segy_set_format(fp, s.format | fmt_flag), "set_format");

  // Textual header: any bytes (segyio translates, bijectively).
  std::string text(3201, '\0');
  for (std::size_t i = 0; i < 3200; ++i) text[i] = byte();
  segy_ok(segy_write_textheader(fp, 0, text.data()), "textual header");

  // Binary header, in the form segyio 1.8 takes: random bytes, then the
  // fields a reader interprets. For little-endian files segyio swaps only the
  // fields it knows (bytes 3201-3260 and the 16-bit fields 3501-3506); the
  // rev-2 fields between are written here in the file's order already, and
  // the revision bytes pre-swapped so that the major lands at 3501.
  std::vector<char> bin(400);
  for (char& c : bin) c = byte();
  auto put = [&](std::size_t file_byte, std::uint64_t v, int n) {
    const bool segyio_swaps = file_byte < 3261 || (file_byte >= 3501 && file_byte < 3507);
    const bool le = s.little_endian && !segyio_swaps;
    for (int i = 0; i < n; ++i)
      bin[file_byte - 3201 + i] = static_cast<char>((v >> (8 * (le ? i : n - 1 - i))) & 0xFF);
  };
  put(3221, s.ext_samples_field ? 0 : s.samples, 2);
  put(3225, static_cast<std::uint64_t>(s.format), 2);
  put(3297, s.byte_order_constant ? 0x01020304u : 0u, 4);
  put(3501, s.little_endian ? (s.rev_minor << 8 | s.rev_major) : (s.rev_major << 8 | s.rev_minor), 2);
  put(3505, static_cast<std::uint16_t>(static_cast<std::int16_t>(s.ext_headers)), 2);
  if (s.rev_major == 2) {
    put(3269, s.ext_samples_field ? s.samples : 0, 4);
    put(3507, 0, 4);  // no additional trace headers
    put(3513, s.rev2_traces, 8);
    put(3521, 0, 8);  // first-trace offset: implied
    put(3529, 0, 4);  // no trailers
  }
  segy_ok(segy_write_binheader(fp, bin.data()), "binary header");
  for (int e = 0; e < s.ext_records; ++e) {
    std::string ext(3201, '\0');
    for (std::size_t i = 0; i < 3200; ++i) ext[i] = byte();
    if (s.ext_headers == -1 && e == s.ext_records - 1) {
      // segyio writes ASCII text as EBCDIC: the stanza marker lands in EBCDIC.
      const std::string marker = "((SEG: EndText))";
      std::memcpy(ext.data(), marker.data(), marker.size());
    } else {
      // Keep random text from containing the marker by accident: no '('.
      for (std::size_t i = 0; i < 3200; ++i)
        if (ext[i] == '(') ext[i] = ' ';
    }
    segy_ok(segy_write_textheader(fp, e + 1, ext.data()), "extended textual header");
  }

  out.trace0 = 3600 + 3200ull * static_cast<std::uint64_t>(s.ext_records);
  const int tsize = segy_trsize(s.format, static_cast<int>(s.samples));
  std::uniform_real_distribution<double> noise(-1.0, 1.0);
  std::vector<char> hdr(240);
  std::vector<std::uint32_t> words(s.samples);
  for (std::size_t t = 0; t < s.traces; ++t) {
    for (char& c : hdr) c = byte();
    segy_ok(segy_set_field(hdr.data(), SEGY_TR_SAMPLE_COUNT, (rng() & 1) ? static_cast<int>(s.samples & 0xFFFF) : 0),
            "sample count");
    segy_ok(segy_write_traceheader(fp, static_cast<int>(t), hdr.data(), static_cast<long>(out.trace0), tsize),
            "trace header");
    std::vector<double> decoded(s.samples);
    const double dc = noise(rng) * 100;
    for (std::size_t i = 0; i < s.samples; ++i) {
      const double v = dc + 1000.0 * noise(rng) * std::exp(-3.0 * static_cast<double>(i) / static_cast<double>(s.samples));
      std::uint32_t w;
      if (s.format == 1) {
        // A normalised IBM word near v: exponent from v, random 24-bit
        // fraction with a nonzero leading hex digit.
        const int q = v == 0 ? 0 : static_cast<int>(std::ceil(std::log2(std::fabs(v) + 1e-30) / 4));
        const std::uint32_t frac = static_cast<std::uint32_t>(1 + rng() % 15) << 20 |
                                   static_cast<std::uint32_t>(rng() & 0xFFFFF);
        w = (v < 0 ? 0x80000000u : 0u) | (static_cast<std::uint32_t>(q + 64) << 24) | frac;
        decoded[i] = ibm_exact(w);
      } else if (s.format == 5) {
        const float f = static_cast<float>(v);
        std::memcpy(&w, &f, 4);
        decoded[i] = f;
      } else {
        w = static_cast<std::uint32_t>(rng());
      }
      words[i] = w;
    }
    // segyio takes samples in MSB order (and swaps them for LSB files).
    std::vector<unsigned char> be(s.samples * 4);
    for (std::size_t i = 0; i < s.samples; ++i)
      for (int b = 0; b < 4; ++b) be[4 * i + b] = static_cast<unsigned char>(words[i] >> (24 - 8 * b));
    const std::size_t bytes_per_sample = static_cast<std::size_t>(tsize) / s.samples;
    if (bytes_per_sample != 4) be.resize(static_cast<std::size_t>(tsize));
    segy_ok(segy_writetrace(fp, static_cast<int>(t), be.data(), static_cast<long>(out.trace0), tsize), "trace");
    out.input.push_back(std::move(decoded));
  }
  segy_ok(segy_close(fp), "close");
  return out;
}
#endif

// Checks OUT against IN: every non-sample byte identical, same size, and the
// samples equal to the reference scan of IN's samples within tolerance.
inline void expect_scanned_copy(const SegyFile& f, const std::string& in_path, const std::vector<unsigned char>& in,
                                const std::string& out_path, const ScanCase& c) {
  const auto out = read_bytes(out_path);
  ASSERT_EQ(out.size(), in.size()) << out_path;
  const std::size_t trace0 = f.trace0, tbytes = 240 + 4 * f.spec.samples;
  EXPECT_TRUE(std::equal(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(trace0), out.begin()))
      << "textual/binary/extended headers differ (" << in_path << ")";
  for (std::size_t t = 0; t < f.spec.traces; ++t) {
    const std::size_t at = trace0 + t * tbytes;
    ASSERT_TRUE(std::equal(in.begin() + at, in.begin() + at + 240, out.begin() + at))
        << "trace header " << t << " differs";
    std::vector<double> got(f.spec.samples);
    for (std::size_t i = 0; i < f.spec.samples; ++i)
      got[i] = decode_sample(&out[at + 240 + 4 * i], f.spec.format, f.spec.little_endian);
    ASSERT_TRUE(check_row(got, f.input[t], c, f.spec.format == 1, t));
  }
}

}  // namespace traces_test
