#pragma once
// A dark Fusion theme for dim scanning rooms: low-luminance surfaces so the image is the brightest
// thing in the operator's view, with enough contrast for controls to stay legible.

class QApplication;

namespace cineflow::ui {

void applyDarkTheme(QApplication& app);

}  // namespace cineflow::ui
