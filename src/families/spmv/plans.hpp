// Device copies of the host formats (formats.hpp), as plans: prepare.cpp
// converts on the host and uploads; the kernels take the views. Plain C++
// (the .cu rungs include it; the conversions compile as C++).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "families/spmv/contract.hpp"
#include "families/spmv/formats.hpp"
#include "tessera/core/buffer.hpp"
#include "tessera/core/error.hpp"

namespace tessera::spmv_impl::gpu {

inline constexpr int BLOCK_THREADS = 256;

// Calls f.template operator()<T>() for the spec's value type.
template <class F>
void dispatch_value(Dtype t, const char* who, F&& f) {
  switch (t) {
    case Dtype::f32: f.template operator()<float>(); break;
    case Dtype::f64: f.template operator()<double>(); break;
    default: throw Error(std::string(who) + ": spmv supports float and double values only");
  }
}

// The CSR view of a call's host arrays.
template <class T>
Csr<T> host_csr(const SpmvSpec& s, const CsrArrays& a) {
  return {s.rows, s.cols, s.nnz, a.row_offsets, a.col_indices, static_cast<const T*>(a.values)};
}

// Formats with 32-bit row indices: rows below 2^31.
inline bool format_supports(const SpmvSpec& s) {
  return (s.dtype == Dtype::f32 || s.dtype == Dtype::f64) && s.rows < (std::int64_t(1) << 31);
}
inline bool csr_supports(const SpmvSpec& s) { return s.dtype == Dtype::f32 || s.dtype == Dtype::f64; }

// The sliced formats' shapes (07_jds.cu, 08_sell_c_sigma.cu).
inline constexpr std::int64_t SECTION_ROWS = 256;  // jds_ell_sections: a block of rows, bounded padding on power laws
inline constexpr std::int64_t SELL_C = 32;         // sell_c_sigma: a warp a slice
inline constexpr std::int64_t SELL_SIGMA = 1024;   // sell_c_sigma: sort window, 32 slices

// A host vector copied into device memory the plan owns.
template <class V>
DeviceBytes upload(const std::vector<V>& v, const char* what) {
  DeviceBytes d(v.size() * sizeof(V), what);
  d.upload(v.data(), v.size() * sizeof(V));
  return d;
}

template <class V>
const V* as(const DeviceBytes& d) {
  return static_cast<const V*>(d.data());
}

struct EllView {
  std::int64_t rows, width;
  const std::int32_t* col;
  const void* val;
};
struct CooView {
  std::int64_t nnz, empty;
  const std::int32_t *row, *col, *empty_rows;
  const void* val;
};
struct JdsView {
  std::int64_t rows, max_length;
  const std::int32_t *perm, *length;
  const std::int64_t* diag_offsets;
  const std::int32_t* col;
  const void* val;
};
struct LongRowsView {
  std::int64_t count, huge;  // rows; the first `huge` get a block each
  const std::int32_t* row;
  const std::int64_t* offsets;
  const std::int32_t* col;
  const void* val;
};
struct SlicedView {
  std::int64_t rows, height, slices;
  const std::int32_t* perm;
  const std::int64_t* slice_offsets;
  const std::int32_t *slice_width, *col;
  const void* val;
};

struct EllPlan : SpmvPlan {
  DeviceBytes col, val;
  EllView view{};
  template <class T>
  explicit EllPlan(const formats::Ell<T>& e) : col(upload(e.col, "ell columns")), val(upload(e.val, "ell values")) {
    view = {e.rows, e.width, as<std::int32_t>(col), val.data()};
  }
  // Arrays already on the device (convert.cu).
  EllPlan(DeviceBytes c, DeviceBytes v, std::int64_t rows, std::int64_t width) : col(std::move(c)), val(std::move(v)) {
    view = {rows, width, as<std::int32_t>(col), val.data()};
  }
};

struct CooPlan : SpmvPlan {
  DeviceBytes row, col, val, empty;
  CooView view{};
  template <class T>
  explicit CooPlan(const formats::Coo<T>& c)
      : row(upload(c.row, "coo rows")),
        col(upload(c.col, "coo columns")),
        val(upload(c.val, "coo values")),
        empty(upload(c.empty_rows, "coo empty rows")) {
    view = {std::int64_t(c.val.size()), std::int64_t(c.empty_rows.size()), as<std::int32_t>(row),
            as<std::int32_t>(col), as<std::int32_t>(empty), val.data()};
  }
  // Arrays already on the device (convert.cu).
  CooPlan(DeviceBytes r, DeviceBytes c, DeviceBytes v, DeviceBytes e, std::int64_t nnz, std::int64_t empty_rows)
      : row(std::move(r)), col(std::move(c)), val(std::move(v)), empty(std::move(e)) {
    view = {nnz, empty_rows, as<std::int32_t>(row), as<std::int32_t>(col), as<std::int32_t>(empty), val.data()};
  }
};

struct HybPlan : SpmvPlan {
  EllPlan ell;
  CooPlan coo;
  template <class T>
  explicit HybPlan(const formats::Hyb<T>& h) : ell(h.ell), coo(h.coo) {}
  HybPlan(EllPlan&& e, CooPlan&& c) : ell(std::move(e)), coo(std::move(c)) {}
};

// The rows past a format's cut (formats::LongRows), on the device.
struct LongRowsPart {
  DeviceBytes row, offsets, col, val;
  LongRowsView view{};
  std::size_t footprint = 0;  // set by the GPU conversion (formats::LongRows::bytes() on the host)
  LongRowsPart() = default;
  // Arrays already on the device (convert_sorted.cu).
  LongRowsPart(DeviceBytes r, DeviceBytes o, DeviceBytes c, DeviceBytes v, std::int64_t count, std::int64_t huge)
      : row(std::move(r)), offsets(std::move(o)), col(std::move(c)), val(std::move(v)) {
    view = {count, huge, as<std::int32_t>(row), as<std::int64_t>(offsets), as<std::int32_t>(col), val.data()};
  }
  template <class T>
  explicit LongRowsPart(const formats::LongRows<T>& l)
      : row(upload(l.row, "long rows")),
        offsets(upload(l.offsets, "long row offsets")),
        col(upload(l.col, "long row columns")),
        val(upload(l.val, "long row values")) {
    view = {l.count(), l.huge, as<std::int32_t>(row), as<std::int64_t>(offsets), as<std::int32_t>(col), val.data()};
  }
};

struct JdsPlan : SpmvPlan {
  DeviceBytes perm, length, diag, col, val;
  LongRowsPart long_rows;
  JdsView view{};
  template <class T>
  explicit JdsPlan(const formats::Jds<T>& j)
      : perm(upload(j.perm, "jds permutation")),
        length(upload(j.length, "jds row lengths")),
        diag(upload(j.diag_offsets, "jds diagonal offsets")),
        col(upload(j.col, "jds columns")),
        val(upload(j.val, "jds values")),
        long_rows(j.long_rows) {
    view = {std::int64_t(j.perm.size()), std::int64_t(j.diag_offsets.size()) - 1, as<std::int32_t>(perm),
            as<std::int32_t>(length), as<std::int64_t>(diag), as<std::int32_t>(col), val.data()};
  }
  // Arrays already on the device (convert_sorted.cu): `rows` kept rows.
  JdsPlan(DeviceBytes p, DeviceBytes l, DeviceBytes d, DeviceBytes c, DeviceBytes v, LongRowsPart&& lr,
          std::int64_t rows, std::int64_t max_length)
      : perm(std::move(p)), length(std::move(l)), diag(std::move(d)), col(std::move(c)), val(std::move(v)),
        long_rows(std::move(lr)) {
    view = {rows, max_length, as<std::int32_t>(perm), as<std::int32_t>(length), as<std::int64_t>(diag),
            as<std::int32_t>(col), val.data()};
  }
};

struct SlicedPlan : SpmvPlan {
  DeviceBytes perm, offsets, width, col, val;
  LongRowsPart long_rows;
  SlicedView view{};
  template <class T>
  explicit SlicedPlan(const formats::Sliced<T>& s)
      : perm(upload(s.perm, "sliced permutation")),
        offsets(upload(s.slice_offsets, "slice offsets")),
        width(upload(s.slice_width, "slice widths")),
        col(upload(s.col, "sliced columns")),
        val(upload(s.val, "sliced values")),
        long_rows(s.long_rows) {
    view = {s.rows, s.height, s.slices(), as<std::int32_t>(perm), as<std::int64_t>(offsets),
            as<std::int32_t>(width), as<std::int32_t>(col), val.data()};
  }
  // Arrays already on the device (convert_sorted.cu): `rows` kept rows.
  SlicedPlan(DeviceBytes p, DeviceBytes o, DeviceBytes w, DeviceBytes c, DeviceBytes v, LongRowsPart&& lr,
             std::int64_t rows, std::int64_t height, std::int64_t slices)
      : perm(std::move(p)), offsets(std::move(o)), width(std::move(w)), col(std::move(c)), val(std::move(v)),
        long_rows(std::move(lr)) {
    view = {rows, height, slices, as<std::int32_t>(perm), as<std::int64_t>(offsets), as<std::int32_t>(width),
            as<std::int32_t>(col), val.data()};
  }
};

// The prepare_X of the format rungs (prepare.cpp), declared in cuda_rungs.hpp.

template <class P>
const P& plan_of(const SpmvCall& c, const char* who) {
  const auto* p = dynamic_cast<const P*>(c.plan);
  if (p == nullptr) throw Error(std::string("spmv/") + who + ": run without its prepared format");
  return *p;
}

}  // namespace tessera::spmv_impl::gpu
