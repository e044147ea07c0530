#pragma once
// Acquisition > OpenIGTLink: serves the live image to 3D Slicer (OpenIGTLinkIF), PLUS or MITK
// (link/igtl_server.hpp). A checkable group: ticked, the server listens on the port (18944,
// OpenIGTLink's own, by default), on every interface or this machine only, sending 8-bit levels
// as displayed or float dB; unticked, it stops. A port that cannot be taken unticks it and says
// why. The line under it counts clients and images, and the images slow clients skipped. The
// port, the pixels and "this machine only" are kept in the settings (igtl/*); serving is not
// (a restart never opens a port unasked).

#include <QGroupBox>

#include "link/igtl_image.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace cineflow::ui {

class EngineController;

class IgtlPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit IgtlPanel(EngineController& controller, QWidget* parent = nullptr);

  // Starts serving as the command line asks (--igtl-port): "" or why it could not.
  QString serve(int port, link::LinkPixels pixels, bool thisMachineOnly);
  bool serving() const;
  QString statusText() const;

 signals:
  void messageReady(const QString& message, bool isError);

 private:
  void apply();
  void showStats();

  EngineController& controller_;
  QSpinBox* port_ = nullptr;
  QComboBox* pixels_ = nullptr;
  QCheckBox* localOnly_ = nullptr;
  QLabel* status_ = nullptr;
  bool applying_ = false;
};

}  // namespace cineflow::ui
