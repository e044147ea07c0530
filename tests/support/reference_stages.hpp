#pragma once
// Plain double-precision references for the processing stages (process/*.hpp). They implement
// each stage's contract formula directly, with no tables, blocking or FFTs, so that they are easy
// to check by eye; the engine's stages are compared against them.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "acquire/frame.hpp"
#include "ultrasound/imaging_params.hpp"

namespace cineflow::test {

// A linear array of `elements` at `pitchM` centred on x = 0, `transmits` plane waves steered
// evenly over [-maxAngleRad, maxAngleRad] (0 for one transmit); f0 5 MHz, fs 20 MHz, c 1540 m/s.
acquire::AcquisitionParams makePlaneWaveAcquisition(int elements, int transmits, int samples,
                                                    double pitchM = 0.3e-3,
                                                    double maxAngleRad = 0.1, double t0S = 0.0);

// An nz x nx image geometry with 0.1 mm pixels at the origin, for stage tests.
inline process::ImageGeometry makeImageGeometry(int nz, int nx) {
  process::ImageGeometry geometry;
  geometry.nz = nz;
  geometry.nx = nx;
  geometry.dx = geometry.dz = 1e-4;
  return geometry;
}

template <class T>
std::vector<double> toDoubles(std::span<const T> values) {
  return std::vector<double>(values.begin(), values.end());
}

// y[n] = sum_k h[k] u[n + k - (L-1)/2] per row of `samples`, u the row upsampled by `factor`
// with zeros (u[m U] = x[m]), zero outside the row: rows of samples * factor outputs.
std::vector<double> referenceBandpass(std::span<const float> taps, std::span<const double> input,
                                      std::size_t rows, std::size_t samples, int factor = 1);

// Delay-and-sum exactly as process/beamform.hpp states it; rf is [T][E][S], image [nz][nx].
std::vector<double> referenceDelayAndSum(const acquire::AcquisitionParams& acq,
                                         const ultrasound::ImagingParams& imaging,
                                         std::span<const double> rf);

// I/Q demodulation exactly as process/iq_demodulate.hpp states it: raw [rows][samples] in, complex
// [rows][ceil(samples / decimation)] out, with the phasor computed from its definition.
std::vector<std::complex<double>> referenceDemodulate(const acquire::AcquisitionParams& acq,
                                                      std::span<const float> taps,
                                                      std::span<const double> raw, int decimation);

// Delay-and-sum on I/Q exactly as process/iq_beamform.hpp states it: iq [T][E][S] complex at
// fs / decimation, image |sum| [nz][nx].
std::vector<double> referenceIqDelayAndSum(const acquire::AcquisitionParams& acq,
                                           const ultrasound::ImagingParams& imaging,
                                           std::span<const std::complex<double>> iq);

// |analytic signal| along z of an [nz][nx] image, from a direct O(N^2) DFT per column.
std::vector<double> referenceEnvelope(std::span<const double> image, int nz, int nx);

// 20 log10(max(v, 1e-10)).
std::vector<double> referenceLogCompress(std::span<const double> envelope);

// ||actual - expected||_2 / ||expected||_2 (expected must not be all zeros).
double relativeL2Error(std::span<const float> actual, std::span<const double> expected);
double maxAbsError(std::span<const float> actual, std::span<const double> expected);

}  // namespace cineflow::test
