#include "common/app_settings.hpp"

#include <QString>
#include <QtGlobal>

namespace cineflow::ui {

std::unique_ptr<QSettings> openAppSettings() {
  const QString path = qEnvironmentVariable(kSettingsPathVariable);
  if (!path.isEmpty()) {
    return std::make_unique<QSettings>(path, QSettings::IniFormat);
  }
  return std::make_unique<QSettings>(QStringLiteral("Cineflow"), QStringLiteral("Cineflow"));
}

}  // namespace cineflow::ui
