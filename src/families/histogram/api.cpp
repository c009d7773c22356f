// Public histogram API (CUDA builds): validation, scratch, dispatch.
#if TESSERA_HAVE_CUDA  // api_cpu.cpp serves CPU-only builds
#include <cuda_runtime_api.h>

#include <vector>

#include "core/device_memory.hpp"
#include "families/histogram/api_common.hpp"
#include "tessera/core/cuda_check.hpp"

namespace tessera {

namespace {

using api::Memory;
using api::memory_of;
using histogram_impl::HistogramSpec;
using histogram_impl::HistogramVariant;

constexpr int PACKED_FLOAT_MAX_BINS = 256;  // packed16_atomic keeps 2 blocks per SM up to here

// The default variant of a spec, among those that support it: the first of
// `preferred` that does.
std::string first_supporting(const HistogramSpec& spec, std::initializer_list<const char*> preferred) {
  for (const char* name : preferred) {
    const HistogramVariant* v = histogram_impl::find_variant(name);
    if (v != nullptr && v->supports(spec)) return name;
  }
  return "global_interleaved";  // supports every bin count
}

void run_cpu_variant(const HistogramVariant& v, const HistogramSpec& spec, const void* in, std::uint32_t* counts,
                     std::uint32_t* out_of_range, cudaStream_t stream, const char* who, const char* in_name) {
  if (spec.n > 0)
    require(memory_of(in) == Memory::host,
            fmt::format("{}: {} must point to host memory for variant '{}'", who, in_name, v.info.name));
  require(memory_of(counts) == Memory::host,
          fmt::format("{}: d_counts must point to host memory for variant '{}'", who, v.info.name));
  if (out_of_range != nullptr)
    require(memory_of(out_of_range) == Memory::host,
            fmt::format("{}: out_of_range must point to host memory for variant '{}'", who, v.info.name));
  std::vector<unsigned char> ws(v.workspace_bytes(spec));
  std::uint32_t dropped = 0;
  TESSERA_CUDA(cudaStreamSynchronize(stream));  // CPU variants run in stream order
  v.run({spec, in, counts, &dropped, ws.data(), stream});
  if (out_of_range != nullptr) *out_of_range = dropped;
}

}  // namespace

void histogram_impl::run_checked(const HistogramSpec& spec, const void* in, std::uint32_t* counts,
                                 std::uint32_t* out_of_range, const HistogramOptions& options, const char* who,
                                 const char* in_name) {
  histogram_impl::check_arguments(spec, in, counts, out_of_range, who, in_name);
  const HistogramVariant& v = histogram_impl::resolve(spec, options.variant, who);
  cudaStream_t stream = options.stream;
  if (v.info.backend == Backend::cpu) {
    run_cpu_variant(v, spec, in, counts, out_of_range, stream, who, in_name);
    return;
  }
  if (spec.n > 0)
    require(memory_of(in) == Memory::device,
            fmt::format("{}: {} must point to device memory for variant '{}'", who, in_name, v.info.name));
  require(memory_of(counts) == Memory::device,
          fmt::format("{}: d_counts must point to device memory for variant '{}'", who, v.info.name));
  const bool oor_on_device = out_of_range != nullptr && memory_of(out_of_range) == Memory::device;
  api::AsyncScratch ws(v.workspace_bytes(spec), stream, who);
  api::AsyncScratch oor_scratch(oor_on_device ? 0 : sizeof(std::uint32_t), stream, who);
  std::uint32_t* dev_oor = oor_on_device ? out_of_range : static_cast<std::uint32_t*>(oor_scratch.get());
  v.run({spec, in, counts, dev_oor, ws.get(), stream});
  if (out_of_range != nullptr && !oor_on_device) {
    std::uint32_t dropped = 0;
    TESSERA_CUDA(cudaMemcpyAsync(&dropped, dev_oor, sizeof dropped, cudaMemcpyDeviceToHost, stream));
    TESSERA_CUDA(cudaStreamSynchronize(stream));
    *out_of_range = dropped;
  }
}

std::string histogram_default_variant(Dtype type, int bins, std::size_t n) {
  // Bytes: lane-private packed counters (docs/histogram.md: conflict-free and
  // contention-free). The candidate kept as default comes from the H100
  // measurements of packed16_atomic, packed8_atomic and packed8_rmw.
  if (type == Dtype::u8) return "packed16_atomic";
  // Floats: packed counters up to 256 bins (128 words x 192 threads: two
  // blocks per SM, as for bytes; more bins fit one block only), then the
  // hot-bin copies while one copy fits, then global atomics.
  const HistogramSpec spec{type, n, bins, 0.0f, 1.0f};
  if (bins <= PACKED_FLOAT_MAX_BINS) return first_supporting(spec, {"packed16_atomic", "hot_bin_copies"});
  return first_supporting(spec, {"hot_bin_copies"});
}

}  // namespace tessera

#endif  // TESSERA_HAVE_CUDA
