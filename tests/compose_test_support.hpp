// Helpers shared by the composition tests: an independent reference written
// with the standard library (std::copy_if, std::partition_copy,
// std::unique_copy, std::sort), input generators, and the runner of one
// variant on host buffers with poisoned outputs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "harness/generate.hpp"
#include "families/compose/problem_inputs.hpp"
#include "families/compose/contract.hpp"
#include "tessera/compact.hpp"
#include "tessera/map.hpp"
#include "test_support.hpp"

namespace compose_test {

using tessera::Dtype;
using tessera::MapFn;
using tessera::Pred;
using tessera::compose_impl::Family;
using tessera::compose_impl::Spec;

// What a composition call produced (or should produce).
template <class T>
struct Result {
  std::vector<T> out;               // map, adjacent_difference: the n outputs (absdiff bits for adjdiff)
  std::vector<std::int64_t> lengths;
  std::int64_t count = 0;
};

// ---- the independent reference ------------------------------------------------

template <class T>
bool keep(const Spec& s, const T& x, std::uint8_t flag) {
  if (s.flagged) return flag != 0;
  switch (s.pred) {
    case Pred::greater: return x > s.threshold<T>();
    case Pred::nonzero: return x != T(0);
    case Pred::even:
      if constexpr (std::is_integral_v<T>) return x % 2 == 0;
      else return false;
  }
  return false;
}

template <class T>
T twice_or_square(MapFn fn, T x) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const U u = static_cast<U>(x);
    return static_cast<T>(fn == MapFn::twice ? static_cast<U>(u * 2u) : static_cast<U>(u * u));
  } else {
    return fn == MapFn::twice ? x * T(2) : x * x;
  }
}

// |a - b| as the bits of absdiff_t<T> stored in a T.
template <class T>
T absdiff_bits(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(a - b);
  } else {
    using U = std::make_unsigned_t<T>;
    const U d = a > b ? static_cast<U>(static_cast<U>(a) - static_cast<U>(b))
                      : static_cast<U>(static_cast<U>(b) - static_cast<U>(a));
    T t;
    std::memcpy(&t, &d, sizeof t);
    return t;
  }
}

template <class T>
Result<T> reference(const Spec& s, const std::vector<T>& x, const std::vector<std::uint8_t>& flags) {
  Result<T> r;
  const std::size_t n = x.size();
  switch (s.family) {
    case Family::map:
      for (const T& v : x) r.out.push_back(twice_or_square(s.fn, v));
      break;
    case Family::adjacent_difference:
      for (std::size_t i = 0; i < n; ++i) r.out.push_back(absdiff_bits(x[i], i == 0 ? T(0) : x[i - 1]));
      break;
    case Family::compact:
    case Family::partition: {
      std::vector<T> rejected;
      for (std::size_t i = 0; i < n; ++i) {
        if (keep(s, x[i], flags.empty() ? 0 : flags[i])) r.out.push_back(x[i]);
        else rejected.push_back(x[i]);
      }
      r.count = static_cast<std::int64_t>(r.out.size());
      if (s.family == Family::partition) r.out.insert(r.out.end(), rejected.rbegin(), rejected.rend());
      break;
    }
    case Family::unique:
      std::unique_copy(x.begin(), x.end(), std::back_inserter(r.out));
      r.count = static_cast<std::int64_t>(r.out.size());
      break;
    case Family::find_unique: {
      std::vector<T> sorted = x;
      std::sort(sorted.begin(), sorted.end());
      std::unique_copy(sorted.begin(), sorted.end(), std::back_inserter(r.out));
      r.count = static_cast<std::int64_t>(r.out.size());
      break;
    }
    case Family::rle:
      for (std::size_t i = 0; i < n;) {
        std::size_t j = i + 1;
        while (j < n && x[j] == x[i]) ++j;
        r.out.push_back(x[i]);
        r.lengths.push_back(static_cast<std::int64_t>(j - i));
        i = j;
      }
      r.count = static_cast<std::int64_t>(r.out.size());
      break;
  }
  return r;
}

// Bitwise equality, NaN equal to NaN.
template <class T>
bool same(const T& a, const T& b) {
  if (std::memcmp(&a, &b, sizeof(T)) == 0) return true;
  if constexpr (std::is_floating_point_v<T>) return std::isnan(a) && std::isnan(b);
  return false;
}

// Compares a variant's outputs (out with `capacity` elements, poisoned with
// `poison` bytes) with the reference: the count, every written element, and
// that nothing past the written extent changed.
template <class T>
void expect_matches(const Spec& s, const Result<T>& want, const std::vector<T>& out,
                    const std::vector<std::int64_t>& lengths, std::int64_t count, unsigned char poison) {
  const bool counted = tessera::compose_impl::has_count(s.family);
  if (counted) {
    ASSERT_EQ(count, want.count) << "count";
  }
  const std::size_t written = want.out.size();
  ASSERT_LE(written, out.size());
  for (std::size_t i = 0; i < written; ++i)
    if (!same(out[i], want.out[i])) {
      ADD_FAILURE() << "out[" << i << "] = " << +out[i] << ", expected " << +want.out[i] << " (" << written
                    << " written)";
      return;
    }
  for (std::size_t i = written; i < out.size(); ++i) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &out[i], sizeof(T));
    for (unsigned char b : bytes)
      if (b != poison) {
        ADD_FAILURE() << "out[" << i << "] written past the result (" << written << " elements)";
        return;
      }
  }
  if (tessera::compose_impl::has_lengths(s.family)) {
    for (std::size_t i = 0; i < want.lengths.size(); ++i)
      if (lengths[i] != want.lengths[i]) {
        ADD_FAILURE() << "lengths[" << i << "] = " << lengths[i] << ", expected " << want.lengths[i];
        return;
      }
    std::int64_t p;
    std::memset(&p, poison, sizeof p);
    for (std::size_t i = want.lengths.size(); i < lengths.size(); ++i)
      if (lengths[i] != p) {
        ADD_FAILURE() << "lengths[" << i << "] written past the number of runs";
        return;
      }
  }
}

