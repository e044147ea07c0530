#include "view2d/image_view.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

#include <QElapsedTimer>
#include <QImage>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLPaintDevice>
#include <QPainter>
#include <QWheelEvent>
#include <QtMath>

#include "pipeline/engine.hpp"
#include "view2d/device_image_upload.hpp"
#include "view2d/flow_colour_bar.hpp"
#include "view2d/image_renderer.hpp"
#include "view2d/profiler_overlay.hpp"
#include "view2d/view_overlay.hpp"

namespace cineflow::ui {
namespace {

// Four wheel notches (of 120 eighths of a degree each) double the zoom.
constexpr double kWheelNotchesPerDoubling = 4.0;

}  // namespace

ImageView::ImageView(QWidget* parent) : QOpenGLWidget(parent) {
  setObjectName(QStringLiteral("imageView"));
  setMouseTracking(true);  // the readout follows the cursor without a button held
  setCursor(Qt::CrossCursor);
  // A click on the image takes the keyboard focus back from a box it was left in.
  setFocusPolicy(Qt::ClickFocus);
}

ImageView::~ImageView() {
  // QOpenGLWidget's own destructor deletes the context; by then this part of the object is gone,
  // so the cleanup connection made in initializeGL() must not fire.
  if (QOpenGLContext* current = context()) {
    disconnect(current, nullptr, this, nullptr);
  }
  // GL objects die with the context current, on the GUI thread (house style rule 7,
  // docs/development.md).
  if (renderer_ || overlayDevice_ || deviceUpload_) {
    onContextAboutToBeDestroyed();
  }
}

void ImageView::onContextAboutToBeDestroyed() {
  makeCurrent();
  overlayDevice_.reset();
  deviceUpload_.reset();  // unregisters the texture while it still exists
  renderer_.reset();
  doneCurrent();
}

void ImageView::setLiveSource(const pipeline::Engine* engine) {
  if (engine == liveSource_) {
    return;
  }
  liveSource_ = engine;
  if (renderer_) {
    makeCurrent();
    deviceUpload_.reset();
    chooseDisplayPath();
    doneCurrent();
  }
}

void ImageView::chooseDisplayPath() {
  if (liveSource_ == nullptr) {
    setDisplayPath(false, tr("host upload"));
    return;
  }
  std::string reason;
  deviceUpload_ = DeviceImageUpload::create(liveSource_->backend(), reason);
  if (deviceUpload_) {
    setDisplayPath(true, QString::fromStdString(deviceUpload_->description()));
  } else {
    setDisplayPath(false, tr("host upload (%1)").arg(QString::fromStdString(reason)));
  }
}

void ImageView::setDisplayPath(bool deviceUpload, const QString& description) {
  displayPath_ = description;
  emit displayPathChanged(deviceUpload, description);
}

std::vector<float> ImageView::textureContents() {
  if (!renderer_) {
    return {};
  }
  makeCurrent();
  std::vector<float> pixels = renderer_->readTexture();
  doneCurrent();
  return pixels;
}

void ImageView::uploadDisplayed() {
  const std::int64_t start = profile::steadyNowNs();
  uploadDisplayedFrame();
  const std::int64_t end = profile::steadyNowNs();
  uploadMsTotal_ += static_cast<double>(end - start) * 1e-6;
  ++uploads_;
  displayProbe_.record(start, end,
                       displayed_ ? static_cast<std::int64_t>(displayed_->header.sequence) : -1);
}

void ImageView::uploadDisplayedFrame() {
  if (!displayed_->pixelsInCineloop) {
    if (deviceUpload_ &&
        !renderer_->textureMatches(displayed_->geometry.nx, displayed_->geometry.nz,
                                   displayed_->geometry.layers)) {
      deviceUpload_->detach();  // the texture is about to be reallocated
    }
    renderer_->upload(*displayed_);
    return;
  }
  if (liveSource_ == nullptr) {
    return;  // nowhere to read the pixels from; keep the previous image
  }
  if (deviceUpload_) {
    try {
      if (uploadFromCineloop()) {
        return;
      }
    } catch (const std::exception& error) {
      deviceUpload_->detach();
      deviceUpload_.reset();
      setDisplayPath(false, tr("host upload (the CUDA-OpenGL interop failed: %1)")
                                .arg(QString::fromStdString(error.what())));
    }
  }
  // The host path for a frame left in the cineloop: one blocking copy, then glTexSubImage2D.
  auto copy = std::make_shared<Image>();
  if (liveSource_->cineloop().copyImage(displayed_->header.sequence, copy->pixels, copy->header,
                                        copy->geometry) ||
      liveSource_->cineloop().copyImage(std::nullopt, copy->pixels, copy->header, copy->geometry)) {
    displayed_ = std::move(copy);
    renderer_->upload(*displayed_);
  }
}

bool ImageView::uploadFromCineloop() {
  const pipeline::Cineloop& cineloop = liveSource_->cineloop();
  acquire::FrameHeader header;
  process::ImageGeometry geometry;
  if (deviceUpload_->upload(*renderer_, cineloop, displayed_->header.sequence, header, geometry) &&
      geometry == displayed_->geometry) {
    return true;
  }
  // Overwritten (or reconfigured) before it could be shown: show the newest instead.
  if (!deviceUpload_->upload(*renderer_, cineloop, std::nullopt, header, geometry)) {
    return false;
  }
  auto newest = std::make_shared<Image>();
  newest->header = header;
  newest->geometry = geometry;
  newest->pixelsInCineloop = true;
  displayed_ = std::move(newest);
  return true;
}

QRect ImageView::imageRectInFramebuffer() const {
  if (!displayed_) {
    return {};
  }
  const qreal ratio = devicePixelRatioF();
  const QRect framebuffer(0, 0, qRound(width() * ratio), qRound(height() * ratio));
  const QMargins& room = compact_ ? kCompactOverlayMargins : kOverlayMargins;
  const QMargins margins(qRound(room.left() * ratio), qRound(room.top() * ratio),
                         qRound(room.right() * ratio), qRound(room.bottom() * ratio));
  const QRect area = framebuffer.marginsRemoved(margins);
  const process::ImageGeometry& g = displayed_->geometry;
  const double widthM = g.nx * g.dx;
  const double heightM = g.nz * g.dz;
  if (stretch_ && widthM > 0 && heightM > 0 &&
      std::max(widthM / heightM, heightM / widthM) > kThinAspect) {
    return area.isEmpty() ? QRect() : area;  // a thin image fills the view
  }
  return letterboxRect(displayed_->geometry, area);
}

QRectF ImageView::imageRectInWidget() const {
  const QRectF device(imageRectInFramebuffer());
  const qreal ratio = devicePixelRatioF();
  return {device.topLeft() / ratio, device.size() / ratio};
}

QPointF ImageView::physicalToWidget(double xM, double zM) const {
  if (!displayed_) {
    return {-1.0, -1.0};
  }
  const QPointF device =
      mapPhysicalToView(displayed_->geometry, imageRectInFramebuffer(), window_, {xM, zM});
  return device / devicePixelRatioF();
}

std::optional<PhysicalPoint> ImageView::widgetToPhysical(QPointF widgetPos) const {
  if (!displayed_) {
    return std::nullopt;
  }
  return mapViewToPhysical(displayed_->geometry, imageRectInFramebuffer(), window_,
                           widgetPos * devicePixelRatioF());
}

void ImageView::setZoom(double factor, QPointF anchor) {
  const QRect rect = imageRectInFramebuffer();
  const ViewWindow next = zoomedAbout(window_, rect, factor, anchor * devicePixelRatioF());
  if (next != window_) {
    window_ = next;
    update();
  }
}

void ImageView::resetView() {
  if (window_ != ViewWindow{}) {
    window_ = {};
    update();
  }
}

void ImageView::panBy(QPointF delta) {
  window_ = pannedBy(window_, imageRectInFramebuffer(), delta);
  update();
}

std::optional<CursorReadout> ImageView::readoutAt(QPointF widgetPos) const {
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
      readout.row >= geometry.nz) {
    return std::nullopt;
  }
  const std::size_t index = static_cast<std::size_t>(readout.row) * geometry.nx +
                            static_cast<std::size_t>(readout.column);
  const auto flowValue = [](float value) {
    return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
  };
  if (!displayed_->pixelsInCineloop) {
    if (displayed_->pixels.size() < geometry.values()) {
      return std::nullopt;
    }
    readout.db = displayed_->pixels[index];
    if (geometry.hasFlow()) {
      readout.velocity = flowValue(displayed_->pixels[geometry.pixels() + index]);
      readout.powerDb = flowValue(displayed_->pixels[3 * geometry.pixels() + index]);
    }
    return readout;
  }
  // The pixels stayed on the device: fetch the one under the cursor (4 bytes).
  if (liveSource_ == nullptr) {
    return std::nullopt;
  }
  const compute::Backend& backend = liveSource_->backend();
  float value = 0.0f;
  float velocity = NAN, power = NAN;
  acquire::FrameHeader header;
  process::ImageGeometry read;
  if (!liveSource_->cineloop().readImage(
          displayed_->header.sequence,
          [&](const float* image, const process::ImageGeometry& g) {
            if (!(g == geometry)) {
              return false;
            }
            backend.copyBlocking(&value, image + index, sizeof(float));
            if (g.hasFlow()) {
              backend.copyBlocking(&velocity, image + g.pixels() + index, sizeof(float));
              backend.copyBlocking(&power, image + 3 * g.pixels() + index, sizeof(float));
            }
            return true;
          },
          header, read)) {
    return std::nullopt;  // overwritten since it was shown
  }
  readout.db = value;
  readout.velocity = flowValue(velocity);
  readout.powerDb = flowValue(power);
  return readout;
}

