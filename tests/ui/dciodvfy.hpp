#pragma once
// What dicom3tools' dciodvfy finds wrong with a DICOM file: its "Error" and "Warning" lines (none
// for a file that conforms to its IOD). dciodvfy is installed by packaging/install-deps.sh.
// Header-only, like sim_window.hpp.

#include <QProcess>
#include <QString>
#include <QStringList>

namespace cineflow::test {

inline QStringList dciodvfyFindings(const QString& path) {
  QProcess run;
  run.start(QStringLiteral("dciodvfy"), {path});
  if (!run.waitForFinished(60'000)) {
    return {QStringLiteral("dciodvfy did not run (install dicom3tools): ") + run.errorString()};
  }
  QStringList findings;
  const QString output =
      QString::fromLocal8Bit(run.readAllStandardError() + run.readAllStandardOutput());
  for (const QString& line : output.split(QLatin1Char('\n'))) {
    if (line.startsWith(QLatin1String("Error")) || line.startsWith(QLatin1String("Warning"))) {
      findings << line;
    }
  }
  return findings;
}

}  // namespace cineflow::test