// ---- inputs -------------------------------------------------------------------

// A test input: keys (and flags for flagged compaction), its spec completed
// (threshold for Pred::greater at about `fraction` selected).
template <class T>
struct Input {
  Spec spec;
  std::vector<T> x;
  std::vector<std::uint8_t> flags;
};

enum class Shape { uniform, runs, long_runs, constant, small, text };

template <class T>
Input<T> make_input(Spec s, std::size_t n, std::uint64_t seed, Shape shape, double fraction = 0.5) {
  using tessera::harness::Distribution;
  Input<T> in;
  s.n = n;
  in.x.resize(n);
  switch (shape) {
    case Shape::uniform: tessera::harness::fill_random(in.x.data(), n, seed, Distribution::uniform); break;
    case Shape::small: tessera::harness::fill_random(in.x.data(), n, seed, Distribution::small); break;
    case Shape::constant: tessera::harness::fill_random(in.x.data(), n, seed, Distribution::constant); break;
    case Shape::text: tessera::harness::fill_random(in.x.data(), n, seed, Distribution::text); break;
    case Shape::runs: tessera::harness::fill_runs(in.x.data(), tessera::dtype_of<T>(), n, seed, fraction); break;
    case Shape::long_runs: tessera::harness::fill_runs(in.x.data(), tessera::dtype_of<T>(), n, seed, 1e-4); break;
  }
  if (s.family == Family::compact || s.family == Family::partition) {
    if (s.flagged) {
      in.flags.resize(n);
      tessera::harness::fill_flags(in.flags.data(), n, seed, fraction);
    } else if (s.pred == Pred::greater) {
      s.threshold_bits = tessera::harness::threshold_for_fraction(in.x.data(), tessera::dtype_of<T>(), n, fraction);
    } else if (s.pred == Pred::nonzero) {
      tessera::harness::zero_fraction(in.x.data(), tessera::dtype_of<T>(), n, seed, fraction);
    }
  }
  in.spec = s;
  return in;
}

inline Spec spec_of(Family f, Dtype t) {
  Spec s;
  s.family = f;
  s.dtype = t;
  return s;
}

// Every (family, type, predicate) combination the tests sweep.
inline std::vector<Spec> all_specs() {
  std::vector<Spec> out;
  for (Dtype t : {Dtype::f32, Dtype::f64, Dtype::i32, Dtype::u32, Dtype::i64}) {
    for (MapFn fn : {MapFn::twice, MapFn::square}) {
      Spec s = spec_of(Family::map, t);
      s.fn = fn;
      out.push_back(s);
    }
    out.push_back(spec_of(Family::adjacent_difference, t));
  }
  for (Dtype t : {Dtype::f32, Dtype::i32, Dtype::u32, Dtype::i64}) {
    for (Family f : {Family::compact, Family::partition})
      for (Pred p : {Pred::greater, Pred::nonzero, Pred::even}) {
        if (p == Pred::even && t == Dtype::f32) continue;
        Spec s = spec_of(f, t);
        s.pred = p;
        out.push_back(s);
      }
    Spec flagged = spec_of(Family::compact, t);
    flagged.flagged = true;
    out.push_back(flagged);
    out.push_back(spec_of(Family::unique, t));
    out.push_back(spec_of(Family::rle, t));
  }
  for (Dtype t : {Dtype::u8, Dtype::i32, Dtype::u32}) out.push_back(spec_of(Family::find_unique, t));
  return out;
}

// The input shapes worth testing for a family.
inline std::vector<Shape> shapes_for(const Spec& s) {
  switch (s.family) {
    case Family::unique:
    case Family::rle: return {Shape::runs, Shape::long_runs, Shape::constant, Shape::uniform};
    case Family::find_unique:
      return s.dtype == Dtype::u8 ? std::vector<Shape>{Shape::text, Shape::uniform, Shape::constant}
                                  : std::vector<Shape>{Shape::small, Shape::uniform, Shape::constant};
    default: return {Shape::uniform, Shape::small};
  }
}

// Appends one view at a time (GCC 12 warns falsely under -Wrestrict about
// "_" + std::string(...) temporaries inlined here).
inline std::string spec_name(const Spec& s) {
  std::string name(tessera::compose_impl::to_string(s.family));
  const auto add = [&](std::string_view part) {
    name += '_';
    name += part;
  };
  add(tessera::to_string(s.dtype));
  if (s.family == Family::map) add(tessera::to_string(s.fn));
  if (s.family == Family::compact || s.family == Family::partition)
    add(s.flagged ? std::string_view("flagged") : tessera::to_string(s.pred));
  return name;
}

// f.template operator()<T>() for the spec's type.
template <class F>
void with_type(Dtype t, F&& f) {
  switch (t) {
    case Dtype::f32: f.template operator()<float>(); return;
    case Dtype::f64: f.template operator()<double>(); return;
    case Dtype::i32: f.template operator()<std::int32_t>(); return;
    case Dtype::u32: f.template operator()<std::uint32_t>(); return;
    case Dtype::i64: f.template operator()<std::int64_t>(); return;
    case Dtype::u8: f.template operator()<std::uint8_t>(); return;
  }
}

using tessera_test::seed_for;

}  // namespace compose_test
