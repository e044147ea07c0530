#include "view3d/volume_view.hpp"

#include <algorithm>
#include <cmath>

#include <QDateTime>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QWheelEvent>

#include "common/display_geometry.hpp"
#include "view3d/device_volume_upload.hpp"
#include "view3d/volume_level.hpp"

namespace cineflow::ui {
namespace {

constexpr float kStillStepVoxels = 0.5f;
constexpr float kMovingStepVoxels = 2.0f;
constexpr float kMovingResolution = 0.5f;
constexpr int kSettleMs = 200;
constexpr float kDegreesPerPixel = 0.4f;

}  // namespace

VolumeView::VolumeView(QWidget* parent) : QOpenGLWidget(parent) {
  setObjectName(QStringLiteral("volumeView"));
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(160, 120);
  look_.stepVoxels = kStillStepVoxels;
  settle_.setSingleShot(true);
  settle_.setInterval(kSettleMs);
  connect(&settle_, &QTimer::timeout, this, [this] {
    moving_ = false;
    look_.stepVoxels = kStillStepVoxels;
    look_.resolution = 1.0f;
    update();
  });
  second_.start();
}

VolumeView::~VolumeView() {
  if (QOpenGLContext* current = context()) {
    disconnect(current, nullptr, this, nullptr);
  }
  if (renderer_) {
    onContextAboutToBeDestroyed();
  }
}

void VolumeView::onContextAboutToBeDestroyed() {
  makeCurrent();
  deviceUpload_.reset();  // unregisters the texture while it still exists
  deviceBackend_ = nullptr;
  renderer_.reset();
  exportTarget_.reset();
  doneCurrent();
  // A new context uploads a host copy again; a volume that came from the device comes again.
  if (volume_ && volume_->voxels.empty()) {
    volume_.reset();
  }
  uploadPending_ = volume_ != nullptr;
}

void VolumeView::releaseDevice() {
  if (!deviceUpload_) {
    deviceBackend_ = nullptr;
    return;
  }
  makeCurrent();
  deviceUpload_.reset();  // unregisters the texture, frees its buffers through their backend
  deviceBackend_ = nullptr;
  doneCurrent();
}

bool VolumeView::showDeviceVolume(compute::Backend& backend, const float* volume,
                                  const VolumeData& described) {
  if (!renderer_) {
    deviceReason_ =
        renderingError_.isEmpty() ? tr("the view has no OpenGL context yet") : renderingError_;
    return false;
  }
  makeCurrent();
  if (deviceBackend_ != &backend) {
    std::string reason;
    deviceUpload_ = DeviceVolumeUpload::create(backend, reason);
    deviceBackend_ = &backend;
    deviceReason_ = QString::fromStdString(reason);
  }
  bool shown = false;
  std::vector<float> sample;
  if (deviceUpload_) {
    try {
      deviceUpload_->upload(*renderer_, volume,
                            process::VolumeShape{described.ny, described.nz, described.nx});
      sample = deviceUpload_->levelSample();
      shown = true;
    } catch (const std::exception& error) {
      deviceUpload_.reset();  // the host path from now on, for this backend
      deviceReason_ = QString::fromStdString(error.what());
      emit renderingFailed(tr("CUDA-OpenGL interop failed (%1); copying volumes through the host")
                               .arg(deviceReason_));
    }
  }
  doneCurrent();
  if (!shown) {
    return false;
  }
  auto shownVolume = std::make_shared<VolumeData>(described);
  shownVolume->voxels.clear();  // in the texture only
  const bool resized = !volume_ || volume_->nx != described.nx || volume_->nz != described.nz ||
                       volume_->ny != described.ny || volume_->voxelMm != described.voxelMm;
  volume_ = std::move(shownVolume);
  uploadPending_ = false;
  // Taken with own level off too: the view keeps no voxels to take it from later.
  ownWhiteDb_ = suggestGainDb(sample);
  applyLevel();
  if (resized) {
    updateExtent();
  }
  update();
  return true;
}

void VolumeView::setVolume(std::shared_ptr<const VolumeData> volume) {
  const bool resized = !volume_ || !volume || volume_->nx != volume->nx ||
                       volume_->nz != volume->nz || volume_->ny != volume->ny ||
                       volume_->voxelMm != volume->voxelMm;
  volume_ = std::move(volume);
  uploadPending_ = volume_ != nullptr;
  if (ownLevel_) {
    takeOwnLevel();
    applyLevel();
  }
  if (resized) {
    updateExtent();
  }
  update();
}

void VolumeView::clearVolume() {
  volume_.reset();
  uploadPending_ = false;
  update();
}

void VolumeView::updateExtent() {
  if (volume_) {
    camera_.setExtentMm(QVector3D(volume_->voxelMm.x() * static_cast<float>(volume_->nx),
                                  volume_->voxelMm.y() * static_cast<float>(volume_->nz),
                                  volume_->voxelMm.z() * static_cast<float>(volume_->ny)));
  }
}

void VolumeView::setMode(VolumeRenderMode mode) {
  look_.mode = mode;
  update();
}
void VolumeView::setGainDb(float gain) {
  absoluteGainDb_ = gain;
  applyLevel();
}
void VolumeView::setOwnLevel(bool own) {
  ownLevel_ = own;
  if (own) {
    takeOwnLevel();
  }
  applyLevel();
}
void VolumeView::takeOwnLevel() {
  if (volume_ && !volume_->voxels.empty()) {
    ownWhiteDb_ = suggestGainDb(levelSample(
        volume_->voxels.data(), process::VolumeShape{volume_->ny, volume_->nz, volume_->nx}));
  }
}
void VolumeView::setRelativeGainDb(double db) {
  relativeGainDb_ = db;
  applyLevel();
}
void VolumeView::applyLevel() {
  look_.gainDb = ownLevel_ && ownWhiteDb_ ? static_cast<float>(*ownWhiteDb_ - relativeGainDb_)
                                          : absoluteGainDb_;
  update();
}
void VolumeView::setDynamicRangeDb(float range) {
  look_.dynamicRangeDb = std::max(range, 1.0f);
  update();
}
void VolumeView::setIsoLevel(float level) {
  look_.isoLevel = std::clamp(level, 0.0f, 1.0f);
  update();
}
void VolumeView::setColourMap(ColourMap map) {
  colourMap_ = map;
  update();
}
void VolumeView::setOpacityCurve(const std::vector<float>& opacity) {
  opacity_ = opacity;
  opacityPending_ = true;
  update();
}

void VolumeView::setClipBox(const QVector3D& low, const QVector3D& high) {
  const auto clamp01 = [](const QVector3D& v) {
    return QVector3D(std::clamp(v.x(), 0.0f, 1.0f), std::clamp(v.y(), 0.0f, 1.0f),
                     std::clamp(v.z(), 0.0f, 1.0f));
  };
  look_.clipMin = clamp01(low);
  look_.clipMax = clamp01(high);
  update();
}

void VolumeView::setSlicePlane(std::optional<int> slice) {
  slicePlane_ = slice;
  update();
}

QPolygonF VolumeView::slicePlaneOutline() const {
  return slicePlaneOutline(camera_, QSize(width(), height()));
}

QPolygonF VolumeView::slicePlaneOutline(const VolumeCamera& camera, QSize size) const {
  if (!slicePlane_ || !volume_ || volume_->ny <= 0) {
    return {};
  }
  const int slice = std::clamp(*slicePlane_, 0, volume_->ny - 1);
  const float r = (static_cast<float>(slice) + 0.5f) / static_cast<float>(volume_->ny);
  return QPolygonF({camera.project({0, 0, r}, size), camera.project({1, 0, r}, size),
                    camera.project({1, 1, r}, size), camera.project({0, 1, r}, size)});
}

void VolumeView::setOverlayVisible(bool visible) {
  overlayVisible_ = visible;
  update();
}

void VolumeView::resetView() {
  camera_.reset();
  update();
}

void VolumeView::setAngles(float yawDegrees, float pitchDegrees) {
  camera_.setAngles(yawDegrees, pitchDegrees);
  update();
}

QSize VolumeView::framebufferSize() const {
  const qreal ratio = devicePixelRatioF();
  return {static_cast<int>(std::lround(width() * ratio)),
          static_cast<int>(std::lround(height() * ratio))};
}

QPointF VolumeView::projectToFramebuffer(const QVector3D& texture) const {
  return camera_.project(texture, framebufferSize());
}

void VolumeView::initializeGL() {
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this,
          &VolumeView::onContextAboutToBeDestroyed, Qt::UniqueConnection);
  try {
    renderer_ = std::make_unique<VolumeRenderer>();
    opacityPending_ = true;  // a new renderer starts from its default curve
    renderingError_.clear();
    uploadPending_ = volume_ != nullptr;
  } catch (const std::exception& error) {
    renderer_.reset();
    renderingError_ = QString::fromStdString(error.what());
    emit renderingFailed(renderingError_);
  }
}

