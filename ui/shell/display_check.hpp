#pragma once
// Whether the operator window can open here (the cineflow program's GUI mode, cineflow.gui() in a
// script). Its image views are QOpenGLWidgets: without a display
// Qt aborts ("no Qt platform plugin could be initialized"), and without an OpenGL context (the
// offscreen platform, a display without GLX) the first view's paint crashes. runWorkstation
// (shell/workstation.hpp) checks both before building the window and, when either is missing, exits
// with noWindowMessage() instead, which points at --headless, the way to image without a window.

#include <optional>
#include <string>

namespace cineflow::ui {

// Before the QApplication exists: why no display can be opened, or nullopt. Only the platforms
// that need one are judged, so that the check never refuses what Qt could open: QT_QPA_PLATFORM
// unset (Qt picks xcb or wayland) with neither DISPLAY nor WAYLAND_DISPLAY set, or xcb without
// DISPLAY.
std::optional<std::string> missingDisplay();

// After the QApplication exists, on the GUI thread: why the image views would get no OpenGL
// context (a platform that cannot show a QOpenGLWidget, such as offscreen; or no context with the
// default surface format can be created and made current), or nullopt.
std::optional<std::string> missingOpenGlContext();

// One paragraph: the window cannot open (`reason`), and `cineflow --headless ...` images without
// one.
std::string noWindowMessage(const std::string& reason);

}  // namespace cineflow::ui
