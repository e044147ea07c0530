#include "export/export_target.hpp"

#include <array>

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QRegularExpression>

namespace cineflow::ui {
namespace {

// Top-level trees of a Linux system that hold the system itself, never an operator's data.
constexpr std::array kSystemTrees = {"/bin",   "/boot",  "/dev",    "/etc",  "/lib",
                                     "/lib32", "/lib64", "/libx32", "/proc", "/run",
                                     "/sbin",  "/srv",   "/sys",    "/usr",  "/var"};
// Inside those, where data may rightly go.
constexpr std::array kDataTrees = {"/run/media", "/var/tmp"};

bool isWithin(const QString& path, const QString& tree) {
  return path == tree || path.startsWith(tree + QLatin1Char('/'));
}

}  // namespace

bool isSystemFolder(const QString& folder) {
  // Symbolic links resolved: "/lib" may point into /usr, a home folder may be a link.
  const QFileInfo info(folder);
  QString path =
      info.exists() ? info.canonicalFilePath() : QDir::cleanPath(info.absoluteFilePath());
  if (path.isEmpty() || path == QStringLiteral("/")) {
    return true;
  }
  for (const char* tree : kDataTrees) {
    if (isWithin(path, QString::fromLatin1(tree))) {
      return false;
    }
  }
  for (const char* tree : kSystemTrees) {
    if (isWithin(path, QString::fromLatin1(tree))) {
      return true;
    }
  }
  return false;
}

QString exportFolderProblem(const QString& folder) {
  if (folder.trimmed().isEmpty()) {
    return QObject::tr("No folder given.");
  }
  const QFileInfo info(folder);
  if (!info.exists()) {
    return QObject::tr("%1 does not exist.").arg(folder);
  }
  if (!info.isDir()) {
    return QObject::tr("%1 is not a folder.").arg(folder);
  }
  if (isSystemFolder(folder)) {
    return QObject::tr("%1 is a system folder; choose a folder of your own.").arg(folder);
  }
  if (!info.isWritable()) {
    return QObject::tr("%1 is not writable.").arg(folder);
  }
  return {};
}

QString exportStem(const QString& recordingDescription, const QDateTime& time) {
  QString name = recordingDescription.section(QLatin1Char(' '), 0, 0);
  static const QRegularExpression extension(QStringLiteral("\\.(h5|hdf5|hdf|mat)$"),
                                            QRegularExpression::CaseInsensitiveOption);
  name.remove(extension);
  static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
  name.replace(unsafe, QStringLiteral("_"));
  while (name.startsWith(QLatin1Char('.'))) {
    name.remove(0, 1);  // no hidden entries
  }
  const QString stamp = time.toString(QStringLiteral("yyyy-MM-dd_HH-mm-ss"));
  return name.isEmpty() ? QStringLiteral("cineloop_%1").arg(stamp)
                        : QStringLiteral("%1_cineloop_%2").arg(name, stamp);
}

QString unusedExportPath(const QString& folder, const QString& stem, const QString& suffix) {
  const QDir dir(folder);
  QString path = dir.filePath(stem + suffix);
  for (int copy = 2; QFileInfo::exists(path); ++copy) {
    path = dir.filePath(QStringLiteral("%1-%2%3").arg(stem).arg(copy).arg(suffix));
  }
  return path;
}

}  // namespace cineflow::ui
