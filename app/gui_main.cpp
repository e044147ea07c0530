// GUI mode: the Qt application around ui::MainWindow, plus the screenshot mode used by
// documentation and smoke tests (acquire N frames, save the window as PNG, exit).

#include "gui_main.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>

#include <QApplication>
#include <QMessageBox>
#include <QPixmap>
#include <QTemporaryDir>
#include <QTimer>

#include "bridge/engine_controller.hpp"
#include "common/app_settings.hpp"
#include "common/dark_theme.hpp"
#include "common/gl_format.hpp"
#include "compute/backend.hpp"
#include "gui_display_check.hpp"
#include "shell/main_window.hpp"
#include "view2d/image_view.hpp"

namespace cineflow::app {
namespace {

// After acquisition starts, a healthy pipeline shows a frame within seconds; a minute without one
// means it is stuck, and a scripted run must fail rather than hang.
constexpr int kFirstFrameTimeoutMs = 60'000;

// Saves the window once `afterFrames` frames have been displayed; fails on errors or silence.
void armScreenshot(QApplication& app, ui::MainWindow& window, const GuiOptions& options) {
  window.setInteractiveErrors(false);
  const QString path = QString::fromStdString(options.screenshotPath);
  const auto target = static_cast<quint64>(std::max(options.afterFrames, 1));
  auto* watchdog = new QTimer(&window);
  watchdog->setSingleShot(true);
  watchdog->setInterval(kFirstFrameTimeoutMs);

  QObject::connect(watchdog, &QTimer::timeout, &app, [&app, &window] {
    if (window.view().framesDisplayed() == 0) {
      std::fprintf(stderr, "cineflow: no frame was displayed within %d s; giving up\n",
                   kFirstFrameTimeoutMs / 1000);
      app.exit(1);
    }
  });
  QObject::connect(&window.controller(), &ui::EngineController::runningChanged, watchdog,
                   [watchdog](bool running) {
                     if (running && !watchdog->isActive()) {
                       watchdog->start();
                     }
                   });
  QObject::connect(&window, &ui::MainWindow::errorShown, &app, [&app](const QString& message) {
    std::fprintf(stderr, "cineflow: %s\n", message.toLocal8Bit().constData());
    app.exit(1);
  });
  auto saved = std::make_shared<bool>(false);
  QObject::connect(
      &window.view(), &ui::ImageView::frameDisplayed, &app, [&app, &window, path, target, saved] {
        if (*saved || window.view().framesDisplayed() < target) {
          return;
        }
        *saved = true;
        // Grab after this paint has finished, from the event loop.
        QTimer::singleShot(0, &app, [&app, &window, path] {
          const QPixmap shot = window.grab();
          if (shot.isNull() || !shot.save(path, "PNG")) {
            std::fprintf(stderr, "cineflow: cannot save the screenshot to %s\n",
                         path.toLocal8Bit().constData());
            app.exit(1);
            return;
          }
          std::printf("cineflow: saved %s (%dx%d) after %llu frames\n",
                      path.toLocal8Bit().constData(), shot.width(), shot.height(),
                      static_cast<unsigned long long>(window.view().framesDisplayed()));
          app.exit(0);
        });
      });
}

}  // namespace

int runGui(int argc, char** argv, const GuiOptions& options) {
  // Qt would abort in the QApplication's constructor.
  if (const auto reason = missingDisplay()) {
    std::fputs(noWindowMessage(*reason).c_str(), stderr);
    return 1;
  }
  // Must precede the QApplication so that every context, the first included, gets it.
  ui::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Cineflow"));
  QApplication::setApplicationName(QStringLiteral("Cineflow"));
  QApplication::setApplicationVersion(QStringLiteral(CINEFLOW_VERSION));
  // The window's first paint would crash.
  if (const auto reason = missingOpenGlContext()) {
    std::fputs(noWindowMessage(*reason).c_str(), stderr);
    return 1;
  }
  ui::applyDarkTheme(app);
  const bool screenshotMode = !options.screenshotPath.empty();
  // Screenshots show the default layout and leave the operator's settings alone: unless told
  // otherwise, they read and write a throw-away settings file.
  QTemporaryDir screenshotSettingsDir;
  if (screenshotMode && !qEnvironmentVariableIsSet(ui::kSettingsPathVariable) &&
      screenshotSettingsDir.isValid()) {
    qputenv(ui::kSettingsPathVariable,
            screenshotSettingsDir.filePath(QStringLiteral("settings.ini")).toLocal8Bit());
  }

  std::unique_ptr<ui::MainWindow> window;
  try {
    window = std::make_unique<ui::MainWindow>(compute::parseBackendRequest(options.backend));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cineflow: %s\n", error.what());
    if (!screenshotMode) {
      QMessageBox::critical(nullptr, QStringLiteral("Cineflow"), QString::fromUtf8(error.what()));
    }
    return 1;
  }
  if (const QString notice = window->controller().backendNotice(); !notice.isEmpty()) {
    std::fprintf(stderr, "cineflow: %s; using the CPU backend\n", notice.toLocal8Bit().constData());
  }
  window->controller().enableTuning(options.variantPins, options.tune);
  window->controller().setDeviceMemoryBudget(std::size_t{options.gpuMemoryBudgetMiB} << 20);
  if (!options.preset.empty()) {
    const QString name = QString::fromStdString(options.preset);
    const auto& presets = window->presets();
    const auto found = std::find_if(presets.begin(), presets.end(),
                                    [&name](const ui::Preset& p) { return p.name == name; });
    if (found == presets.end()) {
      QStringList names;
      for (const ui::Preset& p : presets) {
        names << p.name;
      }
      std::fprintf(stderr, "cineflow: no preset named \"%s\" (there are: %s)\n",
                   options.preset.c_str(),
                   names.join(QStringLiteral(", ")).toLocal8Bit().constData());
      return 2;
    }
    // Once, when the source is open (the preset's modality must match it).
    auto applied = std::make_shared<QMetaObject::Connection>();
    *applied = QObject::connect(&window->controller(), &ui::EngineController::sourceOpened,
                                window.get(), [applied, &window, preset = *found] {
                                  QObject::disconnect(*applied);
                                  window->applyPreset(preset);
                                });
  }
  if (screenshotMode) {
    armScreenshot(app, *window, options);
  }
  window->show();
  window->openSource(QString::fromStdString(options.input), /*autoStart=*/true);
  const int status = app.exec();
  window.reset();  // stop the engine while the application still exists
  return status;
}

}  // namespace cineflow::app
