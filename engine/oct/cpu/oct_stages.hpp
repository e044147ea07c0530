#pragma once
// CPU twins of the OCT stages (oct/oct_params.hpp has the chain's arithmetic). The per-A-scan
// functions are the stages' definitions, which the tests compare with plain references; the CPU
// processor runs them fused per A-scan (one pass over each A-scan, in cache) so that a B-scan
// costs one read of the raw frame and one write of the image.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "oct/oct_params.hpp"
#include "process/cpu/fftw_handles.hpp"

namespace cineflow::oct::cpu {

// background[i] = mean over the first `ascans` A-scans of raw[a][i] (the rolling mean over the
// B-scan).
void meanSpectrum(const std::uint16_t* raw, int ascans, int samples, float* background);

// One A-scan: out[j] = (raw - background) at raw index positions[j] (linear or Catmull-Rom cubic
// interpolation between samples, edges clamped), times (phaseCos[j], phaseSin[j]) (the window and
// exp(-i phi)).
void shapeAscan(const std::uint16_t* raw, const float* background, const SpectralTables& tables,
                Interpolation interpolation, std::complex<float>* out);

// The image column of one transformed A-scan: column[(n - first) * stride] =
// 20 log10(max(|X_n| / N, floor)) for n in [first, last).
void depthColumn(const std::complex<float>* transformed, int samples, int first, int last,
                 float* column, int stride);

// The CPU processor's work: tables, FFTW plan and per-chunk scratch made by configure(), none in
// the frame loop. The fused loop computes what shapeAscan() and depthColumn() define, faster:
// each A-scan minus the background is converted once into a padded float line, the
// interpolation reads it through per-sample taps (first index and four weights, the window and
// phase folded in), the dB come from |X|^2 (no square root) through a vectorisable logarithm, and
// 16 A-scans' dB are written to the image row by row.
// The resampling taps (InterpolationTaps) as separate arrays, with the window and dispersion
// phase beside them, so that the loop over output samples vectorises (gathers from the line).
struct ResamplingTaps {
  std::vector<int> first;  // the first tap's index in the padded line (raw index + 1 - 1)
  std::vector<float> w0, w1, w2, w3;
  std::vector<float> cos, sin;  // SpectralTables::phaseCos, phaseSin
};

class OctCpuChain {
 public:
  void configure(const OctAcquisition& acquisition, const OctParams& params);
  // The mean spectrum of the B-scan into `background` (RollingMean only).
  void enqueueBackground(compute::Stream& stream, const std::uint16_t* raw, float* background);
  // Every imaged A-scan through shapeAscan, the FFT and depthColumn into image [z][x]: A-scan a
  // into column a, or with `reverse` into column imagedAscans - 1 - a.
  void enqueueTransform(compute::Stream& stream, const std::uint16_t* raw, const float* background,
                        float* image, bool reverse);
  void transform(const std::uint16_t* raw, const float* background, float* image, bool reverse);

  // The transform's variants: "fused", each A-scan resampled, transformed and turned into dB in
  // turn, in cache; "separate", 16 A-scans resampled into one buffer, transformed by one batched
  // FFTW plan (which vectorises across the transforms), then turned into dB. 0 is the default.
  static std::vector<std::string> variantNames() { return {"fused", "separate"}; }
  // Between frames. The first selection of "separate" plans the batch and allocates its buffers.
  void selectVariant(std::size_t index);
  std::size_t variant() const { return variant_; }

 private:
  // A-scans [x0, x0 + width) of a chunk into the chunk's tile of dB, by the selected variant.
  void transformTile(const std::uint16_t* raw, const float* background, std::size_t chunk,
                     std::size_t x0, std::size_t width, float* tile);

  OctAcquisition acquisition_;
  SpectralTables tables_;
  Interpolation interpolation_ = Interpolation::Cubic;
  int first_ = 0, last_ = 0, columns_ = 0;
  std::size_t grain_ = 1;
  process::cpu::FftwPlan plan_;
  std::vector<process::cpu::FftwArray<fftwf_complex>> scratch_;  // one A-scan per chunk
  static constexpr std::size_t kTileColumns = 16;  // A-scans whose dB are written together
  std::vector<std::vector<float>> lines_;          // per chunk: raw - background, padded by 1 and 2
  std::vector<std::vector<float>> tiles_;          // per chunk: [kTileColumns][depths] dB
  ResamplingTaps taps_;
  float dbOffset_ = 0, floorSquared_ = 0;  // decibels(): 20 log10(N) and (floor N)^2
  std::size_t variant_ = 0;
  process::cpu::FftwPlan batchPlan_;  // "separate": kTileColumns transforms of one buffer
  std::vector<process::cpu::FftwArray<fftwf_complex>> batches_;  // per chunk, kTileColumns A-scans
};

}  // namespace cineflow::oct::cpu
