#include "common/wheel_guard.hpp"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QObject>
#include <QWidget>

namespace cineflow::ui {
namespace {

class WheelGuard : public QObject {
 public:
  using QObject::QObject;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Wheel) {
      const auto* widget = qobject_cast<QWidget*>(watched);
      if (widget != nullptr && !widget->hasFocus()) {
        // To the nearest scroll area, directly: Qt offers an ignored wheel event to the parents
        // only when it came from the window system, not when it was sent (tests, accessibility).
        QWidget* parent = widget->parentWidget();
        while (parent != nullptr && qobject_cast<QAbstractScrollArea*>(parent) == nullptr) {
          parent = parent->parentWidget();
        }
        event->ignore();
        if (auto* area = qobject_cast<QAbstractScrollArea*>(parent)) {
          QCoreApplication::sendEvent(area->viewport(), event);
        }
        return true;  // accepted when the scroll area took it; otherwise the parents may
      }
    }
    return QObject::eventFilter(watched, event);
  }
};

template <typename Widget>
void guardAll(QWidget& panel, WheelGuard& guard) {
  for (Widget* widget : panel.findChildren<Widget*>()) {
    widget->setFocusPolicy(Qt::StrongFocus);  // not Qt::WheelFocus: a wheel step takes no focus
    widget->installEventFilter(&guard);
  }
}

}  // namespace

void guardWheelInside(QWidget& panel) {
  auto* guard = new WheelGuard(&panel);
  guardAll<QAbstractSpinBox>(panel, *guard);
  guardAll<QComboBox>(panel, *guard);
  guardAll<QAbstractSlider>(panel, *guard);
}

}  // namespace cineflow::ui
