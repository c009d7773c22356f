// The harness's view of a pattern: a Pattern makes Problems (seeded inputs +
// reference answer + cost model); a Problem binds a variant into an Instance
// that can be checked and timed. The harness knows nothing else of a pattern.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/check.hpp"
#include "tessera/core/types.hpp"
#include "tessera/core/variant.hpp"

namespace tessera::harness {

// What limits a pattern: bytes through memory, FP32 arithmetic, or the
// special-function unit (MUFU: rsqrt, sin, cos, exp2 at 16 per clock per SM).
enum class Bound { memory, compute, special };

// The cost model: the fewest bytes that must move (each input read once, each
// output written once) and the arithmetic that must be done.
struct Cost {
  double bytes = 0;
  double flops = 0;
  Bound bound = Bound::memory;
  double special_ops = 0;  // MUFU operations the variants must issue (Bound::special)
};

// Labels of one problem, as they appear in the table and the JSON.
struct ProblemDesc {
  std::string pattern;       // "reduce"
  std::string label;         // "float sum n=268435456"
  std::string type;          // "float"
  std::string op;            // "sum"
  std::string accum;         // "native" (empty where it does not apply)
  std::string distribution;  // "uniform"
  std::vector<std::size_t> shape;
};

// One variant bound to one problem, with its output and workspace allocated.
class Instance {
 public:
  virtual ~Instance() = default;
  // Enqueue one run (CUDA variants, on `stream`, graph-capturable) or run it
  // synchronously (CPU variants).
  virtual void run(stream_t stream) = 0;
  // Poison the output, run once, wait, compare every output element with the
  // reference.
  virtual CheckResult check(stream_t stream) = 0;
};

class Problem {
 public:
  virtual ~Problem() = default;
  virtual const ProblemDesc& desc() const = 0;
  virtual Cost cost() const = 0;
  // Whether `v` can run this problem (type/op support, GPU present, size).
  virtual bool supports(const VariantInfo& v) const = 0;
  virtual std::unique_ptr<Instance> bind(const VariantInfo& v) = 0;
  // The variant the public API picks for this problem (the family's policy);
  // `gpu`: whether a GPU is present (without one the API picks a CPU rung).
  virtual std::string api_pick(bool gpu) const = 0;
  // Why supports(v) is false, for the line that says a problem ran no
  // variant; the runner itself names CUDA variants without a GPU.
  virtual std::string why_unsupported(const VariantInfo& v) const {
    return std::string(v.name) + " does not support " + desc().label;
  }
};

// What the user asked the run for.
struct RunOptions {
  std::uint64_t seed = 20261122;
  std::optional<std::size_t> size;  // --size: overrides the default size
  bool large = false;               // verify: add sizes past 2^31 elements
  bool quick = false;               // verify: small sizes only (sanitizers)
  bool skip_vendor = false;         // --skip-vendor: leave the vendor rows out
  std::string input;                // --input FILE: byte-stream patterns (histogram,
                                    // unique) read this file instead of generated data
  // bench of every pattern (no selector, no filter): each pattern offers only
  // its headline problems (at most 2, about 6 s on an H100 in all) and the
  // timing budget per variant is short, so that the whole run stays under 2
  // minutes however many patterns there are.
  bool headline = false;
  bool gpu = false;                 // a CUDA device is present and usable
  std::optional<Dtype> type;        // filters
  std::optional<Op> op;
  std::optional<Accum> accum;
};

// What one problem takes, estimated from its spec before anything is
// allocated, so that a size that cannot fit is refused in a second instead
// of failing in std::bad_alloc minutes later (harness/size_check.hpp).
struct Needs {
  double host_bytes = 0;    // inputs, reference answer, a CPU rung's output and the checked copy
  double device_bytes = 0;  // a GPU rung's inputs and outputs (0 when the problem runs without a GPU)
  double host_flops = 0;    // the reference answer's arithmetic on the host
};

// A problem not built yet: made one at a time so that only one problem's
// buffers are alive.
struct ProblemFactory {
  std::string label;
  std::function<std::unique_ptr<Problem>()> make;
  Needs needs;
};

// The (type, op, accumulator) triples of the reduce-like patterns (reduce,
// scan) that the run's --type/--op/--accum filters allow, in a fixed order:
// for each of `types`, sum, min and max; float sums with each of the four
// accumulators, every other pair with the native one. f(type, op, accum).
template <class Types, class F>
void for_each_type_op_accum(const RunOptions& o, const Types& types, F f) {
  for (Dtype t : types)
    for (Op op : {Op::sum, Op::min, Op::max})
      for (Accum a : {Accum::native, Accum::f64, Accum::kahan, Accum::dfloat}) {
        if (a != Accum::native && !(t == Dtype::f32 && op == Op::sum)) continue;
        if ((o.type && *o.type != t) || (o.op && *o.op != op) || (o.accum && *o.accum != a)) continue;
        f(t, op, a);
      }
}

// The bench problems of a pattern whose problems are specs of size n (reduce,
// scan): with a --type/--op/--accum filter, every spec the filter allows
// (all_specs(o)) at size n; in the headline run, defaults[i] for each i of
// `headline`; otherwise every default. make(spec) builds one factory.
template <class Spec, class AllSpecs, class Make>
std::vector<ProblemFactory> spec_bench_factories(const RunOptions& o, std::size_t n, const std::vector<Spec>& defaults,
                                                 std::initializer_list<std::size_t> headline, AllSpecs all_specs,
                                                 Make make) {
  std::vector<ProblemFactory> out;
  if (o.type || o.op || o.accum) {
    for (Spec s : all_specs(o)) {
      s.n = n;
      out.push_back(make(s));
    }
  } else if (o.headline) {
    for (std::size_t i : headline) out.push_back(make(defaults.at(i)));
  } else {
    for (const Spec& s : defaults) out.push_back(make(s));
  }
  return out;
}

class Pattern {
 public:
  virtual ~Pattern() = default;
  virtual std::string_view name() const = 0;
  // What --size N sets: "elements", "samples per row", "matrix side".
  virtual std::string_view size_meaning() const = 0;
  virtual std::vector<VariantInfo> variants() const = 0;  // ladder order
  virtual std::vector<ProblemFactory> verify_problems(const RunOptions& o) const = 0;
  virtual std::vector<ProblemFactory> bench_problems(const RunOptions& o) const = 0;
};

}  // namespace tessera::harness