bool VolumeView::prepareRenderer() {
  try {
    if (uploadPending_ && volume_ && !volume_->voxels.empty()) {
      renderer_->upload(volume_->voxels.data(), volume_->nx, volume_->nz, volume_->ny);
      uploadPending_ = false;
    }
    renderer_->setColourMap(colourMap_);
    if (opacityPending_ && !opacity_.empty()) {
      renderer_->setOpacityTable(opacity_);
      opacityPending_ = false;
    }
    return true;
  } catch (const std::exception& error) {
    volume_.reset();
    uploadPending_ = false;
    renderingError_ = QString::fromStdString(error.what());
    emit renderingFailed(renderingError_);
    return false;
  }
}

void VolumeView::paintGL() {
  if (!renderer_) {
    QOpenGLFunctions* gl = context()->functions();
    gl->glClearColor(0, 0, 0, 1);
    gl->glClear(GL_COLOR_BUFFER_BIT);
    return;
  }
  prepareRenderer();
  const QSize size = framebufferSize();
  const QMatrix4x4 clipToTexture = camera_.textureToClip(size).inverted();
  const std::int64_t start = QDateTime::currentMSecsSinceEpoch();
  renderer_->render(defaultFramebufferObject(), QRect(QPoint(0, 0), size), size.height(),
                    clipToTexture, volume_ ? volume_->voxelMm : QVector3D(1, 1, 1), look_);
  context()->functions()->glFinish();  // the time of the frame, not of its queueing
  lastDrawMs_ = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - start);
  ++framesDrawn_;
  ++paintsThisSecond_;
  if (second_.elapsed() >= 1000) {
    fps_ = paintsThisSecond_ * 1000.0 / static_cast<double>(second_.restart());
    paintsThisSecond_ = 0;
    emit framesPerSecondChanged(fps_);
  }
  if (overlayVisible_ || slicePlane_) {
    QPainter painter(this);
    drawOverlay(painter, QSize(width(), height()), camera_, moving_);
  }
}

