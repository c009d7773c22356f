// Adds the lab's tuning rows to the families' ladders. Call once, first
// thing in main(), before any ladder lookup.
#pragma once

namespace tessera::lab {

void register_all();

// One per family (lab/<family>/register.cpp).
void register_reduce_lab();
void register_scan_lab();
void register_compose_lab();
void register_transpose_lab();
void register_gemm_lab();
void register_batched_scan_lab();
void register_histogram_lab();
void register_coulomb_lab();
void register_convnet_winograd_lab();
void register_convnet_lab();
void register_convolution_lab();


}  // namespace tessera::lab
