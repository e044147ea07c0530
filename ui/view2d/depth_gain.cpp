#include "view2d/depth_gain.hpp"

#include <algorithm>
#include <cmath>

#include <QStringList>

namespace cineflow::ui {

double DepthGain::at(double fraction) const {
  const double position = std::clamp(fraction, 0.0, 1.0) * kDepthGainBands - 0.5;
  const int below = std::clamp(static_cast<int>(std::floor(position)), 0, kDepthGainBands - 1);
  const int above = std::min(below + 1, kDepthGainBands - 1);
  const double t = std::clamp(position - below, 0.0, 1.0);
  return db[static_cast<std::size_t>(below)] +
         t * (db[static_cast<std::size_t>(above)] - db[static_cast<std::size_t>(below)]);
}

bool DepthGain::isFlat() const {
  return std::all_of(db.begin(), db.end(), [](double g) { return g == 0.0; });
}

QString DepthGain::toText() const {
  QStringList parts;
  for (const double g : db) {
    parts << QString::number(g, 'g', 6);
  }
  return parts.join(QLatin1Char(' '));
}

std::optional<DepthGain> DepthGain::fromText(const QString& text) {
  const QStringList parts = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
  if (parts.size() != kDepthGainBands) {
    return std::nullopt;
  }
  DepthGain gain;
  for (int k = 0; k < kDepthGainBands; ++k) {
    bool ok = false;
    const double g = parts[k].toDouble(&ok);
    if (!ok || !(std::abs(g) <= kMaxDepthGainDb)) {
      return std::nullopt;
    }
    gain.db[static_cast<std::size_t>(k)] = g;
  }
  return gain;
}

}  // namespace cineflow::ui
