#pragma once
// Display controls for the B-mode image: gain (the dB value shown as white) and dynamic range
// (the dB span from black to white). Whole-dB sliders with their values beside them.

#include <QWidget>

class QLabel;
class QSlider;

namespace cineflow::ui {

class DisplayControls : public QWidget {
  Q_OBJECT

 public:
  explicit DisplayControls(QWidget* parent = nullptr);

  double gainDb() const;
  double dynamicRangeDb() const;
  // The gain slider's span; images are absolute dB, so the useful span depends on the source.
  void setGainRange(double minimumDb, double maximumDb);

 public slots:
  void setGainDb(double gainDb);
  void setDynamicRangeDb(double dynamicRangeDb);

 signals:
  void gainChanged(double gainDb);
  void dynamicRangeChanged(double dynamicRangeDb);

 private:
  QSlider* gainSlider_;
  QLabel* gainValue_;
  QSlider* dynamicRangeSlider_;
  QLabel* dynamicRangeValue_;
};

}  // namespace cineflow::ui
