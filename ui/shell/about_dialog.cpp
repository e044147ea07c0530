#include "shell/about_dialog.hpp"

#include <QMessageBox>
#include <QtGlobal>

#include "bridge/engine_controller.hpp"

namespace cineflow::ui {

QString aboutText(const EngineController& controller) {
  return QObject::tr(
             "<h3>Cineflow %1</h3>"
             "<p>Live ultrasound plane-wave imaging workstation.</p>"
             "<p>Compute backend: %2<br>Qt: %3 (built with %4)</p>")
      .arg(QStringLiteral(CINEFLOW_VERSION), controller.backendDescription().toHtmlEscaped(),
           QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
}

void showAboutDialog(QWidget* parent, const EngineController& controller) {
  QMessageBox::about(parent, QObject::tr("About Cineflow"), aboutText(controller));
}

}  // namespace cineflow::ui
