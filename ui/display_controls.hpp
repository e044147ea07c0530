#pragma once
// Display controls for the B-mode image: gain (the dB value shown as white) and dynamic range
// (the dB span from black to white) as whole-dB sliders with their values beside them, and the
// colour map.

#include <QWidget>

#include "colour_maps.hpp"

class QComboBox;
class QLabel;
class QSlider;

namespace cineflow::ui {

class DisplayControls : public QWidget {
  Q_OBJECT

 public:
  explicit DisplayControls(QWidget* parent = nullptr);

  double gainDb() const;
  double dynamicRangeDb() const;
  ColourMap colourMap() const;
  // The gain slider's span; images are absolute dB, so the useful span depends on the source.
  void setGainRange(double minimumDb, double maximumDb);

 public slots:
  void setGainDb(double gainDb);
  void setDynamicRangeDb(double dynamicRangeDb);
  void setColourMap(cineflow::ui::ColourMap map);

 signals:
  void gainChanged(double gainDb);
  void dynamicRangeChanged(double dynamicRangeDb);
  void colourMapChanged(cineflow::ui::ColourMap map);

 private:
  QSlider* gainSlider_;
  QLabel* gainValue_;
  QSlider* dynamicRangeSlider_;
  QLabel* dynamicRangeValue_;
  QComboBox* colourMapCombo_;
};

}  // namespace cineflow::ui
