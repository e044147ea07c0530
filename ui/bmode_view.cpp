#include "bmode_view.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLPaintDevice>
#include <QPainter>
#include <QWheelEvent>

#include "bmode_renderer.hpp"
#include "view_overlay.hpp"

namespace cineflow::ui {
namespace {

// Four wheel notches (of 120 eighths of a degree each) double the zoom.
constexpr double kWheelNotchesPerDoubling = 4.0;

}  // namespace

BmodeView::BmodeView(QWidget* parent) : QOpenGLWidget(parent) {
  setObjectName(QStringLiteral("bmodeView"));
  setMouseTracking(true);  // the readout follows the cursor without a button held
  setCursor(Qt::CrossCursor);
}

BmodeView::~BmodeView() {
  // QOpenGLWidget's own destructor deletes the context; by then this part of the object is gone,
  // so the cleanup connection made in initializeGL() must not fire.
  if (QOpenGLContext* current = context()) {
    disconnect(current, nullptr, this, nullptr);
  }
  // GL objects die with the context current, on the GUI thread (DESIGN.md §6 rule 7).
  if (renderer_ || overlayDevice_) {
    onContextAboutToBeDestroyed();
  }
}

void BmodeView::onContextAboutToBeDestroyed() {
  makeCurrent();
  overlayDevice_.reset();
  renderer_.reset();
  doneCurrent();
}

QRect BmodeView::imageRectInFramebuffer() const {
  if (!displayed_) {
    return {};
  }
  const qreal ratio = devicePixelRatioF();
  const QRect framebuffer(0, 0, qRound(width() * ratio), qRound(height() * ratio));
  const QMargins margins(
      qRound(kOverlayMargins.left() * ratio), qRound(kOverlayMargins.top() * ratio),
      qRound(kOverlayMargins.right() * ratio), qRound(kOverlayMargins.bottom() * ratio));
  return letterboxRect(displayed_->geometry, framebuffer.marginsRemoved(margins));
}

QRectF BmodeView::imageRectInWidget() const {
  const QRectF device(imageRectInFramebuffer());
  const qreal ratio = devicePixelRatioF();
  return {device.topLeft() / ratio, device.size() / ratio};
}

QPointF BmodeView::physicalToWidget(double xM, double zM) const {
  if (!displayed_) {
    return {-1.0, -1.0};
  }
  const QPointF device =
      mapPhysicalToView(displayed_->geometry, imageRectInFramebuffer(), window_, {xM, zM});
  return device / devicePixelRatioF();
}

std::optional<PhysicalPoint> BmodeView::widgetToPhysical(QPointF widgetPos) const {
  if (!displayed_) {
    return std::nullopt;
  }
  return mapViewToPhysical(displayed_->geometry, imageRectInFramebuffer(), window_,
                           widgetPos * devicePixelRatioF());
}

void BmodeView::setZoom(double factor, QPointF anchor) {
  const QRect rect = imageRectInFramebuffer();
  const ViewWindow next = zoomedAbout(window_, rect, factor, anchor * devicePixelRatioF());
  if (next != window_) {
    window_ = next;
    update();
  }
}

void BmodeView::resetView() {
  if (window_ != ViewWindow{}) {
    window_ = {};
    update();
  }
}

std::optional<CursorReadout> BmodeView::readoutAt(QPointF widgetPos) const {
  if (!displayed_ || !imageRectInWidget().contains(widgetPos)) {
    return std::nullopt;
  }
  const auto& geometry = displayed_->geometry;
  CursorReadout readout;
  readout.position = *widgetToPhysical(widgetPos);
  // Pixel i covers [x0 + (i - 1/2) dx, x0 + (i + 1/2) dx).
  readout.column =
      static_cast<int>(std::floor((readout.position.xM - geometry.x0) / geometry.dx + 0.5));
  readout.row =
      static_cast<int>(std::floor((readout.position.zM - geometry.z0) / geometry.dz + 0.5));
  if (readout.column < 0 || readout.column >= geometry.nx || readout.row < 0 ||
      readout.row >= geometry.nz || displayed_->pixels.size() < geometry.pixels()) {
    return std::nullopt;
  }
  readout.db = displayed_->pixels[static_cast<std::size_t>(readout.row) * geometry.nx +
                                  static_cast<std::size_t>(readout.column)];
  return readout;
}

std::optional<double> BmodeView::valueAt(QPointF widgetPos) const {
  const auto readout = readoutAt(widgetPos);
  return readout ? std::optional<double>(readout->db) : std::nullopt;
}

QString BmodeView::readoutText() const {
  const auto readout = cursor_ ? readoutAt(*cursor_) : std::nullopt;
  return readout ? formatReadout(readout->position.xM, readout->position.zM, readout->db)
                 : QString();
}

QRect BmodeView::scaleBarRect() const {
  if (!displayed_) {
    return {};
  }
  const QRectF image = imageRectInWidget();
  const auto topLeft = *widgetToPhysical(image.topLeft());
  const auto bottomRight = *widgetToPhysical(image.bottomRight());
  return scaleBarFor({image, topLeft.xM, bottomRight.xM, topLeft.zM, bottomRight.zM}).bar;
}

void BmodeView::setFrame(std::shared_ptr<const Frame> frame) {
  pending_ = std::move(frame);
  update();
}

void BmodeView::setGainDb(double gainDb) {
  if (gainDb != gainDb_) {
    gainDb_ = gainDb;
    update();
  }
}

void BmodeView::setDynamicRangeDb(double dynamicRangeDb) {
  dynamicRangeDb = std::max(dynamicRangeDb, 1.0);
  if (dynamicRangeDb != dynamicRangeDb_) {
    dynamicRangeDb_ = dynamicRangeDb;
    update();
  }
}

void BmodeView::setColourMap(ColourMap map) {
  if (map != colourMap_) {
    colourMap_ = map;
    update();
  }
}

void BmodeView::setOverlayVisible(bool visible) {
  if (visible != overlayVisible_) {
    overlayVisible_ = visible;
    update();
  }
}

void BmodeView::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (displayed_ && notches != 0.0) {
    setZoom(window_.zoom * std::exp2(notches / kWheelNotchesPerDoubling), event->position());
  }
  event->accept();
}

