// Element types, operators, accumulators and variant metadata shared by every
// pattern. Plain enums + string conversions: the CLI, the JSON and the error
// messages all spell these the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

// The CUDA runtime's stream type, declared at global scope exactly as
// cuda_runtime_api.h does, so stream_t below *is* cudaStream_t.
struct CUstream_st;

namespace tessera {

// uint8 and uint32 serve byte histograms, unique/compaction keys and scans;
// reduce supports the first four only.
enum class Dtype { f32, f64, i32, i64, u8, u32 };
enum class Op { sum, min, max };

// How a floating-point sum accumulates. `native` means the input type
// (float for float, double for double, exact 64-bit for integers).
enum class Accum { native, f64, kahan, dfloat };

enum class Backend { cpu, cuda };
enum class Kind { reference, seed, tessera, vendor };
// What a variant is for (docs/architecture.md): `reference` (the CPU rungs),
// `taught` (a seed step), `product` (one the API may pick), `vendor` (the
// baseline), `tuning` (evidence of a measured experiment: registered by the
// lab build only).
enum class Role { reference, taught, product, vendor, tuning };
constexpr Kind kind_of(Role r) noexcept {
  switch (r) {
    case Role::reference: return Kind::reference;
    case Role::taught: return Kind::seed;
    case Role::vendor: return Kind::vendor;
    default: return Kind::tessera;
  }
}

std::string_view to_string(Dtype t) noexcept;  // "float", "double", "int32", "int64", "uint8", "uint32"
std::string_view to_string(Op op) noexcept;    // "sum", "min", "max"
std::string_view to_string(Accum a) noexcept;  // "native", "double", "kahan", "dfloat"
std::string_view to_string(Backend b) noexcept;
std::string_view to_string(Kind k) noexcept;
std::string_view to_string(Role r) noexcept;  // "reference", "taught", "product", "vendor", "tuning"

std::optional<Dtype> parse_dtype(std::string_view s) noexcept;
std::optional<Op> parse_op(std::string_view s) noexcept;
std::optional<Accum> parse_accum(std::string_view s) noexcept;

std::size_t size_of(Dtype t) noexcept;

template <class T> constexpr Dtype dtype_of();
template <> constexpr Dtype dtype_of<float>() { return Dtype::f32; }
template <> constexpr Dtype dtype_of<double>() { return Dtype::f64; }
template <> constexpr Dtype dtype_of<std::int32_t>() { return Dtype::i32; }
template <> constexpr Dtype dtype_of<std::int64_t>() { return Dtype::i64; }
template <> constexpr Dtype dtype_of<std::uint8_t>() { return Dtype::u8; }
template <> constexpr Dtype dtype_of<std::uint32_t>() { return Dtype::u32; }

// Opaque stream handle: the same type as cudaStream_t, declared here so that
// the public headers compile without the CUDA headers (CPU-only builds).
using stream_t = ::CUstream_st*;

}  // namespace tessera