std::optional<double> ImageView::valueAt(QPointF widgetPos) const {
  const auto readout = readoutAt(widgetPos);
  return readout ? std::optional<double>(readout->db) : std::nullopt;
}

QString ImageView::readoutText() const {
  const auto readout = cursor_ ? readoutAt(*cursor_) : std::nullopt;
  if (!readout) {
    return {};
  }
  QString text = formatReadout(readout->position.xM, readout->position.zM, readout->db);
  if (readout->velocity && flowLook_.map != FlowMap::Off) {
    text += QStringLiteral("   v %1 m/s").arg(*readout->velocity, 0, 'f', 3);
  }
  return text;
}

QRect ImageView::scaleBarRect() const {
  if (!displayed_) {
    return {};
  }
  const QRectF image = imageRectInWidget();
  const auto topLeft = *widgetToPhysical(image.topLeft());
  const auto bottomRight = *widgetToPhysical(image.bottomRight());
  return scaleBarFor({image, topLeft.xM, bottomRight.xM, topLeft.zM, bottomRight.zM}).bar;
}

void ImageView::setFrame(std::shared_ptr<const Image> frame) {
  pending_ = std::move(frame);
  update();
}

void ImageView::setFlowLook(const FlowLook& look) {
  if (!(look == flowLook_)) {
    flowLook_ = look;
    update();
  }
}