void VolumeView::startMoving() {
  moving_ = true;
  look_.stepVoxels = kMovingStepVoxels;
  look_.resolution = kMovingResolution;
  settle_.start();
  update();
}

void VolumeView::mousePressEvent(QMouseEvent* event) {
  dragging_ = event->button();
  lastMouse_ = event->position();
}

void VolumeView::mouseMoveEvent(QMouseEvent* event) {
  if (dragging_ == Qt::NoButton) {
    return;
  }
  const QPointF delta = event->position() - lastMouse_;
  lastMouse_ = event->position();
  if (dragging_ == Qt::LeftButton) {
    camera_.orbit(static_cast<float>(delta.x()) * kDegreesPerPixel,
                  static_cast<float>(delta.y()) * kDegreesPerPixel);
  } else {
    camera_.panBy(delta, QSize(width(), height()));
  }
  startMoving();
}

void VolumeView::mouseReleaseEvent(QMouseEvent*) {
  dragging_ = Qt::NoButton;
}

void VolumeView::mouseDoubleClickEvent(QMouseEvent*) {
  resetView();
}

void VolumeView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  camera_.zoomBy(static_cast<float>(std::pow(1.15, steps)));
  startMoving();
  event->accept();
}

void VolumeView::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_R) {
    resetView();
    return;
  }
  QOpenGLWidget::keyPressEvent(event);
}

}  // namespace cineflow::ui
