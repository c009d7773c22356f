// The public API's choice of variant (policy.hpp's rules) and its workspace
// query, the same in CUDA and CPU-only builds.
#include "core/gpu_present.hpp"
#include "families/convnet/api_common.hpp"
#include "families/convnet/policy.hpp"

namespace tessera {

namespace conv_impl {

const ConvVariant& variant_for(const ConvSpec& spec, const std::string& name) {
  const std::string chosen = name.empty() ? std::string(policy::pick(spec, api::gpu_present())) : name;
  const ConvVariant& v = variants_ladder().at(chosen, WHO);
  require(v.info.backend == Backend::cpu || api::gpu_present(),
          fmt::format("{}: variant '{}' runs on a GPU and no GPU was found; the cpu_* variants run on host memory",
                      WHO, chosen));
  require(v.supports(spec), fmt::format("{}: variant '{}' does not support the layer {}{}", WHO, chosen,
                                        describe(spec),
                                        v.info.backend == Backend::cuda ? " (32-bit indexing: x, w and y must each "
                                                                          "hold fewer than 2^31 elements; "
                                                                          "shared_tiled: a patch within 48 KiB; resident_image: k input rows of "
                                                                          "every channel and its filters within 48 KiB; "
                                                                          "winograd_f2x3, winograd_fused: "
                                                                          "k = 3 and stride 1 only)"
                                                                        : ""));
  return v;
}

}  // namespace conv_impl

std::string conv_forward_default_variant(const ConvShape& shape) {
  return std::string(conv_impl::policy::pick(conv_impl::checked_spec(shape), api::gpu_present()));
}

std::size_t conv_forward_workspace_bytes(const ConvShape& shape, const ConvOptions& options) {
  const conv_impl::ConvSpec spec = conv_impl::checked_spec(shape);
  return conv_impl::variant_for(spec, options.variant).workspace_bytes(spec);
}

}  // namespace tessera
