// The lab's sweep of coulomb step 7's split (Role::tuning): how many of a
// thread's 16 reciprocal square roots go to the FMA pipe, with 3 Newton steps
// (float accuracy) and with 2 (4.7e-6 per term), in the per-atom kernel and
// in the shared-rows kernel (split_kernel.cuh). The product's rows
// (src/families/coulomb/policy.hpp) are the points the model chose; these
// are their neighbours, 2/16 to 6/16 for each kernel and step count, so that
// `tessera-lab bench coulomb` measures the best ratio and each one's error
// side by side. The model's prediction is in each shared-rows row's adds
// (docs/coulomb.md, "Cost model").
#include "coulomb/lab_rungs.hpp"
#include "families/coulomb/split_kernel.cuh"

namespace tessera::lab::coulomb_lab {

namespace {

using coulomb_impl::CoulombCall;
using coulomb_impl::split::run_split;
constexpr int SERIES = coulomb_impl::SERIES_STEP;

template <int FMA_POINTS, int NEWTON>
void run_sweep_point(const CoulombCall& call) {
  run_split<8, 2, FMA_POINTS, NEWTON, false>(call, "coulomb_mufu_fma_split_kernel<lab sweep>");
}

// The shared-rows kernel (the API's pick is its 3/16, 3 Newton steps).
template <int FMA_POINTS, int NEWTON>
void run_shared_rows_point(const CoulombCall& call) {
  run_split<8, 2, FMA_POINTS, NEWTON, false, true>(call, "coulomb_split_shared_rows_kernel<lab sweep>");
}

}  // namespace

std::vector<coulomb_impl::CoulombVariant> split_sweep_rows() {
  using ladder::roles::CUDA;
  using ladder::roles::TUNING;
  const auto supports = coulomb_impl::supports_split;
  return {
      {{"coulomb", "split_fma1_newton3", 7, CUDA, TUNING, "split sweep: 1 of 16 rsqrts on the FMA pipe, 3 Newton steps", false}, supports, run_sweep_point<1, 3>},
      {{"coulomb", "split_fma2_newton3", 7, CUDA, TUNING, "split sweep: 2 of 16 rsqrts on the FMA pipe, 3 Newton steps", false}, supports, run_sweep_point<2, 3>},
      {{"coulomb", "split_fma4_newton3", 7, CUDA, TUNING, "split sweep: 4 of 16 rsqrts on the FMA pipe, 3 Newton steps", false}, supports, run_sweep_point<4, 3>},
      {{"coulomb", "split_fma5_newton3", 7, CUDA, TUNING, "split sweep: 5 of 16 rsqrts on the FMA pipe, 3 Newton steps", false}, supports, run_sweep_point<5, 3>},
      {{"coulomb", "split_fma3_newton2", 7, CUDA, TUNING, "split sweep: 3 of 16 rsqrts on the FMA pipe, 2 Newton steps", false}, supports, run_sweep_point<3, 2>},
      {{"coulomb", "split_fma5_newton2", 7, CUDA, TUNING, "split sweep: 5 of 16 rsqrts on the FMA pipe, 2 Newton steps", false}, supports, run_sweep_point<5, 2>},
      {{"coulomb", "split_fma6_newton2", 7, CUDA, TUNING, "split sweep: 6 of 16 rsqrts on the FMA pipe, 2 Newton steps", false}, supports, run_sweep_point<6, 2>},
      {{"coulomb", "split_fma6_newton3", 7, CUDA, TUNING, "split sweep: 6 of 16 rsqrts on the FMA pipe, 3 Newton steps", false}, supports, run_sweep_point<6, 3>},
      {{"coulomb", "split_fma2_newton2", 7, CUDA, TUNING, "split sweep: 2 of 16 rsqrts on the FMA pipe, 2 Newton steps", false}, supports, run_sweep_point<2, 2>},
      {{"coulomb", "shared_rows_fma2_newton3", 7, CUDA, TUNING, "shared-rows sweep: 2 of 16 on the FMA pipe, 3 Newton steps (model: ~99 %, MUFU-bound)", false}, supports, run_shared_rows_point<2, 3>},
      {{"coulomb", "shared_rows_fma4_newton3", 7, CUDA, TUNING, "shared-rows sweep: 4 of 16 on the FMA pipe, 3 Newton steps (model: ~99 %, issue-bound)", false}, supports, run_shared_rows_point<4, 3>},
      {{"coulomb", "shared_rows_fma5_newton3", 7, CUDA, TUNING, "shared-rows sweep: 5 of 16 on the FMA pipe, 3 Newton steps (model: ~89 %)", false}, supports, run_shared_rows_point<5, 3>},
      {{"coulomb", "shared_rows_fma6_newton3", 7, CUDA, TUNING, "shared-rows sweep: 6 of 16 on the FMA pipe, 3 Newton steps (model: ~81 %)", false}, supports, run_shared_rows_point<6, 3>},
      {{"coulomb", "shared_rows_fma2_newton2", 7, CUDA, TUNING, "shared-rows sweep: 2 of 16 on the FMA pipe, 2 Newton steps (model: ~99 %)", false}, supports, run_shared_rows_point<2, 2>},
      {{"coulomb", "shared_rows_fma3_newton2", 7, CUDA, TUNING, "shared-rows sweep: 3 of 16 on the FMA pipe, 2 Newton steps (model: ~106 %)", false}, supports, run_shared_rows_point<3, 2>},
      {{"coulomb", "shared_rows_fma4_newton2", 7, CUDA, TUNING, "shared-rows sweep: 4 of 16 on the FMA pipe, 2 Newton steps (model: ~112 %; 4.7e-6 per term)", false}, supports, run_shared_rows_point<4, 2>},
      {{"coulomb", "shared_rows_fma5_newton2", 7, CUDA, TUNING, "shared-rows sweep: 5 of 16 on the FMA pipe, 2 Newton steps (model: ~103 %)", false}, supports, run_shared_rows_point<5, 2>},
      {{"coulomb", "split_fma3_series", 7, CUDA, TUNING, "split sweep: 3 of 16 on the FMA pipe, one series step (model: ~106 %)", false}, supports, run_sweep_point<3, SERIES>},
      {{"coulomb", "split_fma4_series", 7, CUDA, TUNING, "split sweep: 4 of 16 on the FMA pipe, one series step (model: ~98 %)", false}, supports, run_sweep_point<4, SERIES>},
      {{"coulomb", "shared_rows_fma2_series", 7, CUDA, TUNING, "shared-rows sweep: 2 of 16 on the FMA pipe, one series step (model: ~99 %)", false}, supports, run_shared_rows_point<2, SERIES>},
      {{"coulomb", "shared_rows_fma3_series", 7, CUDA, TUNING, "shared-rows sweep: 3 of 16 on the FMA pipe, one series step (model: ~106 %)", false}, supports, run_shared_rows_point<3, SERIES>},
      {{"coulomb", "shared_rows_fma5_series", 7, CUDA, TUNING, "shared-rows sweep: 5 of 16 on the FMA pipe, one series step (model: ~103 %)", false}, supports, run_shared_rows_point<5, SERIES>},
      {{"coulomb", "shared_rows_fma6_series", 7, CUDA, TUNING, "shared-rows sweep: 6 of 16 on the FMA pipe, one series step (model: ~95 %)", false}, supports, run_shared_rows_point<6, SERIES>},
      {{"coulomb", "shared_rows_fma6_newton2", 7, CUDA, TUNING, "shared-rows sweep: 6 of 16 on the FMA pipe, 2 Newton steps (model: ~95 %)", false}, supports, run_shared_rows_point<6, 2>},
  };
}

}  // namespace tessera::lab::coulomb_lab
