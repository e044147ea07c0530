#pragma once
// Runs the cineflow executable the way an operator's shell does, for the command-line tests.

#include <QString>
#include <QStringList>

namespace cineflow::test {

struct AppRun {
  int exitCode;  // -2: it crashed; -1: it did not finish within the limit
  QString out;
  QString err;
};

// `cineflow ARGS...`; waits at most `timeoutMs` (CTest's own timeout is the real limit: this one
// only turns a hang into a failure with a message). `environment`: changes to the inherited
// environment, "NAME=value" to set NAME, a bare "NAME" to remove it.
AppRun runApp(const QStringList& args, int timeoutMs = 280000, const QStringList& environment = {});

}  // namespace cineflow::test
