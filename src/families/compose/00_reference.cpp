// Step 0 of every composition ladder: serial loops, obviously right, that the
// other rungs are checked against (seed 003: Map, Compact, FindUniq, and the
// sequential "sort, then iterate through and copy").
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "families/compose/ops.hpp"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/error.hpp"

namespace tessera::compose_impl {

namespace {

// f(keep) with keep(i) the selection test of element i, the predicate
// chosen once outside the loops.
template <class T, class F>
void with_selection(const Call& c, const T* x, F&& f) {
  if (c.spec.flagged) return f([&](std::size_t i) { return c.flags[i] != 0; });
  const T t = c.spec.threshold<T>();
  switch (c.spec.pred) {
    case Pred::greater: return f([&](std::size_t i) { return passes(Pred::greater, x[i], t); });
    case Pred::nonzero: return f([&](std::size_t i) { return passes(Pred::nonzero, x[i], t); });
    case Pred::even: return f([&](std::size_t i) { return passes(Pred::even, x[i], t); });
  }
}

template <class T>
void reference(const Call& c) {
  const std::size_t n = c.spec.n;
  const T* x = static_cast<const T*>(c.in);
  T* out = static_cast<T*>(c.out);
  std::int64_t k = 0;
  switch (c.spec.family) {
    case Family::map:
      for (std::size_t i = 0; i < n; ++i) out[i] = map_apply(c.spec.fn, x[i]);
      return;
    case Family::adjacent_difference: {
      auto* d = static_cast<absdiff_t<T>*>(c.out);
      for (std::size_t i = 0; i < n; ++i) d[i] = absdiff(x[i], i == 0 ? T(0) : x[i - 1]);
      return;
    }
    case Family::compact:
      with_selection(c, x, [&](auto keep) {
        for (std::size_t i = 0; i < n; ++i)
          if (keep(i)) out[k++] = x[i];
      });
      break;
    case Family::partition:
      with_selection(c, x, [&](auto keep) {
        std::size_t rejected = 0;
        for (std::size_t i = 0; i < n; ++i) {
          if (keep(i)) out[k++] = x[i];
          else out[n - 1 - rejected++] = x[i];
        }
      });
      break;
    case Family::unique:
      for (std::size_t i = 0; i < n; ++i)
        if (i == 0 || differs(x[i - 1], x[i])) out[k++] = x[i];
      break;
    case Family::find_unique:
      if constexpr (sizeof(T) == 1) {
        bool seen[256] = {};
        for (std::size_t i = 0; i < n; ++i) seen[static_cast<std::uint8_t>(x[i])] = true;
        for (int v = 0; v < 256; ++v)
          if (seen[v]) out[k++] = static_cast<T>(v);
      } else {
        std::vector<T> sorted(x, x + n);
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t i = 0; i < n; ++i)
          if (i == 0 || differs(sorted[i - 1], sorted[i])) out[k++] = sorted[i];
      }
      break;
    case Family::rle:
      for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || differs(x[i - 1], x[i])) {
          out[k] = x[i];
          c.lengths[k] = 0;
          ++k;
        }
        ++c.lengths[k - 1];
      }
      break;
  }
  *c.count = k;
}

}  // namespace

void run_cpu_reference(const Call& call) {
  if (!family_supports(call.spec))
    throw Error(std::string("cpu_reference: unsupported ") + std::string(to_string(call.spec.family)) + " spec");
  dispatch_any_type(call.spec.dtype, [&]<class T>() { reference<T>(call); });
}
std::size_t ws_cpu_reference(const Spec&) { return 0; }
bool supports_cpu_reference(const Spec& spec) { return family_supports(spec); }

}  // namespace tessera::compose_impl
