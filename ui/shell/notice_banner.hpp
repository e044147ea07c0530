#pragma once
// NoticeBanner: a notice over the top of a widget (the image), for something that happened by
// itself which the operator must not miss: the status line's message can be cut off in a narrow
// window. It stays a while (long enough to read), goes away when clicked, and follows the
// widget's size. One notice at a time: a newer one replaces it.

#include <QLabel>
#include <QTimer>

namespace cineflow::ui {

class NoticeBanner : public QLabel {
  Q_OBJECT

 public:
  // Shown over `over`, which owns it.
  explicit NoticeBanner(QWidget* over);

  // Shows `text` for `ms` milliseconds.
  void showNotice(const QString& text, int ms = 12'000);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  void place();

  QTimer hideTimer_;
};

}  // namespace cineflow::ui
