#include "volumes/volume_file_names.hpp"

#include <QDir>
#include <QFileInfo>

namespace cineflow::ui {

QString volumeFileName(const QString& modality, std::uint64_t number) {
  const QString stem = modality.isEmpty() ? QStringLiteral("volume") : modality + "_volume";
  return QStringLiteral("%1_%2.h5").arg(stem).arg(number, 6, 10, QLatin1Char('0'));
}

QString freeVolumePath(const QString& folder, const QString& fileName,
                       const std::function<bool(const QString&)>& taken) {
  const QDir dir(QDir::cleanPath(QDir(folder).absolutePath()));
  const QFileInfo name(fileName);
  QString path = dir.filePath(fileName);
  for (int copy = 2; QFileInfo::exists(path) || taken(path); ++copy) {
    path = dir.filePath(
        QStringLiteral("%1_%2.%3").arg(name.completeBaseName()).arg(copy).arg(name.suffix()));
  }
  return path;
}

}  // namespace cineflow::ui
