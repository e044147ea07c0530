#include "view2d/flow_display.hpp"

#include <algorithm>
#include <cmath>

namespace cineflow::ui {
namespace {

// Piecewise linear through three colours at 0, 1/2 and 1 (as the shader's mix()).
QRgb ramp(double t, const double (&a)[3], const double (&b)[3], const double (&c)[3]) {
  t = std::clamp(t, 0.0, 1.0);
  double rgb[3];
  for (int i = 0; i < 3; ++i) {
    rgb[i] = t < 0.5 ? a[i] + (b[i] - a[i]) * (t * 2) : b[i] + (c[i] - b[i]) * (t * 2 - 1);
  }
  const auto byte = [](double v) {
    return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255));
  };
  return qRgb(byte(rgb[0]), byte(rgb[1]), byte(rgb[2]));
}

constexpr double kTowardsDark[3] = {0.35, 0.0, 0.0};
constexpr double kTowardsMid[3] = {1.0, 0.1, 0.0};
constexpr double kTowardsFast[3] = {1.0, 0.95, 0.2};
constexpr double kAwayDark[3] = {0.0, 0.0, 0.4};
constexpr double kAwayMid[3] = {0.1, 0.3, 1.0};
constexpr double kAwayFast[3] = {0.3, 0.95, 1.0};
constexpr double kPowerDark[3] = {0.3, 0.0, 0.0};
constexpr double kPowerMid[3] = {1.0, 0.45, 0.0};
constexpr double kPowerBright[3] = {1.0, 1.0, 0.75};

}  // namespace

QRgb velocityColour(double ratio) {
  ratio = std::clamp(ratio, -1.0, 1.0);
  return ratio >= 0 ? ramp(ratio, kTowardsDark, kTowardsMid, kTowardsFast)
                    : ramp(-ratio, kAwayDark, kAwayMid, kAwayFast);
}

QRgb powerColour(double level) {
  return ramp(level, kPowerDark, kPowerMid, kPowerBright);
}

bool flowShows(const FlowLook& look, double powerDb, double bmodeLevel, double blackDb) {
  return look.map != FlowMap::Off && std::isfinite(powerDb) &&
         powerDb >= blackDb + look.powerThresholdDb && bmodeLevel <= look.priority;
}

QRgb compositeFlow(const FlowLook& look, QRgb bmode, double bmodeLevel, double blackDb,
                   double velocity, double powerDb, double aliasingVelocity) {
  if (!flowShows(look, powerDb, bmodeLevel, blackDb)) {
    return bmode;
  }
  if (look.map == FlowMap::Power) {
    return powerColour((powerDb - blackDb - look.powerThresholdDb) / look.powerRangeDb);
  }
  if (!std::isfinite(velocity) || !(aliasingVelocity > 0)) {
    return bmode;
  }
  return velocityColour(velocity / aliasingVelocity);
}

}  // namespace cineflow::ui
