#pragma once
// OpenIGTLink IMAGE messages of Cineflow's images and volumes, packed with Debian's
// libOpenIGTLink (protocol version 1 headers, which every peer reads: 3D Slicer's OpenIGTLinkIF,
// PLUS, MITK).
//
// Physical units, millimetres, in one right-handed frame (OpenIGTLink's RAS):
//   i (columns)  lateral x              -> +R   (1, 0, 0)
//   j (rows)     depth z, downwards     -> -S   (0, 0, -1)
//   k (slices)   elevation y            -> +A   (0, 1, 0)
// Spacing (dx, dz, dy) in mm; the message's origin is the image's centre (OpenIGTLink's
// convention): ((x0 + (nx-1) dx/2), y_c, -(z0 + (nz-1) dz/2)) in mm, with y_c the middle slice's
// elevation (0 for a 2-D image). A flow image sends its intensity layer.
//
// Pixels, as the server is told:
//   Display8  uint8, the display's mapping: floor(clamp((dB - (gain - range)) 255 / range, 0, 255))
//   FloatDb   float32, the dB values as computed
// The timestamp is the time of sending (the engine's frame times are on a steady clock).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "process/image_geometry.hpp"

namespace cineflow::link {

enum class LinkPixels { Display8, FloatDb };

struct DisplayMapping {
  double gainDb = 0.0;           // the brightest level
  double dynamicRangeDb = 60.0;  // from black to the brightest (> 0)
};

// What one IMAGE message carries.
struct LinkImage {
  process::ImageGeometry geometry;  // x and z axes (metres)
  int slices = 1;                   // ny: 1 for an image, the volume's slices otherwise
  double elevationStartM = 0;       // the first slice's y
  double elevationStepM = 0;        // between slices (0 for one slice: 1 mm is sent)
  std::span<const float> dB;        // [slices][nz][nx], intensity only
};

// The message packed, ready to send (header and body). Throws std::invalid_argument for an
// empty or inconsistent image.
std::vector<std::uint8_t> packImage(const std::string& deviceName, const LinkImage& image,
                                    LinkPixels pixels, const DisplayMapping& mapping);

// A STATUS message: code 1 (OK) with `text` ("imaging started", "imaging stopped"), or code 13
// (not ready) when `ready` is false.
std::vector<std::uint8_t> packStatus(const std::string& deviceName, bool ready,
                                     const std::string& text);

// floor(clamp((dB - (gain - range)) * 255 / range, 0, 255)), as the display and its exports map.
std::uint8_t displayLevel(float dB, const DisplayMapping& mapping);

}  // namespace cineflow::link
