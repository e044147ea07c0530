#pragma once
// The time-gain compensation sliders (depth_gain.hpp), as on a scanner's console: one vertical
// slider per depth band, the shallowest on the left, each -20 .. +20 dB in whole dB with its value
// under it, and Reset (all to 0). Changes apply as the slider moves.

#include <array>

#include <QWidget>

#include "view2d/depth_gain.hpp"

class QLabel;
class QSlider;

namespace cineflow::ui {

class DepthGainControls : public QWidget {
  Q_OBJECT

 public:
  explicit DepthGainControls(QWidget* parent = nullptr);

  DepthGain depthGain() const { return gain_; }
  QSlider& slider(int band) { return *sliders_[static_cast<std::size_t>(band)]; }

 public slots:
  // Shows `gain` (rounded to whole dB on the sliders, kept exact) and emits depthGainChanged
  // when it differs.
  void setDepthGain(const cineflow::ui::DepthGain& gain);

 signals:
  void depthGainChanged(const cineflow::ui::DepthGain& gain);

 private:
  void showValues();

  DepthGain gain_;
  std::array<QSlider*, kDepthGainBands> sliders_{};
  std::array<QLabel*, kDepthGainBands> values_{};
  bool showing_ = false;  // moving the sliders to show a gain: not the operator's change
};

}  // namespace cineflow::ui
