#include "shell/transport_keys.hpp"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace cineflow::ui {

bool TransportKeys::isTransportKey(const QKeyEvent& key) {
  if ((key.modifiers() & ~Qt::KeypadModifier) != Qt::NoModifier) {
    return false;
  }
  switch (key.key()) {
    case Qt::Key_Space:
    case Qt::Key_F:
    case Qt::Key_R:
    case Qt::Key_P:
    case Qt::Key_Left:
    case Qt::Key_Right:
      return true;
    default:
      return false;
  }
}

namespace {

// The spin box `object` is, or whose line edit it is; null for anything else.
const QAbstractSpinBox* spinBoxOf(const QObject* object) {
  if (const auto* spin = qobject_cast<const QAbstractSpinBox*>(object)) {
    return spin;
  }
  const auto* edit = qobject_cast<const QLineEdit*>(object);
  return edit != nullptr ? qobject_cast<const QAbstractSpinBox*>(edit->parentWidget()) : nullptr;
}

}  // namespace

bool TransportKeys::editing(const QWidget* focus) const {
  if (focus == nullptr) {
    return false;
  }
  if (const QAbstractSpinBox* spin = spinBoxOf(focus)) {
    return typedInto_ == spin;
  }
  if (const auto* edit = qobject_cast<const QLineEdit*>(focus)) {
    return !edit->isReadOnly();
  }
  if (const auto* combo = qobject_cast<const QComboBox*>(focus)) {
    return combo->isEditable();
  }
  if (const auto* text = qobject_cast<const QTextEdit*>(focus)) {
    return !text->isReadOnly();
  }
  if (const auto* plain = qobject_cast<const QPlainTextEdit*>(focus)) {
    return !plain->isReadOnly();
  }
  return false;
}

void TransportKeys::followTyping(QObject* watched, const QEvent& event) {
  auto* spin = const_cast<QAbstractSpinBox*>(spinBoxOf(watched));  // the filter's own object
  if (spin == nullptr) {
    return;
  }
  if (event.type() == QEvent::FocusOut || event.type() == QEvent::FocusIn) {
    if (typedInto_ == spin) {
      typedInto_.clear();
    }
    return;
  }
  if (event.type() != QEvent::KeyPress) {
    return;
  }
  const auto& key = static_cast<const QKeyEvent&>(event);
  switch (key.key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Escape:
      typedInto_.clear();  // the value is taken (or given up): the box no longer keeps the keys
      return;
    case Qt::Key_Backspace:
    case Qt::Key_Delete:
      typedInto_ = spin;
      return;
    default:
      if (!key.text().isEmpty() && key.text().at(0).isPrint()) {
        typedInto_ = spin;
      }
  }
}

bool TransportKeys::eventFilter(QObject* watched, QEvent* event) {
  followTyping(watched, *event);
  if (event->type() != QEvent::ShortcutOverride || watched != QApplication::focusWidget()) {
    return false;
  }
  const auto& key = static_cast<const QKeyEvent&>(*event);
  if (!isTransportKey(key) || editing(QApplication::focusWidget())) {
    return false;  // the widget decides, as without the filter
  }
  event->ignore();  // not overridden: the window's shortcut takes the key
  return true;
}

}  // namespace cineflow::ui
