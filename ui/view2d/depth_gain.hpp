#pragma once
// Time-gain compensation as a scanner's console has it: kDepthGainBands sliders, each a gain in dB
// at one depth of the image shown, top to bottom. A display setting like the gain: the image keeps
// its dB values (measurements, HDF5 exports and volumes read them unchanged); what is shown and
// exported as a picture (PNG, MP4, DICOM) adds, at each row, the gain interpolated at its depth.
//
// Band k sits at depth fraction (k + 0.5) / kDepthGainBands of the image's depth extent; between
// two bands the gain is linear, above the first and below the last it is theirs. The same rule is
// written once more in GLSL (shaders/bmode.frag) and checked against this one by
// test_operator_walk.

#include <array>
#include <optional>

#include <QString>

namespace cineflow::ui {

inline constexpr int kDepthGainBands = 8;
inline constexpr double kMaxDepthGainDb = 20.0;  // each band in [-20, +20] dB

struct DepthGain {
  std::array<double, kDepthGainBands> db{};  // all 0: no compensation

  // The gain at `fraction` of the depth extent (0: the image's first row, 1: its last).
  double at(double fraction) const;
  bool isFlat() const;
  // "0 0 2.5 5 ..." (settings) and back; nullopt for text that is not kDepthGainBands numbers
  // in range.
  QString toText() const;
  static std::optional<DepthGain> fromText(const QString& text);
  bool operator==(const DepthGain&) const = default;
};

}  // namespace cineflow::ui
