// Step 1 of every composition ladder: OpenMP. Maps are a parallel for. The
// compositions are the seed's flags -> scan -> scatter at the granularity of
// threads: each thread counts its static chunk, the chunk counts are scanned
// serially, and each thread writes its chunk at its offset (deterministic:
// placement depends only on the data and the chunking).
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "families/compose/ops.hpp"
#include "families/compose/dispatch.hpp"
#include "families/compose/cuda_rungs.hpp"
#include "tessera/core/error.hpp"

namespace tessera::compose_impl {

namespace {

// Static chunks [bounds[c], bounds[c+1]) of [0, n).
std::vector<std::size_t> chunk_bounds(std::size_t n) {
  const std::size_t chunks = static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
  std::vector<std::size_t> b(chunks + 1);
  for (std::size_t c = 0; c <= chunks; ++c) b[c] = n / chunks * c + std::min(c, n % chunks);
  return b;
}

// Exclusive prefix of per-chunk counts; returns the total.
std::int64_t exclusive_prefix(std::vector<std::int64_t>& v) {
  std::int64_t run = 0;
  for (auto& x : v) {
    const std::int64_t c = x;
    x = run;
    run += c;
  }
  return run;
}

template <class T>
bool keep(const Call& c, const T* x, std::size_t i) {
  switch (c.spec.family) {
    case Family::unique:
    case Family::rle: return i == 0 || differs(x[i - 1], x[i]);
    default: return c.spec.flagged ? c.flags[i] != 0 : passes(c.spec.pred, x[i], c.spec.threshold<T>());
  }
}

template <class T>
void openmp(const Call& c) {
  const std::size_t n = c.spec.n;
  const auto sn = static_cast<std::int64_t>(n);
  const T* x = static_cast<const T*>(c.in);
  T* out = static_cast<T*>(c.out);

  if (c.spec.family == Family::map) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < sn; ++i) out[i] = map_apply(c.spec.fn, x[i]);
    return;
  }
  if (c.spec.family == Family::adjacent_difference) {
    auto* d = static_cast<absdiff_t<T>*>(c.out);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < sn; ++i) d[i] = absdiff(x[i], i == 0 ? T(0) : x[i - 1]);
    return;
  }
  if (c.spec.family == Family::find_unique) {
    if constexpr (sizeof(T) == 1) {
      unsigned char seen[256] = {};
#pragma omp parallel
      {
        unsigned char mine[256] = {};
#pragma omp for schedule(static)
        for (std::int64_t i = 0; i < sn; ++i) mine[static_cast<std::uint8_t>(x[i])] = 1;
#pragma omp critical
        for (int v = 0; v < 256; ++v) seen[v] |= mine[v];
      }
      std::int64_t k = 0;
      for (int v = 0; v < 256; ++v)
        if (seen[v]) out[k++] = static_cast<T>(v);
      *c.count = k;
      return;
    } else {
      throw Error("cpu_openmp: find_unique supports uint8 only");
    }
  }

  // compact, partition, unique, rle: count, scan, write.
  const auto bounds = chunk_bounds(n);
  const auto chunks = static_cast<std::int64_t>(bounds.size() - 1);
  std::vector<std::int64_t> offset(static_cast<std::size_t>(chunks), 0);
#pragma omp parallel for schedule(static)
  for (std::int64_t ch = 0; ch < chunks; ++ch) {
    std::int64_t k = 0;
    for (std::size_t i = bounds[ch]; i < bounds[ch + 1]; ++i) k += keep(c, x, i) ? 1 : 0;
    offset[static_cast<std::size_t>(ch)] = k;
  }
  const std::int64_t total = exclusive_prefix(offset);
#pragma omp parallel for schedule(static)
  for (std::int64_t ch = 0; ch < chunks; ++ch) {
    std::int64_t k = offset[static_cast<std::size_t>(ch)];
    const std::size_t first = bounds[ch], last = bounds[ch + 1];
    if (c.spec.family == Family::partition) {
      // Rejected elements before this chunk: first - (selected before it).
      std::size_t r = first - static_cast<std::size_t>(k);
      for (std::size_t i = first; i < last; ++i) {
        if (keep(c, x, i)) out[k++] = x[i];
        else out[n - 1 - r++] = x[i];
      }
    } else if (c.spec.family == Family::rle) {
      for (std::size_t i = first; i < last; ++i) {
        if (!keep(c, x, i)) continue;
        std::size_t end = i + 1;  // the next head, possibly in a later chunk
        while (end < n && !differs(x[end - 1], x[end])) ++end;
        out[k] = x[i];
        c.lengths[k] = static_cast<std::int64_t>(end - i);
        ++k;
      }
    } else {
      for (std::size_t i = first; i < last; ++i)
        if (keep(c, x, i)) out[k++] = x[i];
    }
  }
  *c.count = total;
}

}  // namespace

void run_cpu_openmp(const Call& call) {
  if (!supports_cpu_openmp(call.spec))
    throw Error(std::string("cpu_openmp: unsupported ") + std::string(to_string(call.spec.family)) + " spec");
  dispatch_any_type(call.spec.dtype, [&]<class T>() { openmp<T>(call); });
}
std::size_t ws_cpu_openmp(const Spec&) { return 0; }
bool supports_cpu_openmp(const Spec& spec) {
  return family_supports(spec) && (spec.family != Family::find_unique || spec.dtype == Dtype::u8);
}

}  // namespace tessera::compose_impl
