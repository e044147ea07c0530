#pragma once
// Display controls for the B-mode image: gain and dynamic range (the dB span from black to white)
// as whole-dB sliders with their values beside them, and the colour map. The gain slider reads as
// on a scanner: right is more gain and a brighter image; its label is the gain relative to the
// level suggested for the source ("+0 dB" when opened). gainDb() and gainChanged() carry the
// white level the view takes (docs/ultrasound.md): more gain is a lower white level.

#include <QWidget>

#include "common/colour_maps.hpp"

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
  // The white level suggested for a new source (images are absolute dB, so the useful span
  // depends on it): the gain returns to it, reads +0 dB there, and spans `belowDb` under it (more
  // gain) and `aboveDb` over it (less).
  void setSuggestedGain(double whiteDb, double belowDb, double aboveDb);
  // The gain as the label reads it: the suggested white level minus the one in effect.
  double relativeGainDb() const;

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
  double suggestedWhiteDb_ = 0.0;
};

}  // namespace cineflow::ui
