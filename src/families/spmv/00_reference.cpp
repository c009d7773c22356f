// SpMV step 0: the serial CPU reference every other rung is checked against
// (seed 000 SpMV, "CSR": the sequential loop over rows, each row a dot
// product of its nonzeros with x).
#include <type_traits>

#include "families/spmv/cpu_rungs.hpp"
#include "tessera/core/error.hpp"

namespace tessera::spmv_impl::cpu {

namespace {

template <class T>
void reference(const SpmvCall& c) {
  // A wider accumulator than T: double for float, long double for double.
  using Acc = std::conditional_t<std::is_same_v<T, float>, double, long double>;
  const T* val = static_cast<const T*>(c.a.values);
  const T* x = static_cast<const T*>(c.x);
  T* y = static_cast<T*>(c.y);
  for (std::int64_t r = 0; r < c.spec.rows; ++r) {
    Acc sum = 0;
    for (std::int64_t k = c.a.row_offsets[r]; k < c.a.row_offsets[r + 1]; ++k)
      sum += Acc(val[k]) * Acc(x[c.a.col_indices[k]]);
    Acc out = Acc(c.alpha) * sum;
    if (c.beta != 0) out += Acc(c.beta) * Acc(y[r]);  // beta == 0: y is not read (it may be NaN)
    y[r] = T(out);
  }
}

}  // namespace

void run_reference(const SpmvCall& call) {
  switch (call.spec.dtype) {
    case Dtype::f32: reference<float>(call); break;
    case Dtype::f64: reference<double>(call); break;
    default: throw Error("spmv: cpu_reference supports float and double values only");
  }
}

}  // namespace tessera::spmv_impl::cpu
