#pragma once
// VolumeView: the 3-D view of a volume (the newest complete one, or a buffered one in review),
// ray cast on the GPU by VolumeRenderer from a 3-D texture, in the volume's physical proportions.
//
// Mouse: drag with the left button to orbit, with the right or middle button to pan, the wheel to
// zoom, a double-click (or R) to reset. While the view moves it casts a quarter of the rays (half
// the resolution along each side, scaled up) and samples every 2 voxels instead of every half
// voxel, and draws at full quality again 200 ms after it stops. Axes (x, depth,
// elevation) and a scale bar are drawn over the image. The frame rate of the last second's paints
// is framesPerSecond(). Rendering never touches the engine: a volume arrives as a host copy.
//
// Exports (the PNG, the turntable) are drawn offscreen at a size of their own (renderImage), so
// the view on screen neither changes nor flickers meanwhile. Its level is either the display
// controls' absolute gain (setGainDb) or each volume's own (setOwnLevel), as in the 2-D views.
//
// Every method must be called on the GUI thread.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <QElapsedTimer>
#include <QImage>
#include <QOpenGLWidget>
#include <QPolygonF>
#include <QTimer>
#include <QVector3D>

#include "common/colour_maps.hpp"
#include "compute/backend.hpp"
#include "view3d/volume_camera.hpp"
#include "view3d/volume_renderer.hpp"
#include "volumes/volume_data.hpp"

class QOpenGLFramebufferObject;
class QPainter;

namespace cineflow::ui {

class DeviceVolumeUpload;

class VolumeView : public QOpenGLWidget {
  Q_OBJECT

 public:
  explicit VolumeView(QWidget* parent = nullptr);
  ~VolumeView() override;

  void setVolume(std::shared_ptr<const VolumeData> volume);
  // On the CUDA backend with CUDA-OpenGL interop: `volume` (float32 dB [ny][nz][nx], the
  // backend's device memory) straight into the 3-D texture (DeviceVolumeUpload), described by
  // `described` (its voxels empty). Call with the volume held (a VolumeLock, a store Access) and
  // its work complete. False when that path is not available here (deviceUploadReason() says
  // why) or failed: then copy it through the host (setVolume). The view keeps CUDA resources
  // allocated through `backend` (the texture's registration, a stream, the brick buffers) until
  // releaseDevice(): call it before `backend` is destroyed (the view's own destructor does it too,
  // so a backend that outlives the view needs nothing).
  bool showDeviceVolume(compute::Backend& backend, const float* volume,
                        const VolumeData& described);
  // Drops what showDeviceVolume() holds of its backend; a volume shown from the device is shown
  // again only when a volume comes next (the texture is kept until then).
  void releaseDevice();
  QString deviceUploadReason() const { return deviceReason_; }
  std::shared_ptr<const VolumeData> volume() const { return volume_; }
  void clearVolume();

  const VolumeLook& look() const { return look_; }  // gainDb: the white level in effect
  void setMode(VolumeRenderMode mode);
  // The white level (dB shown as white) when the view is not at its own level.
  void setGainDb(float gain);
  // Own level (as ImageView::setOwnLevel): the white level is each volume's own (volume_level.hpp:
  // suggestGainDb of a sample of its voxels, taken once when it arrives) moved by the relative
  // gain, instead of setGainDb()'s absolute level, so that a volume of another modality than the
  // live source's shows at its own levels. Off by default.
  void setOwnLevel(bool own);
  bool ownLevel() const { return ownLevel_; }
  // In own-level mode: the operator's gain relative to the suggested level (DisplayControls::
  // relativeGainDb, dB; positive brightens).
  void setRelativeGainDb(double db);
  // The level suggested for the volume shown (dB), once one has arrived.
  std::optional<double> ownWhiteDb() const { return ownWhiteDb_; }
  void setDynamicRangeDb(float range);
  void setIsoLevel(float level);
  void setColourMap(ColourMap map);
  // The opacity of each of the 256 display levels (the transfer function's curve).
  void setOpacityCurve(const std::vector<float>& opacity);
  // The clipping box in fractions of the volume along x, depth and elevation.
  void setClipBox(const QVector3D& low, const QVector3D& high);

