#pragma once
// The CPU beamformer's fused AVX-512 row (the "avx512-fused" variant of DasBeamformer): sixteen
// pixels at a time, the receive path, apodisation, every transmit's sample position,
// interpolation and sum in registers, with no intermediate tables. Each sample pair (s, s + 1) is
// fetched by one 64-bit gather lane, so a pixel costs one gathered load per transmit and element.
// Same contract and float precision as the other CPU variants (ultrasound/cpu/beamform.cpp).

#include <cstddef>

#include "ultrasound/cpu/das_geometry.hpp"

namespace cineflow::ultrasound::cpu {

// True where this build holds the fused row (x86-64 with GCC, as compute/cpu/isa.hpp) and this CPU
// runs it.
bool fusedRowAvailable();
// Beamforms image row `row` of `image` from `rf`; only where fusedRowAvailable().
void beamformRowFused(const DasGeometry& g, std::size_t row, const float* rf, float* image);

}  // namespace cineflow::ultrasound::cpu
