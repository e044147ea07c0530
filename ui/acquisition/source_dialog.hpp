#pragma once
// "Lab source": where an operator chooses a source that is not built in. Lists the source plugins
// found in the plugin folders (acquire/plugin_library.hpp), each with its summary and its
// parameters as a generated form (PluginParameterForm), plugins that were refused with the
// reason, and the network stream (frames a sender pushes over ZeroMQ) with the endpoint to listen
// on. spec() is what EngineController::open() takes: "plugin:PATH#{...}" or "zmq:ENDPOINT".

#include <memory>
#include <vector>

#include <QDialog>
#include <QString>

#include "acquire/plugin_library.hpp"

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

  acquire::PluginListing listing_;
  std::vector<PluginParameterForm*> forms_;  // one per plugin, in the list's order
  QListWidget* list_ = nullptr;
  QStackedWidget* pages_ = nullptr;
  QLineEdit* endpoint_ = nullptr;
};

}  // namespace cineflow::ui
