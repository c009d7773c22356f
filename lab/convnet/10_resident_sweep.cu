// The lab's sweep of convnet step 10 (resident_image, Role::tuning): the same
// kernels under other plans. The product's plan is the least predicted time
// of resident_plan.hpp's model (STAGE_CYCLES 600 a round trip, CPI_WARP 4, IPC 2:
// CPI_WARP fitted to this sweep's rows on the H100; the first guess was 2);
// each row here changes one constant of the model or pins one
// knob, so `tessera-lab bench convnet` shows which plans the H100 prefers on
// LeNet-5's layers and which constants would have chosen them:
//   the first guess (cpi 2): fewer, larger cells (LeNet conv2 n64: 128 cells)
//   issue-bound model (cpi 2, ipc 1): fewer instructions (bigger register tiles)
//   r2, r4: 2 or 4 pixels a thread only; one slice: no partial sums
//   cells 2x / 4x: at least 2 or 4 blocks an SM (smaller cells)
//   threads 64: blocks of at most 64 threads (many small blocks)
// The knob rows keep the product's constants (CPI 4).
#include "convnet/lab_rungs.hpp"
#include "families/convnet/cuda_rungs.hpp"
#include "families/convnet/resident_plan.hpp"

#include <cuda_runtime.h>

#include "tessera/blocks/device.cuh"

namespace tessera::lab::convnet_lab {

namespace {

using conv_impl::ConvCall;
using conv_impl::ConvSpec;
namespace resident = conv_impl::resident;


// The constants as template arguments (tenths), so that each row is a plain function.
template <int STAGE, int CPI10, int IPC10, int ONLY_R, int MAX_SLICES, int MIN_CELLS_PER_SM = 0,
          int MAX_THREADS = resident::MAX_THREADS>
void run_point(const ConvCall& call) {
  resident::Model model;
  model.stage_cycles = STAGE;
  model.cpi_warp = CPI10 / 10.0;
  model.ipc = IPC10 / 10.0;
  model.only_r = ONLY_R;
  model.max_slices = MAX_SLICES;
  model.min_cells_per_sm = MIN_CELLS_PER_SM;
  model.max_threads = MAX_THREADS;
  conv_impl::run_resident_image_with(call, resident::choose_plan(call.spec, gpu::sm_count(), model));
}

std::size_t no_workspace(const ConvSpec&) { return 0; }

}  // namespace

std::vector<conv_impl::ConvVariant> resident_sweep_rows() {
  using ladder::roles::CUDA;
  using ladder::roles::TUNING;
  const auto supports = conv_impl::supports_resident_image;
  return {
      {{"convnet", "resident_cpi2", 10, CUDA, TUNING, "resident_image sweep: the model's first guess (CPI 2): fewer, larger cells", true}, supports, no_workspace, nullptr, run_point<600, 20, 20, 0, 8>},
      {{"convnet", "resident_ipc1", 10, CUDA, TUNING, "resident_image sweep: issue-bound model (CPI 2, IPC 1): bigger register tiles", true}, supports, no_workspace, nullptr, run_point<600, 20, 10, 0, 8>},
      {{"convnet", "resident_r2", 10, CUDA, TUNING, "resident_image sweep: 2 pixels a thread only", true}, supports, no_workspace, nullptr, run_point<600, 40, 20, 2, 8>},
      {{"convnet", "resident_r4", 10, CUDA, TUNING, "resident_image sweep: 4 pixels a thread only", true}, supports, no_workspace, nullptr, run_point<600, 40, 20, 4, 8>},
      {{"convnet", "resident_cells2x", 10, CUDA, TUNING, "resident_image sweep: at least 2 blocks an SM", true}, supports, no_workspace, nullptr, run_point<600, 40, 20, 0, 8, 2>},
      {{"convnet", "resident_cells4x", 10, CUDA, TUNING, "resident_image sweep: at least 4 blocks an SM", true}, supports, no_workspace, nullptr, run_point<600, 40, 20, 0, 8, 4>},
      {{"convnet", "resident_threads64", 10, CUDA, TUNING, "resident_image sweep: blocks of at most 64 threads", true}, supports, no_workspace, nullptr, run_point<600, 40, 20, 0, 8, 0, 64>},
      {{"convnet", "resident_one_slice", 10, CUDA, TUNING, "resident_image sweep: one channel slice (no partial sums in shared memory)", true}, supports, no_workspace, nullptr, run_point<600, 40, 20, 0, 1>},
  };
}

}  // namespace tessera::lab::convnet_lab
