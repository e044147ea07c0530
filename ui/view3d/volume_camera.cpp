#include "view3d/volume_camera.hpp"

#include <algorithm>
#include <cmath>

namespace cineflow::ui {

void VolumeCamera::setExtentMm(const QVector3D& extent) {
  extent_ = QVector3D(std::max(extent.x(), 1e-6f), std::max(extent.y(), 1e-6f),
                      std::max(extent.z(), 1e-6f));
}

void VolumeCamera::orbit(float yawDegrees, float pitchDegrees) {
  setAngles(yaw_ + yawDegrees, pitch_ + pitchDegrees);
}

void VolumeCamera::setAngles(float yawDegrees, float pitchDegrees) {
  yaw_ = std::remainder(yawDegrees, 360.0f);
  pitch_ = std::clamp(pitchDegrees, -89.0f, 89.0f);
}

void VolumeCamera::zoomBy(float factor) {
  if (factor > 0 && std::isfinite(factor)) {
    zoom_ = std::clamp(zoom_ * factor, 0.1f, 50.0f);
  }
}

void VolumeCamera::panBy(QPointF pixels, QSize viewport) {
  const float perPixel = mmPerPixel(viewport);
  panMm_ += QPointF(pixels.x() * perPixel, -pixels.y() * perPixel);
}

void VolumeCamera::reset() {
  yaw_ = kDefaultYaw;
  pitch_ = kDefaultPitch;
  zoom_ = 1;
  panMm_ = {};
}

float VolumeCamera::mmPerPixel(QSize viewport) const {
  const int shorter = std::max(1, std::min(viewport.width(), viewport.height()));
  return extent_.length() / (zoom_ * static_cast<float>(shorter));
}

QMatrix4x4 VolumeCamera::textureToScene() const {
  // s -> x right, t -> depth down (scene y = -depth), r -> elevation towards the viewer.
  QMatrix4x4 m;
  m.scale(extent_.x(), -extent_.y(), extent_.z());
  m.translate(-0.5f, -0.5f, -0.5f);
  return m;
}

QMatrix4x4 VolumeCamera::sceneToClip(QSize viewport) const {
  const float perPixel = mmPerPixel(viewport);
  const float halfWidth = 0.5f * static_cast<float>(std::max(1, viewport.width())) * perPixel;
  const float halfHeight = 0.5f * static_cast<float>(std::max(1, viewport.height())) * perPixel;
  const float reach = extent_.length();  // the box fits between the planes at any angle
  QMatrix4x4 projection;
  projection.ortho(-halfWidth, halfWidth, -halfHeight, halfHeight, -reach, reach);
  QMatrix4x4 view;
  view.translate(static_cast<float>(panMm_.x()), static_cast<float>(panMm_.y()), 0);
  view.rotate(pitch_, 1, 0, 0);
  view.rotate(yaw_, 0, 1, 0);
  return projection * view;
}

QPointF VolumeCamera::project(const QVector3D& texture, QSize viewport) const {
  const QVector3D ndc = textureToClip(viewport).map(texture);
  return {(ndc.x() + 1) * 0.5 * viewport.width(), (1 - ndc.y()) * 0.5 * viewport.height()};
}

}  // namespace cineflow::ui
