#pragma once
// "Lab source": where an operator chooses a source that is not built in. Lists the source plugins
// found in the plugin folders (acquire/plugin_library.hpp), each with its summary and its
// parameters as a generated form (PluginParameterForm), plugins that were refused with the
// reason, the network stream (frames a sender pushes over ZeroMQ) with the endpoint to listen
// on, and the GenICam cameras found (listed when that page is first shown: a discovery takes about
// a second) with the description file of the spectrometer's geometry. spec() is what
// EngineController::open() takes: "plugin:PATH#{...}", "zmq:ENDPOINT" or "genicam://ID#FILE".

#include <memory>
#include <vector>

#include <QDialog>
#include <QString>

#include "acquire/plugin_library.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QStackedWidget;

namespace cineflow::ui {

class PluginParameterForm;

class SourceDialog : public QDialog {
  Q_OBJECT

 public:
  explicit SourceDialog(QWidget* parent = nullptr);

  // The chosen source, once accepted.
  QString spec() const;

 private:
  QWidget* createNetworkPage();
  QWidget* createCameraPage();
  int cameraRow() const;
  void listCameras();

  acquire::PluginListing listing_;
  std::vector<PluginParameterForm*> forms_;  // one per plugin, in the list's order
  QListWidget* list_ = nullptr;
  QStackedWidget* pages_ = nullptr;
  QLineEdit* endpoint_ = nullptr;
  QComboBox* cameras_ = nullptr;
  QLineEdit* description_ = nullptr;
  QLabel* cameraStatus_ = nullptr;
  bool camerasListed_ = false;
};

}  // namespace cineflow::ui
