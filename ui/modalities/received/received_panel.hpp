#pragma once
// The received modality's panel in the acquisition dock, shown while a received source is open
// (an OpenIGTLink server's images, a recording of them): what arrives (the sender's device, the
// image's size, pixel type and spacing), and how pixel values become the displayed image: the
// pixel levels shown black and white (the display's gain and range then work as on Cineflow's own
// images), or the values as dB (float images that are decibels already). Changes apply live
// through EngineController::setSettings; a refusal is shown with the reason.

#include <QGroupBox>

#include "received/received_format.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace cineflow::ui {

class EngineController;

class ReceivedPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit ReceivedPanel(EngineController& controller, QWidget* parent = nullptr);
  // The controls from the levels in effect.
  void load();
  // The levels in effect (the source's defaults until set).
  received::ReceivedLevels levels() const;
  // Applies `levels`; returns the engine's refusal, or "".
  QString apply(const received::ReceivedLevels& levels);

  QComboBox& mappingBox() { return *mapping_; }
  QDoubleSpinBox& blackBox() { return *black_; }
  QDoubleSpinBox& whiteBox() { return *white_; }
  QString message() const;

 private:
  void onSourceOpened();
  void applyControls();

  EngineController& controller_;
  QLabel* what_ = nullptr;
  QComboBox* mapping_ = nullptr;
  QDoubleSpinBox* black_ = nullptr;
  QDoubleSpinBox* white_ = nullptr;
  QLabel* message_ = nullptr;
  bool loading_ = false;
};

}  // namespace cineflow::ui