  // The slice plane: elevation slice `slice` of the volume outlined over the image (its 2-D
  // section is what the slice view shows); none when nullopt.
  void setSlicePlane(std::optional<int> slice);
  std::optional<int> slicePlane() const { return slicePlane_; }
  // The outline's corners in widget pixels (empty without a plane or a volume).
  QPolygonF slicePlaneOutline() const;

  // The axes, scale bar and caption over the image (on by default).
  void setOverlayVisible(bool visible);
  bool overlayVisible() const { return overlayVisible_; }

  VolumeCamera& camera() { return camera_; }
  void resetView();
  void setAngles(float yawDegrees, float pitchDegrees);

  // The view drawn offscreen at `size` pixels at full quality, with `camera` (the view's own, or a
  // turned copy for the turntable), its overlay included: the framing adapts to the size's aspect
  // (zoom 1 fits the volume's diagonal in the shorter side) rather than stretching. The view on
  // screen is left as it is (nothing repaints). Null when it cannot be drawn (no OpenGL context
  // yet: the view was never shown; the size is too large for this OpenGL), `error` saying why.
  QImage renderImage(QSize size, const VolumeCamera& camera, QString* error = nullptr);
  QImage renderImage(QSize size, QString* error = nullptr) {
    return renderImage(size, camera_, error);
  }
  // The size of the view on screen in device pixels ("As shown").
  QSize framebufferSize() const;

  // Where texture point (s, t, r) of the volume shows in the widget, in device pixels.
  QPointF projectToFramebuffer(const QVector3D& texture) const;
  double framesPerSecond() const { return fps_; }
  double lastDrawMs() const { return lastDrawMs_; }  // the last frame's ray casting, finished
  bool moving() const { return moving_; }
  QString renderingError() const { return renderingError_; }
  std::uint64_t framesDrawn() const { return framesDrawn_; }

 signals:
  void framesPerSecondChanged(double fps);
  void renderingFailed(const QString& message);

 protected:
  void initializeGL() override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void onContextAboutToBeDestroyed();
  void startMoving();  // coarse sampling until the settle timer fires
  void updateExtent();
  // Uploads what changed since the last picture (the volume, the opacity table) into the renderer;
  // false when that failed (renderingError() says why).
  bool prepareRenderer();
  void takeOwnLevel();  // ownWhiteDb_ from the host copy's voxels, where there are some
  void applyLevel();    // look_.gainDb from the absolute or the own level
  // The overlay (slice plane, axes, scale bar, caption) over a picture `size` logical pixels large
  // seen through `camera`; `coarse` adds "moving" to the caption.
  void drawOverlay(QPainter& painter, QSize size, const VolumeCamera& camera, bool coarse) const;
  QPolygonF slicePlaneOutline(const VolumeCamera& camera, QSize size) const;

  std::unique_ptr<VolumeRenderer> renderer_;
  std::unique_ptr<DeviceVolumeUpload> deviceUpload_;  // before renderer_ in teardown
  const compute::Backend* deviceBackend_ = nullptr;   // the one deviceUpload_ was made for
  QString deviceReason_;
  std::shared_ptr<const VolumeData> volume_;
  bool uploadPending_ = false;
  VolumeLook look_;
  float absoluteGainDb_ = 0;
  bool ownLevel_ = false;
  std::optional<double> ownWhiteDb_;
  double relativeGainDb_ = 0;
  std::unique_ptr<QOpenGLFramebufferObject> exportTarget_;  // renderImage's, kept for the next
  ColourMap colourMap_ = ColourMap::Grey;
  std::vector<float> opacity_;   // the operator's curve, kept for a renderer made later
  bool opacityPending_ = false;  // not yet in the renderer's table
  VolumeCamera camera_;
  QPointF lastMouse_;
  Qt::MouseButton dragging_ = Qt::NoButton;
  bool moving_ = false;
  bool overlayVisible_ = true;
  std::optional<int> slicePlane_;
  QTimer settle_;
  QElapsedTimer second_;
  int paintsThisSecond_ = 0;
  double fps_ = 0;
  double lastDrawMs_ = 0;
  std::uint64_t framesDrawn_ = 0;
  QString renderingError_;
};

}  // namespace cineflow::ui
