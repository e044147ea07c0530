#pragma once
// VolumeCamera: where the 3-D view looks from, and the mapping between the volume, the screen and
// the ray caster's texture coordinates.
//
// The scene is the volume's box in millimetres, centred at the origin: x lateral (to the right),
// depth downward, elevation towards the viewer at the start (so the default view looks along the
// elevation axis and shows the B-mode plane, depth down, as the 2-D views do). Orbit turns the box
// about its centre (yaw about the screen's vertical, pitch about its horizontal), zoom scales it
// (1: the box's diagonal fits the viewport's shorter side) and pan shifts it in the screen's
// plane. The projection is orthographic: a length reads the same at every depth, and the rays are
// parallel.
//
// Texture coordinates: s along x (nx), t along depth (nz), r along elevation (ny), each [0, 1]
// over the box, matching a [ny][nz][nx] volume uploaded as a width nx, height nz, depth ny texture.

#include <QMatrix4x4>
#include <QPointF>
#include <QSize>
#include <QVector3D>

namespace cineflow::ui {

class VolumeCamera {
 public:
  void setExtentMm(const QVector3D& extent);  // x, depth, elevation
  QVector3D extentMm() const { return extent_; }

  void orbit(float yawDegrees, float pitchDegrees);  // pitch held within +-89 degrees
  void setAngles(float yawDegrees, float pitchDegrees);
  float yaw() const { return yaw_; }
  float pitch() const { return pitch_; }
  void zoomBy(float factor);  // zoom held within [0.1, 50]
  float zoom() const { return zoom_; }
  // Shifts the scene by `pixels` (widget pixels, y downward) in a viewport of `viewport`.
  void panBy(QPointF pixels, QSize viewport);
  void reset();  // the default view (kDefaultYaw, kDefaultPitch), zoom 1, centred
  // The default view looks a little from the side and from above, so that the volume reads as a
  // volume at once; setAngles(0, 0) looks straight along elevation (the B-mode plane face-on).
  static constexpr float kDefaultYaw = -30.0f;
  static constexpr float kDefaultPitch = 20.0f;

  // Scene (mm, box-centred, y up) to clip space, for a viewport of `viewport` pixels.
  QMatrix4x4 sceneToClip(QSize viewport) const;
  // Texture coordinates (s, t, r) to the scene, and their composition with sceneToClip.
  QMatrix4x4 textureToScene() const;
  QMatrix4x4 textureToClip(QSize viewport) const {
    return sceneToClip(viewport) * textureToScene();
  }
  // Where texture point (s, t, r) shows in the widget (pixels from the top-left).
  QPointF project(const QVector3D& texture, QSize viewport) const;
  // Millimetres per widget pixel at the current zoom (for the scale bar).
  float mmPerPixel(QSize viewport) const;

 private:
  QVector3D extent_{1, 1, 1};
  float yaw_ = kDefaultYaw;
  float pitch_ = kDefaultPitch;
  float zoom_ = 1;
  QPointF panMm_;  // the scene's shift in screen millimetres (x right, y up)
};

}  // namespace cineflow::ui
