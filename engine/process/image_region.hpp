#pragma once
// A region of an image in physical units and the pixels it covers: what a tool that picks part of
// the image (the colour box of Doppler, a region a modality processes alone) hands the engine.

#include "process/image_geometry.hpp"

namespace cineflow::process {

// A rectangle of the image in metres (x lateral, z depth); empty (x1 <= x0): the whole image.
// (Named for its first use, Doppler's colour box.)
struct ColourBox {
  double x0 = 0, x1 = 0, z0 = 0, z1 = 0;
  bool empty() const { return !(x1 > x0) || !(z1 > z0); }
  bool operator==(const ColourBox&) const = default;
};

// The pixels [ix0, ix1) x [iz0, iz1) of `geometry` whose centres lie in `box` (the whole image
// for an empty box); empty when none does.
struct PixelBox {
  int ix0 = 0, ix1 = 0, iz0 = 0, iz1 = 0;
  int width() const { return ix1 - ix0; }
  int height() const { return iz1 - iz0; }
  bool empty() const { return width() <= 0 || height() <= 0; }
  bool operator==(const PixelBox&) const = default;
};
PixelBox pixelBox(const ColourBox& box, const ImageGeometry& geometry);

}  // namespace cineflow::process