void BmodeView::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    dragFrom_ = event->position();
  }
  QOpenGLWidget::mousePressEvent(event);
}

void BmodeView::mouseMoveEvent(QMouseEvent* event) {
  cursor_ = event->position();
  if (dragFrom_ && (event->buttons() & Qt::LeftButton)) {
    const QPointF delta = (event->position() - *dragFrom_) * devicePixelRatioF();
    window_ = pannedBy(window_, imageRectInFramebuffer(), delta);
    dragFrom_ = event->position();
  }
  update();  // the readout follows the cursor
}

void BmodeView::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    dragFrom_.reset();
  }
  QOpenGLWidget::mouseReleaseEvent(event);
}

void BmodeView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    resetView();
  }
}

void BmodeView::leaveEvent(QEvent* event) {
  cursor_.reset();
  dragFrom_.reset();
  update();
  QOpenGLWidget::leaveEvent(event);
}

void BmodeView::initializeGL() {
  // A context may be recreated (e.g. when the widget moves to another window); GL objects of the
  // old one must be deleted while it is still current.
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this,
          &BmodeView::onContextAboutToBeDestroyed, Qt::UniqueConnection);
  try {
    renderer_ = std::make_unique<BmodeRenderer>();
    overlayDevice_ = std::make_unique<QOpenGLPaintDevice>();
    renderingError_.clear();
  } catch (const std::exception& error) {
    renderer_.reset();
    renderingError_ = QString::fromStdString(error.what());
    emit renderingFailed(renderingError_);
  }
}

void BmodeView::paintGL() {
  if (!renderer_) {
    // OpenGL could not be set up (renderingError() says why): show the background only.
    QOpenGLFunctions* gl = context()->functions();
    gl->glClearColor(BmodeRenderer::kBackground[0], BmodeRenderer::kBackground[1],
                     BmodeRenderer::kBackground[2], 1.0f);
    gl->glClear(GL_COLOR_BUFFER_BIT);
    return;
  }
  const bool newFrame = pending_ != nullptr;
  if (newFrame) {
    if (displayed_ && !(displayed_->geometry == pending_->geometry)) {
      window_ = {};  // another image: zoom and pan no longer mean anything
    }
    displayed_ = std::move(pending_);
    renderer_->upload(*displayed_);
  } else if (displayed_ && !renderer_->hasImage()) {
    renderer_->upload(*displayed_);  // a new context after a context loss
  }
  renderer_->setColourMap(colourMap_);
  const int framebufferHeight = qRound(height() * devicePixelRatioF());
  renderer_->render(imageRectInFramebuffer(), framebufferHeight, static_cast<float>(gainDb_),
                    static_cast<float>(dynamicRangeDb_), window_);
  if (overlayVisible_ && displayed_ && overlayDevice_) {
    drawOverlay();
  }
  if (newFrame) {
    ++framesDisplayed_;
    emit frameDisplayed(displayed_->header.sequence);
  }
}

void BmodeView::drawOverlay() {
  const QRectF image = imageRectInWidget();
  const auto topLeft = *widgetToPhysical(image.topLeft());
  const auto bottomRight = *widgetToPhysical(image.bottomRight());
  const qreal ratio = devicePixelRatioF();
  overlayDevice_->setSize(QSize(qRound(width() * ratio), qRound(height() * ratio)));
  overlayDevice_->setDevicePixelRatio(ratio);
  // After the GL draw; BmodeRenderer::render() resets the GL state the painter changes.
  QPainter painter(overlayDevice_.get());
  painter.setFont(font());
  paintOverlay(painter, {image, topLeft.xM, bottomRight.xM, topLeft.zM, bottomRight.zM},
               readoutText());
}

}  // namespace cineflow::ui
