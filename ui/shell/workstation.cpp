#include "shell/workstation.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>

#include <QApplication>
#include <QMessageBox>
#include <QPixmap>
#include <QTemporaryDir>
#include <QTimer>

#include "acquisition/acquisition_panel.hpp"
#include "acquisition/igtl_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "common/app_settings.hpp"
#include "common/dark_theme.hpp"
#include "common/gl_format.hpp"
#include "compute/backend.hpp"
#include "shell/display_check.hpp"
#include "shell/main_window.hpp"
#include "view2d/image_view.hpp"

namespace cineflow::ui {
namespace {

// After acquisition starts, a healthy pipeline shows a frame within seconds; a minute without one
// means it is stuck, and a scripted run must fail rather than hang.
constexpr int kFirstFrameTimeoutMs = 60'000;
constexpr int kInterruptPollMs = 100;

// Saves the window once `afterFrames` frames have been displayed; fails on errors or silence.
void armScreenshot(QApplication& app, MainWindow& window, const WorkstationOptions& options,
                   WorkstationResult& result) {
  window.setInteractiveErrors(false);
  const QString path = QString::fromStdString(options.screenshotPath);
  const auto target = static_cast<quint64>(std::max(options.afterFrames, 1));
  auto* watchdog = new QTimer(&window);
  watchdog->setSingleShot(true);
  watchdog->setInterval(kFirstFrameTimeoutMs);

  QObject::connect(watchdog, &QTimer::timeout, &app, [&app, &window, &result] {
    if (window.view().framesDisplayed() == 0) {
      result.error = "no frame was displayed within " +
                     std::to_string(kFirstFrameTimeoutMs / 1000) + " s; giving up";
      app.exit(1);
    }
  });
  QObject::connect(&window.controller(), &EngineController::runningChanged, watchdog,
                   [watchdog](bool running) {
                     if (running && !watchdog->isActive()) {
                       watchdog->start();
                     }
                   });
  QObject::connect(&window, &MainWindow::errorShown, &app, [&app, &result](const QString& message) {
    result.error = message.toStdString();
    app.exit(1);
  });
  auto saved = std::make_shared<bool>(false);
  QObject::connect(&window.view(), &ImageView::frameDisplayed, &app,
                   [&app, &window, &result, path, target, saved] {
                     if (*saved || window.view().framesDisplayed() < target) {
                       return;
                     }
                     *saved = true;
                     // Grab after this paint has finished, from the event loop.
                     QTimer::singleShot(0, &app, [&app, &window, &result, path] {
                       const QPixmap shot = window.grab();
                       if (shot.isNull() || !shot.save(path, "PNG")) {
                         result.error = "cannot save the screenshot to " + path.toStdString();
                         app.exit(1);
                         return;
                       }
                       result.notice = "saved " + path.toStdString() + " (" +
                                       std::to_string(shot.width()) + "x" +
                                       std::to_string(shot.height()) + ") after " +
                                       std::to_string(window.view().framesDisplayed()) + " frames";
                       app.exit(0);
                     });
                   });
}

// The preset named `name`, applied once the source is open (its modality must match the
// source's); false when there is none of that name (`result` then says which there are).
bool armPreset(MainWindow& window, const std::string& name, WorkstationResult& result) {
  const QString wanted = QString::fromStdString(name);
  const auto& presets = window.presets();
  const auto found = std::find_if(presets.begin(), presets.end(),
                                  [&wanted](const Preset& p) { return p.name == wanted; });
  if (found == presets.end()) {
    QStringList names;
    for (const Preset& p : presets) {
      names << p.name;
    }
    result.error = "no preset named \"" + name +
                   "\" (there are: " + names.join(QStringLiteral(", ")).toStdString() + ")";
    return false;
  }
  auto applied = std::make_shared<QMetaObject::Connection>();
  *applied = QObject::connect(&window.controller(), &EngineController::sourceOpened, &window,
                              [applied, &window, preset = *found] {
                                QObject::disconnect(*applied);
                                window.applyPreset(preset);
                              });
  return true;
}

WorkstationResult failed(int status, std::string error) {
  WorkstationResult result;
  result.status = status;
  result.error = std::move(error);
  return result;
}

}  // namespace

WorkstationResult runWorkstation(int& argc, char** argv, const WorkstationOptions& options) {
  // Qt would abort in the QApplication's constructor.
  if (const auto reason = missingDisplay()) {
    return failed(1, noWindowMessage(*reason));
  }
  // Must precede the QApplication so that every context, the first included, gets it.
  setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Cineflow"));
  QApplication::setApplicationName(QStringLiteral("Cineflow"));
  QApplication::setApplicationVersion(QStringLiteral(CINEFLOW_VERSION));
  // The window's first paint would crash.
  if (const auto reason = missingOpenGlContext()) {
    return failed(1, noWindowMessage(*reason));
  }
  applyDarkTheme(app);
  const bool screenshotMode = !options.screenshotPath.empty();
  // Screenshots show the default layout and leave the operator's settings alone: unless told
  // otherwise, they read and write a throw-away settings file.
  QTemporaryDir screenshotSettingsDir;
  const bool throwAwaySettings = screenshotMode &&
                                 !qEnvironmentVariableIsSet(kSettingsPathVariable) &&
                                 screenshotSettingsDir.isValid();
  if (throwAwaySettings) {
    qputenv(kSettingsPathVariable,
            screenshotSettingsDir.filePath(QStringLiteral("settings.ini")).toLocal8Bit());
  }

  WorkstationResult result;
  std::unique_ptr<MainWindow> window;
  try {
    window = std::make_unique<MainWindow>(compute::parseBackendRequest(options.backend));
  } catch (const std::exception& error) {
    if (!screenshotMode) {
      QMessageBox::critical(nullptr, QStringLiteral("Cineflow"), QString::fromUtf8(error.what()));
    }
    return failed(1, error.what());
  }
  if (const QString notice = window->controller().backendNotice(); !notice.isEmpty()) {
    std::fprintf(stderr, "cineflow: %s; using the CPU backend\n", notice.toLocal8Bit().constData());
  }
  window->controller().enableTuning(options.variantPins, options.tune);
  window->controller().setDeviceMemoryBudget(std::size_t{options.gpuMemoryBudgetMiB} << 20);
  if (!options.preset.empty() && !armPreset(*window, options.preset, result)) {
    result.status = 2;
    return result;
  }
  if (screenshotMode) {
    armScreenshot(app, *window, options, result);
  }
  if (options.igtlPort > 0) {
    const QString problem = window->acquisitionPanel().igtlPanel().serve(
        options.igtlPort,
        options.igtlFloatDb ? link::LinkPixels::FloatDb : link::LinkPixels::Display8,
        options.igtlThisMachineOnly);
    if (!problem.isEmpty()) {
      std::fprintf(stderr, "cineflow: %s\n", problem.toLocal8Bit().constData());
    }
  }
  if (options.interrupted) {
    auto* poll = new QTimer(window.get());
    QObject::connect(poll, &QTimer::timeout, &app, [&app, &options, &result] {
      if (!result.interrupted && options.interrupted()) {
        result.interrupted = true;
        app.exit(0);
      }
    });
    poll->start(kInterruptPollMs);
  }
  window->show();
  window->openSource(QString::fromStdString(options.input), /*autoStart=*/true);
  result.status = app.exec();
  result.framesDisplayed = window->view().framesDisplayed();
  result.stats = window->controller().engine().stats();
  window.reset();  // stop the engine while the application still exists
  if (throwAwaySettings) {
    qunsetenv(kSettingsPathVariable);  // a later window in this process reads the operator's
  }
  return result;
}

}  // namespace cineflow::ui
