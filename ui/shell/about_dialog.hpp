#pragma once
// Help > About: what is running (Cineflow's version, the compute backend and its device, the Qt
// version), so that a screenshot of it answers the first questions of a bug report.

#include <QString>

class QWidget;

namespace cineflow::ui {

class EngineController;

// The dialog's text (rich text); names the version, backendDescription() and the Qt version.
QString aboutText(const EngineController& controller);

// Shows the text in a modal message box.
void showAboutDialog(QWidget* parent, const EngineController& controller);

}  // namespace cineflow::ui
