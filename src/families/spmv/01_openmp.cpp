// SpMV step 1: OpenMP over rows. Rows are independent (each writes its own
// y), so the only question is balance: dynamic chunks of CHUNK_ROWS, so
// that a power-law matrix's few huge rows do not hold one thread's whole
// static share while the others idle.
#include "families/spmv/cpu_rungs.hpp"
#include "tessera/core/error.hpp"

namespace tessera::spmv_impl::cpu {

namespace {

constexpr int CHUNK_ROWS = 1024;

template <class T>
void openmp(const SpmvCall& c) {
  const T* val = static_cast<const T*>(c.a.values);
  const T* x = static_cast<const T*>(c.x);
  T* y = static_cast<T*>(c.y);
  const std::int64_t* off = c.a.row_offsets;
  const std::int32_t* col = c.a.col_indices;
  const T alpha = T(c.alpha), beta = T(c.beta);
  const std::int64_t rows = c.spec.rows;
#pragma omp parallel for schedule(dynamic, CHUNK_ROWS)
  for (std::int64_t r = 0; r < rows; ++r) {
    T sum = 0;
    for (std::int64_t k = off[r]; k < off[r + 1]; ++k) sum += val[k] * x[col[k]];
    y[r] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[r];
  }
}

}  // namespace

void run_openmp(const SpmvCall& call) {
  switch (call.spec.dtype) {
    case Dtype::f32: openmp<float>(call); break;
    case Dtype::f64: openmp<double>(call); break;
    default: throw Error("spmv: cpu_openmp supports float and double values only");
  }
}

}  // namespace tessera::spmv_impl::cpu
