// Reduction step 0: the serial CPU reference every other rung is checked
// against (seed 000 "Reduction": the sequential O(n) algorithm).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tessera/blocks/reducers.hpp"
#include "families/reduce/cpu_rungs.hpp"
#include "tessera/core/error.hpp"

namespace tessera::reduce_impl::cpu {

namespace {

// Neumaier's compensated sum in long double: the running error term is kept
// separately whichever of sum and element is larger.
template <class T>
long double compensated_sum(const T* x, std::size_t n) {
  long double sum = 0.0L, comp = 0.0L;
  for (std::size_t i = 0; i < n; ++i) {
    const long double v = x[i];
    const long double t = sum + v;
    if (std::fabs(sum) >= std::fabs(v)) comp += (sum - t) + v;
    else comp += (v - t) + sum;
    sum = t;
  }
  return sum + comp;
}

template <class T>
void reference(const ReduceCall& call) {
  const T* x = static_cast<const T*>(call.in);
  const std::size_t n = call.spec.n;
  using Out = reduce_result_t<T>;
  Out result{};
  switch (call.spec.op) {
    case Op::sum:
      if constexpr (std::is_floating_point_v<T>) {
        result = static_cast<Out>(compensated_sum(x, n));
      } else {
        std::uint64_t s = 0;  // wraps modulo 2^64 without UB
        for (std::size_t i = 0; i < n; ++i) s += static_cast<std::uint64_t>(static_cast<std::int64_t>(x[i]));
        result = static_cast<Out>(s);
      }
      break;
    case Op::min: {
      T m = MinOp<T>::identity();
      for (std::size_t i = 0; i < n; ++i) m = MinOp<T>::combine(m, x[i]);
      result = static_cast<Out>(m);
      break;
    }
    case Op::max: {
      T m = MaxOp<T>::identity();
      for (std::size_t i = 0; i < n; ++i) m = MaxOp<T>::combine(m, x[i]);
      result = static_cast<Out>(m);
      break;
    }
  }
  std::memcpy(call.out, &result, sizeof(Out));
}

}  // namespace

void run_reference(const ReduceCall& call) {
  switch (call.spec.dtype) {
    case Dtype::f32: reference<float>(call); break;
    case Dtype::f64: reference<double>(call); break;
    case Dtype::i32: reference<std::int32_t>(call); break;
    case Dtype::i64: reference<std::int64_t>(call); break;
    default: throw Error("reduce: cpu_reference does not support this element type");
  }
}

}  // namespace tessera::reduce_impl::cpu
