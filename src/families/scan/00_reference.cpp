// Scan step 0: the serial CPU reference every other rung is checked against
// (seed 000 "Prefix-sum": the sequential y[i] = y[i-1] + x[i]).
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "tessera/blocks/scan_ops.hpp"
#include "families/scan/cpu_rungs.hpp"
#include "tessera/core/error.hpp"

namespace tessera::scan_impl::cpu {

namespace {

// Neumaier's compensated running sum in long double: the rounding error of
// each step is kept separately whichever of sum and element is larger.
struct CompensatedSum {
  long double sum = 0.0L, comp = 0.0L;
  void add(long double v) {
    const long double t = sum + v;
    if (std::fabs(sum) >= std::fabs(v)) comp += (sum - t) + v;
    else comp += (v - t) + sum;
    sum = t;
  }
  long double value() const { return sum + comp; }
};

// Each element is read before its output is written: in place works.
template <class T, class State, class Add, class Out>
void serial_scan(const T* x, T* y, std::size_t n, bool exclusive, State s, Add add, Out out) {
  for (std::size_t i = 0; i < n; ++i) {
    const T v = x[i];
    if (exclusive) {
      y[i] = out(s);
      add(s, v);
    } else {
      add(s, v);
      y[i] = out(s);
    }
  }
}

template <class T>
void reference(const ScanCall& call) {
  const T* x = static_cast<const T*>(call.in);
  T* y = static_cast<T*>(call.out);
  const std::size_t n = call.spec.n;
  const bool ex = call.spec.exclusive;
  switch (call.spec.op) {
    case Op::sum:
      if constexpr (std::is_floating_point_v<T>) {
        serial_scan(x, y, n, ex, CompensatedSum{}, [](CompensatedSum& s, T v) { s.add(v); },
                    [](const CompensatedSum& s) { return static_cast<T>(s.value()); });
      } else {
        using U = std::make_unsigned_t<T>;  // wraps in the element's width without UB
        serial_scan(x, y, n, ex, U(0), [](U& s, T v) { s = static_cast<U>(s + static_cast<U>(v)); },
                    [](U s) { return static_cast<T>(s); });
      }
      break;
    case Op::min:
      serial_scan(x, y, n, ex, MinOp<T>::identity(), [](T& s, T v) { s = MinOp<T>::combine(s, v); },
                  [](T s) { return s; });
      break;
    case Op::max:
      serial_scan(x, y, n, ex, MaxOp<T>::identity(), [](T& s, T v) { s = MaxOp<T>::combine(s, v); },
                  [](T s) { return s; });
      break;
  }
}

}  // namespace

void run_reference(const ScanCall& call) {
  switch (call.spec.dtype) {
    case Dtype::f32: reference<float>(call); break;
    case Dtype::f64: reference<double>(call); break;
    case Dtype::i32: reference<std::int32_t>(call); break;
    case Dtype::i64: reference<std::int64_t>(call); break;
    case Dtype::u32: reference<std::uint32_t>(call); break;
    default: throw Error("scan: cpu_reference does not support element type " + std::string(to_string(call.spec.dtype)));
  }
}

}  // namespace tessera::scan_impl::cpu
