// Names and properties of the composition specs (shared by every backend).
#include <cstdint>

#include "families/compose/contract.hpp"

namespace tessera {

std::string_view to_string(MapFn fn) noexcept {
  switch (fn) {
    case MapFn::twice: return "twice";
    case MapFn::square: return "square";
  }
  return "?";
}

std::string_view to_string(Pred p) noexcept {
  switch (p) {
    case Pred::greater: return "greater";
    case Pred::nonzero: return "nonzero";
    case Pred::even: return "even";
  }
  return "?";
}

}  // namespace tessera

namespace tessera::compose_impl {

std::string_view to_string(Family f) noexcept {
  switch (f) {
    case Family::map: return "map";
    case Family::adjacent_difference: return "adjacent_difference";
    case Family::compact: return "compact";
    case Family::partition: return "partition";
    case Family::unique: return "unique";
    case Family::find_unique: return "find_unique";
    case Family::rle: return "rle";
  }
  return "?";
}

bool parse_family(std::string_view name, Family& out) noexcept {
  for (Family f : ALL_FAMILIES)
    if (to_string(f) == name) {
      out = f;
      return true;
    }
  return false;
}

std::size_t output_capacity(const Spec& s) noexcept {
  if (s.family == Family::find_unique && s.dtype == Dtype::u8) return s.n < 256 ? s.n : 256;
  return s.n;
}

namespace {
bool is_integer(Dtype t) { return t == Dtype::i32 || t == Dtype::u32 || t == Dtype::i64 || t == Dtype::u8; }
bool is_key_type(Dtype t) { return t == Dtype::f32 || t == Dtype::i32 || t == Dtype::u32 || t == Dtype::i64; }
}  // namespace

bool family_supports(const Spec& s) noexcept {
  switch (s.family) {
    case Family::map:
    case Family::adjacent_difference:
      return is_key_type(s.dtype) || s.dtype == Dtype::f64;
    case Family::compact:
      if (!is_key_type(s.dtype)) return false;
      return s.flagged || s.pred != Pred::even || is_integer(s.dtype);
    case Family::partition:
      return is_key_type(s.dtype) && !s.flagged && (s.pred != Pred::even || is_integer(s.dtype));
    case Family::unique:
    case Family::rle:
      return is_key_type(s.dtype);
    case Family::find_unique:
      return s.dtype == Dtype::u8 || s.dtype == Dtype::i32 || s.dtype == Dtype::u32;
  }
  return false;
}

}  // namespace tessera::compose_impl
