// VolumeView's pictures beyond the screen's own paint: the overlay (slice plane, axes, scale bar,
// caption) drawn over any picture, and renderImage(), the view drawn offscreen at an export's size
// (volume_view.hpp).
#include <algorithm>
#include <cmath>

#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QPainter>

#include "common/display_geometry.hpp"
#include "view3d/volume_view.hpp"

namespace cineflow::ui {
namespace {

// An export's overlay grows with the picture: its text and lines are as large as on a view this
// many pixels tall (and never smaller than on screen).
constexpr double kOverlayReferencePixels = 720.0;

}  // namespace

QImage VolumeView::renderImage(QSize size, const VolumeCamera& camera, QString* error) {
  const auto fail = [error](const QString& why) {
    if (error) {
      *error = why;
    }
    return QImage();
  };
  if (size.isEmpty()) {
    return fail(tr("an empty picture size"));
  }
  if (!renderer_ || !context()) {
    return fail(renderingError_.isEmpty() ? tr("the 3-D view has not been shown yet")
                                          : renderingError_);
  }
  makeCurrent();
  if (!prepareRenderer()) {
    doneCurrent();
    return fail(renderingError_);
  }
  if (!exportTarget_ || exportTarget_->size() != size) {
    exportTarget_.reset();  // before its successor: one export-sized buffer at a time
    exportTarget_ = std::make_unique<QOpenGLFramebufferObject>(size);
  }
  if (!exportTarget_->isValid()) {
    exportTarget_.reset();
    doneCurrent();
    return fail(
        tr("this OpenGL cannot draw a %1 x %2 picture").arg(size.width()).arg(size.height()));
  }
  VolumeLook still = look_;  // full quality, even while the view on screen moves
  still.stepVoxels = VolumeLook{}.stepVoxels;
  still.resolution = 1.0f;
  renderer_->render(exportTarget_->handle(), QRect(QPoint(0, 0), size), size.height(),
                    camera.textureToClip(size).inverted(),
                    volume_ ? volume_->voxelMm : QVector3D(1, 1, 1), still);
  QImage picture = exportTarget_->toImage().convertToFormat(QImage::Format_RGB32);
  doneCurrent();
  if (overlayVisible_ || slicePlane_) {
    // The screen's scale for the size shown; a larger export's overlay grows with it.
    const double scale =
        size == framebufferSize()
            ? devicePixelRatioF()
            : std::max(1.0, std::min(size.width(), size.height()) / kOverlayReferencePixels);
    picture.setDevicePixelRatio(scale);
    {
      QPainter painter(&picture);
      drawOverlay(painter,
                  QSize(static_cast<int>(std::lround(size.width() / scale)),
                        static_cast<int>(std::lround(size.height() / scale))),
                  camera, false);
    }
    picture.setDevicePixelRatio(1.0);
  }
  return picture;
}

void VolumeView::drawOverlay(QPainter& painter, QSize size, const VolumeCamera& camera,
                             bool coarse) const {
  painter.setRenderHint(QPainter::Antialiasing);
  const QPolygonF plane = slicePlaneOutline(camera, size);
  if (!plane.isEmpty()) {
    painter.setPen(QPen(QColor(255, 170, 40), 2));
    painter.setBrush(QColor(255, 170, 40, 40));
    painter.drawPolygon(plane);
    painter.setBrush(Qt::NoBrush);
  }
  if (!overlayVisible_) {
    return;
  }
  QFont font = painter.font();
  font.setPointSizeF(font.pointSizeF() * 0.9);
  painter.setFont(font);
  const int pictureWidth = size.width();
  const int pictureHeight = size.height();
  if (!volume_) {
    painter.setPen(QColor(170, 170, 170));
    painter.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter,
                     renderingError_.isEmpty() ? tr("No volume yet") : renderingError_);
    return;
  }
  // Axes: the directions of x, depth and elevation on the screen, from a corner.
  const QPointF origin = camera.project(QVector3D(0.5f, 0.5f, 0.5f), size);
  const QPointF corner(48, pictureHeight - 48);
  const struct {
    QVector3D to;
    QColor colour;
    QString name;
  } axes[] = {{{0.6f, 0.5f, 0.5f}, QColor(230, 90, 80), tr("x")},
              {{0.5f, 0.6f, 0.5f}, QColor(110, 200, 110), tr("depth")},
              {{0.5f, 0.5f, 0.6f}, QColor(100, 150, 240), tr("elev.")}};
  for (const auto& axis : axes) {
    QPointF direction = camera.project(axis.to, size) - origin;
    const double length = std::hypot(direction.x(), direction.y());
    if (length > 1e-3) {
      direction *= 32.0 / std::max(length, 1e-3) * std::min(1.0, length / 8.0);
    }
    painter.setPen(QPen(axis.colour, 2));
    painter.drawLine(corner, corner + direction);
    painter.drawText(corner + direction * 1.25 + QPointF(-8, 4), axis.name);
  }
  // Scale bar: a round length in mm at the current zoom.
  const double perPixel = camera.mmPerPixel(size);
  const double lengthMm = niceStep(0.2 * perPixel * pictureWidth);  // as the 2-D views' bar
  const double pixels = lengthMm / perPixel;
  const QPointF right(pictureWidth - 16, pictureHeight - 20);
  painter.setPen(QPen(QColor(230, 230, 230), 2));
  painter.drawLine(right - QPointF(pixels, 0), right);
  painter.drawText(QRectF(right.x() - pixels, right.y() - 22, pixels, 18), Qt::AlignCenter,
                   tr("%1 mm").arg(lengthMm, 0, 'g', 3));
  painter.setPen(QColor(200, 200, 200));
  painter.drawText(QRectF(8, 6, pictureWidth - 16, 20), Qt::AlignLeft | Qt::AlignTop,
                   tr("Volume %1: %2 x %3 x %4 voxels%5")
                       .arg(volume_->number)
                       .arg(volume_->nx)
                       .arg(volume_->nz)
                       .arg(volume_->ny)
                       .arg(coarse ? tr(" (moving: coarse)") : QString()));
}

}  // namespace cineflow::ui
