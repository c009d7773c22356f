// Reduction step 1: OpenMP. Each thread folds a static contiguous chunk into
// a private accumulator of the requested kind; the partials are combined in
// thread order, so the result is deterministic for a fixed thread count.
#include <omp.h>

#include <cstring>
#include <vector>

#include "tessera/blocks/reducers.hpp"
#include "families/reduce/cpu_rungs.hpp"

namespace tessera::reduce_impl::cpu {

void run_openmp(const ReduceCall& call) {
  dispatch_reducer(call.spec.dtype, call.spec.op, call.spec.accum, [&]<class R>() {
    using T = typename R::in_t;
    const T* x = static_cast<const T*>(call.in);
    const auto n = static_cast<std::int64_t>(call.spec.n);
    std::vector<typename R::acc_t> partial(static_cast<std::size_t>(omp_get_max_threads()), R::identity());
#pragma omp parallel
    {
      typename R::acc_t acc = R::identity();
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < n; ++i) R::add(acc, x[i]);
      partial[static_cast<std::size_t>(omp_get_thread_num())] = acc;
    }
    typename R::acc_t total = R::identity();
    for (const auto& p : partial) total = R::combine(total, p);
    const typename R::out_t result = R::finish(total);
    std::memcpy(call.out, &result, sizeof(result));
  });
}

}  // namespace tessera::reduce_impl::cpu
