#pragma once
// The "auto" dispersion: the a2 and a3 (oct_params.hpp) that make one B-scan sharpest. Sharpness
// is sum(I^2) / sum(I)^2 over the image's intensities I = |X|^2 (energy concentrated in fewer
// pixels scores higher; a dispersed point-spread function spreads it). a2 is found first (a grid
// over [-a2Range, a2Range], then golden-section search around the best point), then a3 the same
// way with a2 fixed. Runs the CPU chain on every `ascanStep`-th A-scan, on the calling thread
// (and the CPU pool): about a second for a 2048 x 512 B-scan.

#include <cstdint>
#include <span>
#include <vector>

#include "acquire/frame_source.hpp"
#include "oct/oct_acquisition.hpp"
#include "oct/oct_params.hpp"

namespace cineflow::oct {

struct DispersionEstimate {
  double a2 = 0;
  double a3 = 0;
  double sharpness = 0;  // at (a2, a3)
};

// `bscan` holds one raw frame of `acquisition` ([ascans][samples]); `base` gives everything but
// the dispersion (its dispersionCentreM is the centre the estimate is stated about). The ranges
// are clamped to dispersionLimits(). Throws std::invalid_argument for a frame of the wrong size
// or parameters that cannot image the acquisition.
DispersionEstimate searchDispersion(const OctAcquisition& acquisition, const OctParams& base,
                                    std::span<const std::uint16_t> bscan, double a2Range = 300.0,
                                    double a3Range = 150.0, int ascanStep = 4);
// The B-scan to search on: the middle frame of `source` (an OCT source) (frameCount() / 2: a volume
// scan's pass through the sample's centre). Throws acquire::SourceError from the read.
std::vector<std::uint16_t> middleBscan(acquire::FrameSource& source);

}  // namespace cineflow::oct
