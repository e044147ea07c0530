#include "support/run_app.hpp"

#include <QProcess>

#include "support/test_paths.hpp"

namespace cineflow::test {

AppRun runApp(const QStringList& args, int timeoutMs, const QStringList& environment) {
  QProcess process;
  if (!environment.isEmpty()) {
    QProcessEnvironment variables = QProcessEnvironment::systemEnvironment();
    for (const QString& entry : environment) {
      if (entry.contains(QLatin1Char('='))) {
        variables.insert(entry.section(QLatin1Char('='), 0, 0), entry.section(QLatin1Char('='), 1));
      } else {
        variables.remove(entry);
      }
    }
    process.setProcessEnvironment(variables);
  }
  process.start(QString::fromStdString(appPath()), args);
  if (!process.waitForFinished(timeoutMs)) {
    process.kill();
    process.waitForFinished();
    return {-1, {}, QStringLiteral("timed out")};
  }
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
          QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

}  // namespace cineflow::test
