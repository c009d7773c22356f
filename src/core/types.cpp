#include "tessera/core/types.hpp"

#include <array>
#include <utility>

namespace tessera {

namespace {
constexpr std::array<std::pair<Dtype, std::string_view>, 6> kDtypes{{{Dtype::f32, "float"},
                                                                     {Dtype::f64, "double"},
                                                                     {Dtype::i32, "int32"},
                                                                     {Dtype::i64, "int64"},
                                                                     {Dtype::u8, "uint8"},
                                                                     {Dtype::u32, "uint32"}}};
constexpr std::array<std::pair<Op, std::string_view>, 3> kOps{
    {{Op::sum, "sum"}, {Op::min, "min"}, {Op::max, "max"}}};
constexpr std::array<std::pair<Accum, std::string_view>, 4> kAccums{
    {{Accum::native, "native"}, {Accum::f64, "double"}, {Accum::kahan, "kahan"}, {Accum::dfloat, "dfloat"}}};

template <class E, std::size_t N>
std::string_view name_of(const std::array<std::pair<E, std::string_view>, N>& table, E v) noexcept {
  for (const auto& [e, s] : table)
    if (e == v) return s;
  return "?";
}
template <class E, std::size_t N>
std::optional<E> parse(const std::array<std::pair<E, std::string_view>, N>& table, std::string_view s) noexcept {
  for (const auto& [e, name] : table)
    if (name == s) return e;
  return std::nullopt;
}
}  // namespace

std::string_view to_string(Dtype t) noexcept { return name_of(kDtypes, t); }
std::string_view to_string(Op op) noexcept { return name_of(kOps, op); }
std::string_view to_string(Accum a) noexcept { return name_of(kAccums, a); }
std::string_view to_string(Backend b) noexcept { return b == Backend::cpu ? "cpu" : "cuda"; }
std::string_view to_string(Kind k) noexcept {
  switch (k) {
    case Kind::reference: return "reference";
    case Kind::seed: return "seed";
    case Kind::tessera: return "tessera";
    case Kind::vendor: return "vendor";
  }
  return "?";
}

std::string_view to_string(Role r) noexcept {
  switch (r) {
    case Role::reference: return "reference";
    case Role::taught: return "taught";
    case Role::product: return "product";
    case Role::vendor: return "vendor";
    case Role::tuning: return "tuning";
  }
  return "?";
}

std::optional<Dtype> parse_dtype(std::string_view s) noexcept {
  if (s == "f32" || s == "float32") return Dtype::f32;
  if (s == "f64" || s == "float64") return Dtype::f64;
  if (s == "i32" || s == "int") return Dtype::i32;
  if (s == "i64") return Dtype::i64;
  if (s == "u8" || s == "byte") return Dtype::u8;
  if (s == "u32") return Dtype::u32;
  return parse(kDtypes, s);
}
std::optional<Op> parse_op(std::string_view s) noexcept { return parse(kOps, s); }
std::optional<Accum> parse_accum(std::string_view s) noexcept {
  if (s == "f64" || s == "float64") return Accum::f64;
  if (s == "float2") return Accum::dfloat;
  return parse(kAccums, s);
}

std::size_t size_of(Dtype t) noexcept {
  switch (t) {
    case Dtype::u8: return 1;
    case Dtype::f32:
    case Dtype::i32:
    case Dtype::u32: return 4;
    case Dtype::f64:
    case Dtype::i64: return 8;
  }
  return 0;
}

}  // namespace tessera
