#pragma once
// How colour and power Doppler are shown over the B-mode (issue 20), on screen (the fragment
// shader shaders/bmode.frag) and in exports (frame_picture.hpp): the same rules, written once here
// for the CPU and once in GLSL, and checked against each other by test_flow_display.
//
//   priority   a pixel shows flow when its flow power lies at least `powerThresholdDb` above the
//              B-mode's black level (gain - dynamic range) and its B-mode display level is at most
//              `priority` (0..1; 1: flow wins everywhere it is strong enough); NaN flow (outside
//              the colour box, no estimate yet) never shows
//   colour     velocity / aliasing velocity in [-1, 1] through the red-blue map: towards the probe
//              (positive) dark red -> red -> yellow, away dark blue -> blue -> cyan
//   power      (power - threshold level) over `powerRangeDb` through a dark red -> orange ->
//              yellow -> white map
//
// The operator's settings (threshold, priority, range) live in FlowLook; the aliasing velocity
// comes with the image (process::ImageGeometry::aliasingVelocity).

#include <QColor>
#include <QRgb>

namespace cineflow::ui {

enum class FlowMap { Off, Velocity, Power };

struct FlowLook {
  FlowMap map = FlowMap::Off;
  // Above the B-mode's black level. At the suggested gain (suggestGainDb, 60 dB range) the flow
  // simulator's vessel shows over 80 % of its core and its static tissue under 5 % (checked by
  // test_operator_walk); 15 dB hid half the vessel.
  double powerThresholdDb = 8.0;
  double priority = 1.0;       // B-mode display level (0..1) above which tissue wins
  double powerRangeDb = 30.0;  // the power map's span above the threshold
  bool operator==(const FlowLook&) const = default;
};

// The velocity map at v / v_aliasing (clamped to [-1, 1]).
QRgb velocityColour(double ratio);
// The power map at `level` (clamped to [0, 1]).
QRgb powerColour(double level);
// Whether flow of `powerDb` shows over a B-mode pixel of display level `bmodeLevel` (0..1) with
// the display's black level `blackDb`.
bool flowShows(const FlowLook& look, double powerDb, double bmodeLevel, double blackDb);
// The colour a pixel gets: `bmode` (the grey map's colour) or the flow's.
QRgb compositeFlow(const FlowLook& look, QRgb bmode, double bmodeLevel, double blackDb,
                   double velocity, double powerDb, double aliasingVelocity);

}  // namespace cineflow::ui
