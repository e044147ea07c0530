#include "common/file_dialogs.hpp"

#include <QDir>
#include <QFileInfo>

#include "common/app_settings.hpp"

namespace cineflow::ui {
namespace {

const QString kAnyKind = QStringLiteral("any");

QString keyOf(const QString& kind) {
  return QStringLiteral("folders/") + kind;
}

// `suggested` inside the remembered folder when it names no folder of its own.
QString startingPath(const char* kind, const QString& suggested) {
  if (!suggested.isEmpty() && (QFileInfo(suggested).isAbsolute() || suggested.contains('/'))) {
    return suggested;
  }
  const QString folder = rememberedFolder(kind);
  return suggested.isEmpty() ? folder : QDir(folder).filePath(suggested);
}

}  // namespace

QString rememberedFolder(const char* kind) {
  const auto settings = openAppSettings();
  for (const QString& key : {keyOf(QString::fromLatin1(kind)), keyOf(kAnyKind)}) {
    const QString folder = settings->value(key).toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir()) {
      return folder;
    }
  }
  return QDir::homePath();
}

void rememberFolder(const char* kind, const QString& path, bool isFolder) {
  if (path.isEmpty()) {
    return;
  }
  const QString folder = isFolder ? QDir(path).absolutePath() : QFileInfo(path).absolutePath();
  const auto settings = openAppSettings();
  settings->setValue(keyOf(QString::fromLatin1(kind)), folder);
  settings->setValue(keyOf(kAnyKind), folder);
}

QString askOpenFile(QWidget* parent, const char* kind, const QString& caption,
                    const QString& filter) {
  const QString path =
      QFileDialog::getOpenFileName(parent, caption, rememberedFolder(kind), filter);
  rememberFolder(kind, path);
  return path;
}

QString askSaveFile(QWidget* parent, const char* kind, const QString& caption,
                    const QString& suggestedName, const QString& filter, QString* selectedFilter,
                    QFileDialog::Options options) {
  const QString path = QFileDialog::getSaveFileName(
      parent, caption, startingPath(kind, suggestedName), filter, selectedFilter, options);
  rememberFolder(kind, path);
  return path;
}

QString askFolder(QWidget* parent, const char* kind, const QString& caption, const QString& start) {
  const QString folder = QFileDialog::getExistingDirectory(
      parent, caption, start.isEmpty() ? rememberedFolder(kind) : start);
  rememberFolder(kind, folder, true);
  return folder;
}

}  // namespace cineflow::ui
