#include "shell/display_check.hpp"

#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QSurfaceFormat>

namespace cineflow::ui {
namespace {

bool isSet(const char* variable) {
  return !qEnvironmentVariableIsEmpty(variable);
}

}  // namespace

std::optional<std::string> missingDisplay() {
  // "xcb:option=value" names the platform before the colon.
  const QString platform =
      qEnvironmentVariable("QT_QPA_PLATFORM").section(QLatin1Char(':'), 0, 0).trimmed();
  if (platform.isEmpty() && !isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY")) {
    return "there is no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set)";
  }
  if (platform == QLatin1String("xcb") && !isSet("DISPLAY")) {
    return "there is no X display to open it on (QT_QPA_PLATFORM=xcb and DISPLAY is not set)";
  }
  return std::nullopt;
}

std::optional<std::string> missingOpenGlContext() {
  const std::string platform = QGuiApplication::platformName().toStdString();
  // These platforms may create contexts (offscreen does, through GLX, when DISPLAY is set), but
  // they cannot compose a QOpenGLWidget into a window ("QOpenGLWidget is not supported on this
  // platform"), and the views then crash. Qt offers no public query for that capability.
  if (platform == "offscreen" || platform == "minimal") {
    return "the \"" + platform + "\" Qt platform gives the image views no OpenGL context";
  }
  QOpenGLContext context;
  context.setFormat(QSurfaceFormat::defaultFormat());
  if (!context.create()) {
    return "no OpenGL context can be created on the \"" + platform + "\" Qt platform";
  }
  QOffscreenSurface surface;
  surface.setFormat(context.format());
  surface.create();
  if (!surface.isValid() || !context.makeCurrent(&surface)) {
    return "the OpenGL context of the \"" + platform + "\" Qt platform cannot draw";
  }
  context.doneCurrent();
  return std::nullopt;
}

std::string noWindowMessage(const std::string& reason) {
  return "cannot open the operator window: " + reason +
         ". The window draws its images with OpenGL, so it needs a display with an OpenGL "
         "context (a desktop session, or xvfb-run). To image without a window, run "
         "cineflow --headless --input sim --output out.h5 (any source for --input; "
         "cineflow --help lists the options; from Python, cineflow.Engine).";
}

}  // namespace cineflow::ui
