#include "common/colour_maps.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include <QCoreApplication>

namespace cineflow::ui {
namespace {

struct ControlColour {
  double level;  // 0..1
  double red, green, blue;
};

// Each list rises in lightness from the first to the last colour, so brighter echoes always look
// brighter whatever the hue.
constexpr ControlColour kSepia[] = {
    {0.00, 0.00, 0.00, 0.00}, {0.25, 0.24, 0.12, 0.05}, {0.50, 0.52, 0.33, 0.18},
    {0.75, 0.80, 0.62, 0.42}, {1.00, 1.00, 0.94, 0.82},
};
constexpr ControlColour kViridisLike[] = {
    {0.00, 0.27, 0.01, 0.33}, {0.20, 0.25, 0.24, 0.53}, {0.40, 0.17, 0.43, 0.56},
    {0.60, 0.13, 0.60, 0.53}, {0.80, 0.42, 0.80, 0.37}, {1.00, 0.99, 0.91, 0.15},
};

std::uint8_t toByte(double value) {
  return static_cast<std::uint8_t>(std::lround(std::clamp(value, 0.0, 1.0) * 255.0));
}

ColourTable interpolate(std::span<const ControlColour> controls) {
  ColourTable table{};
  for (int index = 0; index < kColourTableSize; ++index) {
    const double level = index / double(kColourTableSize - 1);
    std::size_t upper = 1;
    while (upper + 1 < controls.size() && controls[upper].level < level) {
      ++upper;
    }
    const ControlColour& a = controls[upper - 1];
    const ControlColour& b = controls[upper];
    const double t = std::clamp((level - a.level) / (b.level - a.level), 0.0, 1.0);
    const auto entry = static_cast<std::size_t>(3 * index);
    table[entry] = toByte(a.red + t * (b.red - a.red));
    table[entry + 1] = toByte(a.green + t * (b.green - a.green));
    table[entry + 2] = toByte(a.blue + t * (b.blue - a.blue));
  }
  return table;
}

}  // namespace

ColourTable colourTable(ColourMap map) {
  switch (map) {
    case ColourMap::Sepia:
      return interpolate(kSepia);
    case ColourMap::Viridis:
      return interpolate(kViridisLike);
    case ColourMap::Grey:
      break;
  }
  ColourTable table{};
  for (int index = 0; index < kColourTableSize; ++index) {
    const auto entry = static_cast<std::size_t>(3 * index);
    table[entry] = table[entry + 1] = table[entry + 2] = static_cast<std::uint8_t>(index);
  }
  return table;
}

QString colourMapName(ColourMap map) {
  switch (map) {
    case ColourMap::Sepia:
      return QCoreApplication::translate("ColourMap", "Sepia");
    case ColourMap::Viridis:
      return QCoreApplication::translate("ColourMap", "Viridis");
    case ColourMap::Grey:
      break;
  }
  return QCoreApplication::translate("ColourMap", "Grey");
}

}  // namespace cineflow::ui
