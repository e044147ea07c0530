#pragma once
// CPU twins of the OCT stages (oct/oct_params.hpp has the chain's arithmetic). The per-A-scan
// functions are the stages' definitions, which the tests compare with plain references; the CPU
// processor runs them fused per A-scan (one pass over each A-scan, in cache) so that a B-scan
// costs one read of the raw frame and one write of the image.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "compute/backend.hpp"
#include "oct/oct_params.hpp"
#include "process/cpu/fftw_handles.hpp"

namespace cineflow::oct::cpu {

// background[i] = mean over the first `ascans` A-scans of raw[a][i] (the rolling mean over the
// B-scan), exact sums in integers. Each worker streams through whole A-scans into its own part of
// `sums`, which needs meanSpectrumScratch(samples) values (fewer: allocated here, for callers
// outside the frame loop).
std::size_t meanSpectrumScratch(int samples);
void meanSpectrum(const std::uint16_t* raw, int ascans, int samples, float* background,
                  std::span<std::uint32_t> sums = {});

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
// 16 A-scans' dB are written to the image row by row. On CPUs with AVX-512 the resampling reads
// each block of 16 output samples' taps from a window of the line by permutes, and a tile is
// written into the image by in-register 16 x 16 transposes and streaming stores
// (compute/cpu/isa.hpp).
// The resampling taps (InterpolationTaps) as separate arrays, with the window and dispersion
// phase beside them, so that the loop over output samples vectorises (gathers from the line).
struct ResamplingTaps {
  std::vector<int> first;  // the first tap's index in the padded line (raw index + 1 - 1)
  std::vector<float> w0, w1, w2, w3;
  std::vector<float> cos, sin;  // SpectralTables::phaseCos, phaseSin
  // For CPUs with AVX-512, per block of kBlock output samples: the line index of the window of
  // kWindow samples that holds all the block's taps (-1 where they spread wider: gathered) and
  // each sample's first tap's offset into it, [block][kBlock], with the sample's fraction t
  // between its second and third tap, from which the weights are computed (linear or
  // Catmull-Rom). Two loads and two or four permutes then replace four gathers, and the tables
  // read per A-scan (27 KiB for 2048 samples) stay in the L1 cache (a k-linearisation moves the
  // taps smoothly: a block's 19 or so taps lie together).
  static constexpr int kBlock = 16, kWindow = 32;
  bool cubic = true;
  std::vector<int> windowStart;
  std::vector<std::int8_t> windowOffsets;
  std::vector<float> fraction;
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
  // Whether the AVX-512 resampling and transposition run where the CPU has AVX-512 (the default),
  // or the portable loops everywhere (tests compare both). Between frames.
  void allowAvx512(bool allowed);

 private:
  // One A-scan's line into its shaped spectrum (interleaved complex), windowed where avx512_.
  void resample(const float* line, float* out) const;
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
  // Per chunk: raw - background, padded by 1 and 2, then room for the last resampling window.
  std::vector<std::vector<float>> lines_;
  std::vector<std::vector<float>> tiles_;  // per chunk: [kTileColumns][tileStride_] dB
  std::size_t tileStride_ = 0;
  std::vector<std::uint32_t> meanSums_;  // meanSpectrum's per-worker sums             // depths,
                                         // rounded up to an odd number of cache lines
  ResamplingTaps taps_;
  float dbOffset_ = 0, floorSquared_ = 0;  // decibels(): 20 log10(N) and (floor N)^2
  std::size_t variant_ = 0;
  bool avx512_ = false;  // this CPU runs the windowed resampling and the tile transposition
  bool avx512Allowed_ = true;
  process::cpu::FftwPlan batchPlan_;  // "separate": kTileColumns transforms of one buffer
  std::vector<process::cpu::FftwArray<fftwf_complex>> batches_;  // per chunk, kTileColumns A-scans
};

}  // namespace cineflow::oct::cpu
