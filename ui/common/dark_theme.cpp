#include "common/dark_theme.hpp"

#include <QApplication>
#include <QColor>
#include <QPalette>
#include <QStyleFactory>

namespace cineflow::ui {

void applyDarkTheme(QApplication& app) {
  // Fusion honours the palette completely on every platform; native styles partly ignore it.
  app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));

  const QColor window(37, 38, 41);
  const QColor base(24, 25, 27);
  const QColor text(208, 210, 214);
  const QColor disabledText(110, 112, 116);
  const QColor accent(64, 128, 196);

  QPalette palette;
  palette.setColor(QPalette::Window, window);
  palette.setColor(QPalette::WindowText, text);
  palette.setColor(QPalette::Base, base);
  palette.setColor(QPalette::AlternateBase, window);
  palette.setColor(QPalette::ToolTipBase, base);
  palette.setColor(QPalette::ToolTipText, text);
  palette.setColor(QPalette::PlaceholderText, disabledText);
  palette.setColor(QPalette::Text, text);
  palette.setColor(QPalette::Button, window);
  palette.setColor(QPalette::ButtonText, text);
  palette.setColor(QPalette::BrightText, QColor(255, 96, 96));
  palette.setColor(QPalette::Link, accent.lighter(130));
  palette.setColor(QPalette::Highlight, accent);
  palette.setColor(QPalette::HighlightedText, Qt::white);
  palette.setColor(QPalette::Light, window.lighter(140));
  palette.setColor(QPalette::Midlight, window.lighter(120));
  palette.setColor(QPalette::Mid, window.darker(120));
  palette.setColor(QPalette::Dark, window.darker(160));
  palette.setColor(QPalette::Shadow, Qt::black);
  for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText}) {
    palette.setColor(QPalette::Disabled, role, disabledText);
  }
  palette.setColor(QPalette::Disabled, QPalette::Highlight, window.lighter(130));
  app.setPalette(palette);
}

}  // namespace cineflow::ui