void ImageView::setGainDb(double gainDb) {
  if (gainDb != gainDb_) {
    gainDb_ = gainDb;
    update();
  }
}

void ImageView::setDynamicRangeDb(double dynamicRangeDb) {
  dynamicRangeDb = std::max(dynamicRangeDb, 1.0);
  if (dynamicRangeDb != dynamicRangeDb_) {
    dynamicRangeDb_ = dynamicRangeDb;
    update();
  }
}

void ImageView::setColourMap(ColourMap map) {
  if (map != colourMap_) {
    colourMap_ = map;
    update();
  }
}

void ImageView::setProfiler(std::shared_ptr<const ProfilerSnapshot> snapshot) {
  profiler_ = std::move(snapshot);
  profilerImage_ = {};  // drawn again at the next paint, once per snapshot
  if (!profiler_) {
    profilerRect_ = {};
  }
  update();
}

void ImageView::renderProfiler() {
  // The panel is drawn once per snapshot (a few times a second) into an image that every frame's
  // paint only composites: painting text on the GL device each frame would cost far more.
  QElapsedTimer clock;
  clock.start();
  const qreal ratio = devicePixelRatioF();
  // A view-sized scratch image, kept between snapshots: only the last panel's pixels need
  // clearing, not the whole view's.
  const QSize pixelSize(qRound(width() * ratio), qRound(height() * ratio));
  QImage& image = profilerScratch_;
  if (image.size() != pixelSize || image.devicePixelRatio() != ratio) {
    image = QImage(pixelSize, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::transparent);
  } else {
    for (int y = profilerPixels_.top(); y <= profilerPixels_.bottom(); ++y) {
      auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
      std::fill(line + profilerPixels_.left(), line + profilerPixels_.right() + 1, QRgb{0});
    }
  }
  QPainter painter(&image);
  painter.setFont(font());
  painter.setRenderHint(QPainter::TextAntialiasing);
  profilerRect_ = paintProfiler(painter, profilerArea(), *profiler_);
  painter.end();
  profilerPixels_ =
      QRect(qFloor(profilerRect_.left() * ratio), qFloor(profilerRect_.top() * ratio),
            qCeil(profilerRect_.width() * ratio) + 1, qCeil(profilerRect_.height() * ratio) + 1)
          .intersected(image.rect());
  profilerImage_ = image.copy(profilerPixels_);
  profilerImage_.setDevicePixelRatio(ratio);
  profilerImageSize_ = size();
  profilerRenderMs_ = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
}

