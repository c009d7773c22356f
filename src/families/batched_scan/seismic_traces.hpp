// A seeded generator of seismic-like traces, the realistic input of the
// batched_scan precision report: per trace, band-limited noise (white noise
// through a band-pass biquad with a random centre frequency and Q), an
// amplitude envelope decaying with time (spherical divergence and
// attenuation), and a small positive DC offset (recording bias). The DC
// offset is what makes long float cumulative sums lose precision: the running
// sum grows linearly while the samples stay O(1).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::harness {

// Fills row r, samples [0, len), at data[r * pitch + i]; samples between len
// and pitch are left alone. Trace r depends only on (seed, r): rows are
// generated in parallel and any trace can be regenerated alone.
void fill_seismic_traces(float* data, std::size_t rows, std::size_t len, std::size_t pitch, std::uint64_t seed);

}  // namespace tessera::harness
