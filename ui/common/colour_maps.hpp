#pragma once
// Colour maps for the B-mode display: 256-entry RGB tables indexed by the display level (0 = the
// bottom of the dynamic range, 255 = the gain). The fragment shader samples them from a 256x1
// texture, so switching maps costs one small upload and a repaint. Tables are generated here
// (piecewise-linear through a few control colours chosen for a steadily rising lightness), not read
// from third-party files.

#include <array>
#include <cstdint>

#include <QString>

namespace cineflow::ui {

enum class ColourMap {
  Grey,     // the default: R = G = B
  Sepia,    // black through warm browns to cream, as on many scanners' "tint" settings
  Viridis,  // dark blue-violet through teal to yellow, a perceptually even viridis-like map
};

inline constexpr std::array<ColourMap, 3> kColourMaps = {ColourMap::Grey, ColourMap::Sepia,
                                                         ColourMap::Viridis};
inline constexpr int kColourTableSize = 256;
using ColourTable = std::array<std::uint8_t, 3 * kColourTableSize>;  // R, G, B per entry

ColourTable colourTable(ColourMap map);
// The name shown to the operator (translatable).
QString colourMapName(ColourMap map);

}  // namespace cineflow::ui
