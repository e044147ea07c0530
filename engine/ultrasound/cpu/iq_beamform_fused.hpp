#pragma once
// The CPU I/Q beamformer's fused AVX-512 row (the "avx512-fused" variant of IqDasKernel), built as
// the RF one (ultrasound/cpu/beamform_fused.hpp): sixteen pixels at a time, each element's
// receive path in float through the transmit split (ultrasound/transmit_split.hpp) and its
// carrier phasor R once for all transmits; per transmit the sample position, the two complex
// samples around it (one 64-bit gather lane each), their interpolation and the rotation by T R,
// summed in registers. The transmit phasors T (per pixel and transmit) are made per block of
// pixels in double, as the other variants make them. Same contract and precision as those
// (ultrasound/cpu/iq_beamform.cpp).

#include <cstddef>

#include "ultrasound/cpu/das_geometry.hpp"

namespace cineflow::ultrasound::cpu {

// Beamforms image row `row` from `iq` (complex [transmits][elements][samples] at the geometry's
// rate) into `envelope` (|sum| / transmits) and, when not null, `beamformed` (the complex sum /
// transmits, [nz][nx]); `cyclesPerSample` is the carrier's cycles per I/Q sample of path. Only
// where fusedRowAvailable() (ultrasound/cpu/beamform_fused.hpp).
void iqBeamformRowFused(const DasGeometry& g, double cyclesPerSample, std::size_t row,
                        const float* iq, float* envelope, float* beamformed);

}  // namespace cineflow::ultrasound::cpu
