#include "export/frame_picture.hpp"

#include <algorithm>
#include <cmath>

#include <QPainter>

#include "measure/measurement_painter.hpp"
#include "view2d/flow_colour_bar.hpp"
#include "view2d/image_renderer.hpp"
#include "view2d/view_overlay.hpp"

namespace cineflow::ui {
namespace {

// Linear interpolation between the centres of `sourceCount` pixels for `targetCount` outputs that
// span the same extent (edge to edge): output j's centre lies at source coordinate
// (j + 1/2) * source / target - 1/2; outside the first and last centres the edge pixel is kept
// (the display's clamp-to-edge texture).
void linearTaps(int sourceCount, int targetCount, std::vector<int>& index,
                std::vector<float>& weight) {
  index.resize(static_cast<std::size_t>(targetCount));
  weight.resize(static_cast<std::size_t>(targetCount));
  const double scale = static_cast<double>(sourceCount) / targetCount;
  for (int j = 0; j < targetCount; ++j) {
    const double position =
        std::clamp((j + 0.5) * scale - 0.5, 0.0, static_cast<double>(sourceCount - 1));
    const int lower = std::min(static_cast<int>(position), std::max(sourceCount - 2, 0));
    index[static_cast<std::size_t>(j)] = lower;
    weight[static_cast<std::size_t>(j)] =
        sourceCount > 1 ? static_cast<float>(position - lower) : 0.0f;
  }
}

}  // namespace

QSize pictureImageSize(const process::ImageGeometry& geometry) {
  if (geometry.nx <= 0 || geometry.nz <= 0 || !(geometry.dx > 0) || !(geometry.dz > 0)) {
    return {};
  }
  const double pitch = std::min(geometry.dx, geometry.dz);
  double width = geometry.nx * geometry.dx / pitch;
  double height = geometry.nz * geometry.dz / pitch;
  const double longer = std::max(width, height);
  const double scale =
      std::clamp(longer, double{kMinPictureSide}, double{kMaxPictureSide}) / longer;
  width *= scale;
  height *= scale;
  return {std::max(1, static_cast<int>(std::lround(width))),
          std::max(1, static_cast<int>(std::lround(height)))};
}

FramePicture::FramePicture(const PictureOptions& options)
    : options_(options), colours_(colourTable(options.look.colourMap)) {
  options_.look.dynamicRangeDb = std::max(options_.look.dynamicRangeDb, 1e-6);
}

void FramePicture::prepare(const process::ImageGeometry& geometry) {
  if (geometry == geometry_ && !picture_.isNull()) {
    return;
  }
  geometry_ = geometry;
  const QSize size = pictureImageSize(geometry);
  const QMargins margins = options_.annotations ? kOverlayMargins : QMargins();
  imageRect_ = QRect(QPoint(margins.left(), margins.top()), size);
  picture_ = QImage(size.grownBy(margins), QImage::Format_RGB32);
  linearTaps(geometry.nx, size.width(), column_, columnWeight_);
  linearTaps(geometry.nz, size.height(), row_, rowWeight_);
  levels_.resize(static_cast<std::size_t>(size.width()));
}

const QImage& FramePicture::draw(const Image& frame, const QString& caption,
                                 std::span<const Measurement> marks) {
  const process::ImageGeometry& geometry = frame.geometry;
  prepare(geometry);
  if (picture_.isNull()) {
    return picture_;
  }
  const float black = static_cast<float>(options_.look.gainDb - options_.look.dynamicRangeDb);
  const float scale = static_cast<float>((kColourTableSize - 1) / options_.look.dynamicRangeDb);
  const int nx = geometry.nx;
  const int nextColumn = nx > 1 ? 1 : 0;
  const std::size_t nextRow = geometry.nz > 1 ? static_cast<std::size_t>(nx) : 0;
  const bool withFlow = geometry.hasFlow() && options_.look.flow.map != FlowMap::Off &&
                        frame.pixels.size() >= geometry.values();
  const std::size_t layer = geometry.pixels();
  for (int y = 0; y < imageRect_.height(); ++y) {
    const float wz = rowWeight_[static_cast<std::size_t>(y)];
    // The row's depth as the shader's texture coordinate has it: (source row + 0.5) / nz.
    const auto rowGain = static_cast<float>(
        options_.look.depthGain.at((row_[static_cast<std::size_t>(y)] + wz + 0.5) / geometry.nz));
    const float* upper =
        frame.pixels.data() + static_cast<std::size_t>(row_[static_cast<std::size_t>(y)]) * nx;
    const float* lower = upper + nextRow;
    for (int x = 0; x < imageRect_.width(); ++x) {
      const int i = column_[static_cast<std::size_t>(x)];
      const float wx = columnWeight_[static_cast<std::size_t>(x)];
      const float top = upper[i] + wx * (upper[i + nextColumn] - upper[i]);
      const float bottom = lower[i] + wx * (lower[i + nextColumn] - lower[i]);
      levels_[static_cast<std::size_t>(x)] = top + wz * (bottom - top);
    }
    auto* line =
        reinterpret_cast<QRgb*>(picture_.scanLine(imageRect_.top() + y)) + imageRect_.left();
    // Flow at the nearest pixel, as the shader samples it.
    const std::size_t flowRow =
        static_cast<std::size_t>(row_[static_cast<std::size_t>(y)] + (wz >= 0.5f ? 1 : 0)) * nx;
    for (int x = 0; x < imageRect_.width(); ++x) {
      const float level =
          std::clamp((levels_[static_cast<std::size_t>(x)] + rowGain - black) * scale, 0.0f,
                     float{kColourTableSize - 1});
      // NaN (no echo computed) clamps to 0 as it does in the shader: the first colour.
      const auto entry = 3 * static_cast<std::size_t>(std::isnan(level) ? 0.0f : level + 0.5f);
      line[x] = qRgb(colours_[entry], colours_[entry + 1], colours_[entry + 2]);
      if (withFlow) {
        const std::size_t pixel =
            flowRow +
            static_cast<std::size_t>(column_[static_cast<std::size_t>(x)] +
                                     (columnWeight_[static_cast<std::size_t>(x)] >= 0.5f ? 1 : 0));
        line[x] = compositeFlow(options_.look.flow, line[x],
                                std::isnan(level) ? 0.0 : level / (kColourTableSize - 1), black,
                                frame.pixels[layer + pixel], frame.pixels[3 * layer + pixel],
                                geometry.aliasingVelocity);
      }
    }
  }
  if (options_.annotations) {
    const QColor background =
        QColor::fromRgbF(ImageRenderer::kBackground[0], ImageRenderer::kBackground[1],
                         ImageRenderer::kBackground[2]);
    QPainter painter(&picture_);
    const QRect whole = picture_.rect();
    // The margins only: the image part was just written.
    painter.fillRect(QRect(0, 0, whole.width(), imageRect_.top()), background);
    painter.fillRect(
        QRect(0, imageRect_.bottom() + 1, whole.width(), whole.height() - imageRect_.bottom() - 1),
        background);
    painter.fillRect(QRect(0, imageRect_.top(), imageRect_.left(), imageRect_.height()),
                     background);
    painter.fillRect(QRect(imageRect_.right() + 1, imageRect_.top(),
                           whole.width() - imageRect_.right() - 1, imageRect_.height()),
                     background);
    const double xLeft = geometry.x0 - 0.5 * geometry.dx;
    const double zTop = geometry.z0 - 0.5 * geometry.dz;
    paintOverlay(painter,
                 {QRectF(imageRect_), xLeft, xLeft + geometry.nx * geometry.dx, zTop,
                  zTop + geometry.nz * geometry.dz},
                 caption);
    if (withFlow) {
      paintFlowColourBar(painter, QRectF(imageRect_), options_.look.flow,
                         geometry.aliasingVelocity);
    }
  }
  if (options_.measurements) {
    paintMarks(frame, marks);
  }
  return picture_;
}

void FramePicture::paintMarks(const Image& frame, std::span<const Measurement> marks) {
  const process::ImageGeometry& geometry = frame.geometry;
  // Pixel (i, k) covers [x0 + (i - 1/2) dx, ...): the image rectangle spans nx dx by nz dz.
  const double xLeft = geometry.x0 - 0.5 * geometry.dx;
  const double zTop = geometry.z0 - 0.5 * geometry.dz;
  const double sx = imageRect_.width() / (geometry.nx * geometry.dx);
  const double sz = imageRect_.height() / (geometry.nz * geometry.dz);
  const PhysicalMapping map = [&](PhysicalPoint p) {
    return QPointF(imageRect_.left() + (p.xM - xLeft) * sx, imageRect_.top() + (p.zM - zTop) * sz);
  };
  QPainter painter(&picture_);
  for (const Measurement& m : marks) {
    if (m.frame == frame.header.sequence) {
      paintMeasurement(painter, m, map);
    }
  }
}

}  // namespace cineflow::ui