void ImageView::setOverlayVisible(bool visible) {
  if (visible != overlayVisible_) {
    overlayVisible_ = visible;
    update();
  }
}

QRectF ImageView::profilerArea() const {
  // Right of the depth ruler and under the lateral ruler (over the image): the panel never hides
  // the rulers' labels.
  const QRectF image = imageRectInWidget();
  const QRectF whole(rect());
  if (image.isEmpty()) {
    return whole.adjusted(0, (compact_ ? kCompactOverlayMargins : kOverlayMargins).top(), 0, 0);
  }
  return QRectF(QPointF(image.left(), image.top()), whole.bottomRight());
}

void ImageView::setFrozen(bool frozen) {
  if (frozen != frozen_) {
    frozen_ = frozen;
    update();
  }
}

void ImageView::wheelEvent(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (displayed_ && notches != 0.0) {
    setZoom(window_.zoom * std::exp2(notches / kWheelNotchesPerDoubling), event->position());
  }
  event->accept();
}

void ImageView::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && dragging_ == nullptr) {
    for (ViewTool* tool : tools_) {
      if (tool->press(event->position(), event->modifiers())) {
        dragging_ = tool;
        break;
      }
    }
    update();
  }
  QOpenGLWidget::mousePressEvent(event);
}

void ImageView::mouseMoveEvent(QMouseEvent* event) {
  cursor_ = event->position();
  if (dragging_ != nullptr) {
    dragging_->move(event->position());
  } else {
    for (ViewTool* tool : tools_) {
      tool->hover(event->position());
    }
  }
  update();  // the readout follows the cursor
}

void ImageView::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton && dragging_ != nullptr) {
    ViewTool* tool = std::exchange(dragging_, nullptr);
    tool->release();
    update();
  }
  QOpenGLWidget::mouseReleaseEvent(event);
}

void ImageView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) {
    return;
  }
  for (ViewTool* tool : tools_) {
    if (tool->doubleClick(event->position(), event->modifiers())) {
      update();
      return;
    }
  }
}

void ImageView::leaveEvent(QEvent* event) {
  cursor_.reset();
  for (ViewTool* tool : tools_) {
    tool->leave();
  }
  update();
  QOpenGLWidget::leaveEvent(event);
}

void ImageView::initializeGL() {
  // A context may be recreated (e.g. when the widget moves to another window); GL objects of the
  // old one must be deleted while it is still current.
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this,
          &ImageView::onContextAboutToBeDestroyed, Qt::UniqueConnection);
  try {
    renderer_ = std::make_unique<ImageRenderer>();
    overlayDevice_ = std::make_unique<QOpenGLPaintDevice>();
    renderingError_.clear();
    chooseDisplayPath();
  } catch (const std::exception& error) {
    renderer_.reset();
    renderingError_ = QString::fromStdString(error.what());
    emit renderingFailed(renderingError_);
  }
}

