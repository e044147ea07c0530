#pragma once
// Answers the next modal QMessageBox the way an operator would, for GUI tests that press a button
// which asks first: it polls for the active modal message box, records its text, ticks its check
// box when told to, and presses `button`. Destroyed without seeing one, it stops looking (so a
// test can also check that nothing was asked). Header-only, like sim_window.hpp.

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QMessageBox>
#include <QString>
#include <QTimer>

namespace cineflow::test {

class MessageBoxAnswerer {
 public:
  explicit MessageBoxAnswerer(QMessageBox::StandardButton button, bool tickCheckBox = false) {
    timer_.setInterval(20);
    QObject::connect(&timer_, &QTimer::timeout, [this, button, tickCheckBox] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (box == nullptr || box->button(button) == nullptr) {
        return;
      }
      timer_.stop();
      text_ = box->text();
      asked_ = true;
      if (tickCheckBox && box->checkBox() != nullptr) {
        box->checkBox()->setChecked(true);
      }
      box->button(button)->click();
    });
    timer_.start();
  }

  bool asked() const { return asked_; }
  const QString& text() const { return text_; }

 private:
  QTimer timer_;
  QString text_;
  bool asked_ = false;
};

}  // namespace cineflow::test
