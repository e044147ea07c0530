#pragma once
// The arithmetic of the operator's measurements (measurement.hpp) on an image of dB pixels laid
// out as a process::ImageGeometry ([z][x], pixel (i, k) centred at x0 + i dx, z0 + k dz): caliper
// distances, the area and perimeter of ellipses and free-hand outlines, the statistics of the
// pixels a region holds, and the contrast of a target region against a background region.
// Pure functions of physical points (metres) and pixels, so that tests check them against values
// computed independently, and the views, the dock and the exports share one definition.
//
// Definitions (those of the ultrasound image-quality literature):
//   region pixels   the pixels whose centres lie inside the region; NaN pixels are left out
//   mean, std (dB)  of those pixels' dB values (std: population, divided by n)
//   amplitude       10^(dB / 20), the envelope the log compression turned into dB
//   contrast (dB)   20 log10(mean target amplitude / mean background amplitude)
//   CNR             |mean_t - mean_b| / sqrt(std_t^2 + std_b^2) of the amplitudes
//   gCNR            1 - the overlap of the two regions' histograms (Rodriguez-Molares et al.,
//                   IEEE TUFFC 2020): 0 when the distributions are the same, 1 when no value of
//                   one occurs in the other. The histograms share bins even in dB: the overlap
//                   does not depend on a monotonic transform, and dB bins resolve speckle's
//                   long tails better than bins even in amplitude.

#include <cstddef>
#include <span>
#include <vector>

#include "common/display_geometry.hpp"
#include "process/image_geometry.hpp"

namespace cineflow::ui {

double distanceM(PhysicalPoint a, PhysicalPoint b);

// A closed region of the image plane: an ellipse with axes along x and z, or a polygon (the
// free-hand outline, closed from its last vertex back to the first).
struct Region {
  enum class Shape { Ellipse, Polygon };
  Shape shape = Shape::Ellipse;
  PhysicalPoint centre;                 // ellipse
  double semiXM = 0, semiZM = 0;        // ellipse
  std::vector<PhysicalPoint> vertices;  // polygon

  static Region ellipse(PhysicalPoint centre, double semiXM, double semiZM);
  // The ellipse inscribed in the box with corners `a` and `b` (as the operator drags it).
  static Region ellipseInBox(PhysicalPoint a, PhysicalPoint b);
  static Region polygon(std::vector<PhysicalPoint> vertices);

  bool contains(PhysicalPoint p) const;
  double areaM2() const;
  // The ellipse's by Ramanujan's second approximation (relative error 3.3e-8 at an axis ratio of
  // 3, at most 4e-5, for a line), the polygon's exactly.
  double perimeterM() const;
  // Empty: an ellipse with a zero semi-axis, a polygon of fewer than 3 vertices.
  bool empty() const;
};

struct RegionStats {
  std::size_t pixels = 0;
  double meanDb = 0, stdDb = 0;
  double meanAmplitude = 0, stdAmplitude = 0;
};

// The dB values of the pixels inside `region`, row by row. Empty when `pixels` does not match
// `geometry` or the region holds no pixel centre.
std::vector<float> regionValues(std::span<const float> pixels,
                                const process::ImageGeometry& geometry, const Region& region);
RegionStats statsOf(std::span<const float> valuesDb);

struct ContrastResult {
  RegionStats target, background;
  double contrastDb = 0;
  double cnr = 0;
  double gcnr = 0;
};
// Zeros with both RegionStats empty when either region holds no pixel.
ContrastResult contrastOf(std::span<const float> pixels, const process::ImageGeometry& geometry,
                          const Region& target, const Region& background);

// gCNR of two sets of dB values: their histograms over the range both span, in
// `bins` bins (0: the square root of the smaller set's size, at least 16, at most 256).
double generalisedCnr(std::span<const float> targetDb, std::span<const float> backgroundDb,
                      int bins = 0);

}  // namespace cineflow::ui
