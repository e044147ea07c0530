#include "bmode_view.hpp"

#include <algorithm>
#include <exception>

#include <QOpenGLContext>
#include <QOpenGLFunctions>

#include "bmode_renderer.hpp"
#include "display_geometry.hpp"

namespace cineflow::ui {

BmodeView::BmodeView(QWidget* parent) : QOpenGLWidget(parent) {
  setObjectName(QStringLiteral("bmodeView"));
}

BmodeView::~BmodeView() {
  // QOpenGLWidget's own destructor deletes the context; by then this part of the object is gone,
  // so the cleanup connection made in initializeGL() must not fire.
  if (QOpenGLContext* current = context()) {
    disconnect(current, nullptr, this, nullptr);
  }
  // GL objects die with the context current, on the GUI thread (DESIGN.md §6 rule 7).
  if (renderer_) {
    onContextAboutToBeDestroyed();
  }
}

void BmodeView::onContextAboutToBeDestroyed() {
  makeCurrent();
  renderer_.reset();
  doneCurrent();
}

QRect BmodeView::imageRectInFramebuffer() const {
  if (!displayed_) {
    return {};
  }
  const qreal ratio = devicePixelRatioF();
  const QSize framebuffer(qRound(width() * ratio), qRound(height() * ratio));
  return letterboxRect(displayed_->geometry, framebuffer);
}

QPointF BmodeView::physicalToWidget(double xM, double zM) const {
  if (!displayed_) {
    return {-1.0, -1.0};
  }
  const QPointF device = mapPhysicalToRect(displayed_->geometry, imageRectInFramebuffer(), xM, zM);
  return device / devicePixelRatioF();
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

void BmodeView::initializeGL() {
  // A context may be recreated (e.g. when the widget moves to another window); GL objects of the
  // old one must be deleted while it is still current.
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this,
          &BmodeView::onContextAboutToBeDestroyed, Qt::UniqueConnection);
  try {
    renderer_ = std::make_unique<BmodeRenderer>();
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
    displayed_ = std::move(pending_);
    renderer_->upload(*displayed_);
  } else if (displayed_ && !renderer_->hasImage()) {
    renderer_->upload(*displayed_);  // a new context after a context loss
  }
  const int framebufferHeight = qRound(height() * devicePixelRatioF());
  renderer_->render(imageRectInFramebuffer(), framebufferHeight, static_cast<float>(gainDb_),
                    static_cast<float>(dynamicRangeDb_));
  if (newFrame) {
    ++framesDisplayed_;
    emit frameDisplayed(displayed_->header.sequence);
  }
}

}  // namespace cineflow::ui
