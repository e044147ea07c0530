#pragma once
// The operator's transport keys (Space start/stop, F freeze, R record, P play, Left / Right step
// the cineloop) work whatever has the keyboard focus, except while a text field is being edited:
// a focused line edit, text edit or editable combo box keeps its keys; a spin box keeps them only
// while a value is being typed into it (from a key that edits its text until Return, Escape or
// the focus leaving it), so that a box left focused by a click (or by a disabled button handing
// focus on) does not swallow Space or the arrows. Installed on the
// application by MainWindow; it only decides which way a key goes when a shortcut wants it too.

#include <QObject>
#include <QPointer>

class QKeyEvent;
class QWidget;

namespace cineflow::ui {

class TransportKeys : public QObject {
  Q_OBJECT

 public:
  explicit TransportKeys(QObject* parent = nullptr) : QObject(parent) {}

  // Whether `key` is one of the transport keys (no modifier).
  static bool isTransportKey(const QKeyEvent& key);
  // Whether `focus` is a text field being edited, which keeps the key.
  bool editing(const QWidget* focus) const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // Follows typing into spin boxes: a key that edits a box's text marks it, Return, Escape and the
  // focus leaving it unmark it.
  void followTyping(QObject* watched, const QEvent& event);

  QPointer<QWidget> typedInto_;  // the spin box a value is being typed into
};

}  // namespace cineflow::ui
