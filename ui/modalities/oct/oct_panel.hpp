#pragma once
// The OCT modality's parameters in the acquisition dock (oct/oct_params.hpp), shown while an OCT
// source is open (the ultrasound ImagingPanel while an ultrasound one is): background (the
// B-scan's rolling mean, or a reference spectrum captured from the live B-scan, sample removed),
// k-linearisation and interpolation, dispersion a2 and a3 with live sliders and an Auto button
// (the sharpest image of the live B-scan, oct/dispersion_search.hpp), the spectral window, the
// depth range and the sample's refractive index. Every change applies live through
// EngineController::setSettings; a refusal is shown with the reason and the controls go back to
// what is in effect.

#include <QGroupBox>
#include <QString>

#include "oct/oct_params.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;

namespace cineflow::ui {

class EngineController;

class OctPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit OctPanel(EngineController& controller, QWidget* parent = nullptr);
  // The controls from the parameters in effect (after a preset changed them).
  void load();

  // The controls, for tests.
  QSlider& a2Slider() { return *a2Slider_; }
  QDoubleSpinBox& a2Box() { return *a2_; }
  QDoubleSpinBox& a3Box() { return *a3_; }
  QPushButton& autoDispersionButton() { return *autoDispersion_; }
  QPushButton& captureReferenceButton() { return *captureReference_; }
  QComboBox& windowBox() { return *window_; }
  // Empty while the parameters shown are in effect; otherwise why not (or what Auto found).
  QString message() const;

  // Auto: the sharpest a2 and a3 for the live B-scan, applied. Returns false (with the reason in
  // message()) when no B-scan came (not acquiring).
  bool autoDispersion();
  // Captures the live B-scan's mean spectrum as the reference background and applies it.
  bool captureReference();
  // Resampling from a table file (oct/k_table_file.hpp) or polynomial coefficients typed as
  // "c0, c1, c2, c3", applied. Returns false with the reason in message() (a word that is not a
  // number, a count that does not fit, a table the engine refuses), the previous one in effect.
  bool loadKTable(const QString& path);
  bool setKPolynomial(const QString& text);

 private:
  void onSourceOpened();
  template <class Change>
  void apply(Change change);
  void showMessage(const QString& text, bool isError);
  bool takeBscan(std::vector<std::uint16_t>& bscan);
  void editKLinearisation();  // asks for the table file or the polynomial chosen
  template <class Change>
  bool applyKLinearisation(Change change);

  EngineController& controller_;
  QComboBox* background_ = nullptr;
  QPushButton* captureReference_ = nullptr;
  QComboBox* kLinearisation_ = nullptr;
  QPushButton* editKLinearisation_ = nullptr;
  QComboBox* interpolation_ = nullptr;
  QSlider* a2Slider_ = nullptr;
  QDoubleSpinBox* a2_ = nullptr;
  QSlider* a3Slider_ = nullptr;
  QDoubleSpinBox* a3_ = nullptr;
  QPushButton* autoDispersion_ = nullptr;
  QComboBox* window_ = nullptr;
  QDoubleSpinBox* depthStart_ = nullptr;
  QDoubleSpinBox* depthEnd_ = nullptr;
  QDoubleSpinBox* refractiveIndex_ = nullptr;
  QLabel* message_ = nullptr;
  bool loading_ = false;  // controls being filled from the engine: no apply
};

}  // namespace cineflow::ui
