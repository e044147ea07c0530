#include "shell/notice_banner.hpp"

#include <QEvent>
#include <QMouseEvent>
#include <algorithm>

namespace cineflow::ui {
namespace {
constexpr int kMargin = 12;
}

NoticeBanner::NoticeBanner(QWidget* over) : QLabel(over) {
  setObjectName(QStringLiteral("noticeBanner"));
  setWordWrap(true);
  setTextFormat(Qt::PlainText);
  setStyleSheet(
      QStringLiteral("background: rgba(32, 40, 56, 230); color: #f0f0f0; "
                     "border: 1px solid #6a86b0; border-radius: 4px; padding: 8px;"));
  setToolTip(tr("Click to close"));
  setCursor(Qt::PointingHandCursor);
  hide();
  hideTimer_.setSingleShot(true);
  connect(&hideTimer_, &QTimer::timeout, this, &QWidget::hide);
  over->installEventFilter(this);
}

void NoticeBanner::showNotice(const QString& text, int ms) {
  setText(text);
  place();
  show();
  raise();
  hideTimer_.start(ms);
}

bool NoticeBanner::eventFilter(QObject* watched, QEvent* event) {
  if (watched == parent() && event->type() == QEvent::Resize && isVisible()) {
    place();
  }
  return QLabel::eventFilter(watched, event);
}

void NoticeBanner::mousePressEvent(QMouseEvent* event) {
  hideTimer_.stop();
  hide();
  event->accept();
}

void NoticeBanner::place() {
  const QWidget* over = parentWidget();
  const int width = std::max(200, over->width() - 2 * kMargin);
  setFixedWidth(std::min(width, 900));
  adjustSize();
  move((over->width() - this->width()) / 2, kMargin);
}

}  // namespace cineflow::ui
