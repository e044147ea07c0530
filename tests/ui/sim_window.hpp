#pragma once
// What the GUI tests on the simulator share: a settings file of their own (so a developer's
// settings never leak in, and each run starts fresh) and a main window opened on the simulator
// with the CPU backend. Header-only: the test support library does not link the UI.

#include <QFile>
#include <QString>
#include <QtTest>
#include <memory>

#include "bridge/engine_controller.hpp"
#include "common/app_settings.hpp"
#include "common/gl_format.hpp"
#include "pipeline/engine.hpp"
#include "shell/main_window.hpp"
#include "support/test_paths.hpp"

namespace cineflow::test {

// For initMain(): the default surface format, and settings in <artefacts>/<name>.ini, removed.
inline void useFreshSettings(const char* name) {
  ui::setDefaultSurfaceFormat();
  const QString settings = QString::fromStdString(artefactPath(std::string(name) + ".ini"));
  QFile::remove(settings);
  qputenv(ui::kSettingsPathVariable, settings.toLocal8Bit());
}

// A shown 1400 x 900 main window (errors not modal) acquiring from the simulator; null, with a
// failed check, when it cannot be shown or the simulator cannot be opened. The CPU backend, or
// the CUDA one where CINEFLOW_GUI_TEST_BACKEND=cuda (the GPU sweep runs the GUI tests so: the
// device display paths and their teardown, which the CPU backend never reaches).
inline compute::BackendRequest guiTestBackend() {
  return qgetenv("CINEFLOW_GUI_TEST_BACKEND") == "cuda" ? compute::BackendRequest::Cuda
                                                        : compute::BackendRequest::Cpu;
}

// A shown 1400 x 900 main window that opened `source` (not yet waited for), or null with a failed
// check.
inline std::unique_ptr<ui::MainWindow> openWindowOn(const QString& source,
                                                    compute::BackendRequest backend) {
  auto window = std::make_unique<ui::MainWindow>(backend);
  window->setInteractiveErrors(false);
  window->resize(1400, 900);
  window->show();
  if (!QTest::qWaitForWindowExposed(window.get())) {
    QTest::qFail("the main window was not exposed", __FILE__, __LINE__);
    return nullptr;
  }
  window->openSource(source);
  return window;
}

inline std::unique_ptr<ui::MainWindow> openSimulatorWindow() {
  if (!qEnvironmentVariableIsSet("CINEFLOW_CACHE_DIR")) {
    QTest::qFail("CTest sets CINEFLOW_CACHE_DIR so the simulator's frames are cached between runs",
                 __FILE__, __LINE__);
    return nullptr;
  }
  return openWindowOn(QStringLiteral("sim"), guiTestBackend());
}

// Until `window`'s engine has completed its first volume; false, with a failed check, when it
// reported an error instead or none came within `timeoutMs`.
inline bool waitForFirstVolume(ui::MainWindow& window, int timeoutMs) {
  const bool ended = QTest::qWaitFor(
      [&] {
        return window.controller().engine().stats().volumes >= 1 || !window.lastError().isEmpty();
      },
      timeoutMs);
  if (!window.lastError().isEmpty()) {
    QTest::qFail(qPrintable(window.lastError()), __FILE__, __LINE__);
    return false;
  }
  if (!ended) {
    QTest::qFail("no volume from the simulator in time", __FILE__, __LINE__);
    return false;
  }
  return true;
}

}  // namespace cineflow::test