void ImageView::paintGL() {
  const std::int64_t start = profile::steadyNowNs();
  paintFrame();
  paintMsTotal_ += static_cast<double>(profile::steadyNowNs() - start) * 1e-6;
  ++paints_;
}

void ImageView::paintFrame() {
  if (!renderer_) {
    // OpenGL could not be set up (renderingError() says why): show the background only.
    QOpenGLFunctions* gl = context()->functions();
    gl->glClearColor(ImageRenderer::kBackground[0], ImageRenderer::kBackground[1],
                     ImageRenderer::kBackground[2], 1.0f);
    gl->glClear(GL_COLOR_BUFFER_BIT);
    return;
  }
  const bool newFrame = pending_ != nullptr;
  if (newFrame) {
    if (displayed_ && !(displayed_->geometry == pending_->geometry)) {
      window_ = {};  // another image: zoom and pan no longer mean anything
    }
    displayed_ = std::move(pending_);
    hostPixelsSequence_ = ~std::uint64_t{0};  // another frame: its host copy is not made yet
    if (ownLevel_ && !displayed_->pixels.empty()) {
      ownWhiteDb_ = suggestGainDb(intensityLayer(displayed_->pixels, displayed_->geometry));
      gainDb_ = ownWhiteDb_ - relativeGainDb_;
    }
    uploadDisplayed();
  } else if (displayed_ && !renderer_->hasImage()) {
    uploadDisplayed();  // a new context after a context loss
  }
  renderer_->setColourMap(colourMap_);
  const int framebufferHeight = qRound(height() * devicePixelRatioF());
  renderer_->render(imageRectInFramebuffer(), framebufferHeight, static_cast<float>(gainDb_),
                    static_cast<float>(dynamicRangeDb_), window_, flowLook_,
                    displayed_ ? displayed_->geometry.aliasingVelocity : 0.0, depthGain_);
  if (newFrame && profileTool_.hasLine()) {
    profileTool_.resample();
  }
  if ((overlayVisible_ || profiler_ || profileTool_.hasLine() || frozen_ ||
       shapeTool_.list() != nullptr || showsFlow()) &&
      displayed_ && overlayDevice_) {
    drawOverlay();
  }
  if (newFrame) {
    ++framesDisplayed_;
    emit frameDisplayed(displayed_->header.sequence);
  }
}

void ImageView::drawOverlay() {
  const QRectF image = imageRectInWidget();
  const auto topLeft = *widgetToPhysical(image.topLeft());
  const auto bottomRight = *widgetToPhysical(image.bottomRight());
  const qreal ratio = devicePixelRatioF();
  overlayDevice_->setSize(QSize(qRound(width() * ratio), qRound(height() * ratio)));
  overlayDevice_->setDevicePixelRatio(ratio);
  // After the GL draw; ImageRenderer::render() resets the GL state the painter changes.
  QPainter painter(overlayDevice_.get());
  painter.setFont(font());
  if (overlayVisible_) {
    paintOverlay(painter, {image, topLeft.xM, bottomRight.xM, topLeft.zM, bottomRight.zM},
                 readoutText(), !compact_);
  }
  profileTool_.paint(painter);
  shapeTool_.paint(painter);
  colourBoxTool_.paint(painter);
  if (showsFlow()) {
    paintFlowColourBar(painter, image, flowLook_, displayed_->geometry.aliasingVelocity);
  }
  if (frozen_) {
    paintFrozenBadge(painter, size());
  }
  if (profiler_) {
    if (profilerImage_.isNull() || profilerImageSize_ != size()) {
      renderProfiler();
    }
    QElapsedTimer clock;
    clock.start();
    painter.drawImage(QPointF(qFloor(profilerRect_.left() * ratio) / ratio,
                              qFloor(profilerRect_.top() * ratio) / ratio),
                      profilerImage_);
    profilerPaintMs_ = static_cast<double>(clock.nsecsElapsed()) * 1e-6;
  }
}

}  // namespace cineflow::ui
