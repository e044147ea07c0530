#pragma once
// The line profile: dB values of an image along a segment the operator drags across it, the peak,
// and the width where the profile stays within 6 dB of the peak (the -6 dB width, i.e. the FWHM of
// the echo amplitude), the standard measure of resolution on a point target.

#include <optional>
#include <span>
#include <vector>

#include "common/display_geometry.hpp"

namespace cineflow::ui {

struct LineProfile {
  PhysicalPoint from, to;
  std::vector<double> distanceM;  // along the segment from `from`, increasing
  std::vector<double> db;         // bilinear samples of the image there
  double peakDb = 0;
  double peakDistanceM = 0;
  // Where the profile first falls 6 dB below the peak on each side (linear interpolation between
  // samples); the width is their distance. Empty when either side never falls that far.
  std::optional<double> widthM;
  // An image with flow: the velocity (m/s) at the nearest pixel of each sample (NaN where none
  // was estimated), and the aliasing velocity; empty otherwise.
  std::vector<double> velocity;
  double aliasingVelocity = 0;
  bool empty() const { return db.empty(); }
};

// Samples `pixels` ([nz][nx] dB laid out as `geometry`, its intensity layer) along the segment
// every half of the finer pixel pitch, bilinearly; points outside the image are left out; and
// `velocity` (the flow's velocity layer, when not empty) at the nearest pixel. Empty when the
// segment misses the image, or the pixels do not match the geometry.
LineProfile sampleLine(std::span<const float> pixels, const process::ImageGeometry& geometry,
                       PhysicalPoint from, PhysicalPoint to, std::span<const float> velocity = {});

// The width of the lobe around index `peak` where `db` stays above db[peak] - drop, in the units
// of `distance`; empty when the profile does not fall that far on both sides.
std::optional<double> widthBelowPeak(std::span<const double> distance, std::span<const double> db,
                                     std::size_t peak, double dropDb = 6.0);

}  // namespace cineflow::ui
