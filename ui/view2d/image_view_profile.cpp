// ImageView's line profile: the segment, sampling the displayed frame along it, and its drawing.

#include <QPainter>

#include "pipeline/engine.hpp"
#include "view2d/image_view.hpp"
#include "view2d/profile_plot.hpp"

namespace cineflow::ui {

void ImageView::setProfileLine(PhysicalPoint from, PhysicalPoint to) {
  profileLine_ = {from, to};
  updateLineProfile();
  update();
}

void ImageView::clearProfileLine() {
  profileLine_.reset();
  profile_ = {};
  update();
}

void ImageView::setAxialProfile(bool enabled) {
  axialProfile_ = enabled;
  if (!enabled) {
    clearProfileLine();
  }
}

void ImageView::updateLineProfile() {
  if (!profileLine_ || !displayed_) {
    profile_ = {};
    return;
  }
  const std::span<const float> pixels = displayedHostPixels();
  if (pixels.empty() && displayed_->pixelsInCineloop) {
    return;  // overwritten since it was shown: keep the last profile
  }
  profile_ = sampleLine(pixels, displayed_->geometry, profileLine_->first, profileLine_->second,
                        displayedHostLayer(process::kVelocityLayer));
}

std::span<const float> ImageView::displayedHostPixels() {
  return displayedHostLayer(process::kIntensityLayer);
}

std::span<const float> ImageView::displayedHostLayer(int layer) {
  if (!displayed_ || layer < 0 || layer >= displayed_->geometry.layers) {
    return {};
  }
  const process::ImageGeometry& geometry = displayed_->geometry;
  const std::size_t offset = static_cast<std::size_t>(layer) * geometry.pixels();
  if (!displayed_->pixelsInCineloop) {
    if (displayed_->pixels.size() < geometry.values()) {
      return {};
    }
    return std::span<const float>(displayed_->pixels).subspan(offset, geometry.pixels());
  }
  // The pixels stayed on the device: copy the frame (every layer) back once per frame while a
  // line or a measurement needs it.
  if (hostPixelsSequence_ == displayed_->header.sequence &&
      hostPixels_.size() == geometry.values()) {
    return std::span<const float>(hostPixels_).subspan(offset, geometry.pixels());
  }
  if (liveSource_ == nullptr) {
    return {};
  }
  const compute::Backend& backend = liveSource_->backend();
  acquire::FrameHeader header;
  process::ImageGeometry read;
  hostPixels_.resize(geometry.values());
  const bool copied = liveSource_->cineloop().readImage(
      displayed_->header.sequence,
      [&](const float* image, const process::ImageGeometry& g) {
        if (!(g == geometry)) {
          return false;
        }
        backend.copyBlocking(hostPixels_.data(), image, geometry.values() * sizeof(float));
        return true;
      },
      header, read);
  if (!copied) {
    hostPixelsSequence_ = ~std::uint64_t{0};
    return {};
  }
  hostPixelsSequence_ = displayed_->header.sequence;
  return std::span<const float>(hostPixels_).subspan(offset, geometry.pixels());
}

void ImageView::paintProfileLine(QPainter& painter) {
  const process::ImageGeometry& geometry = displayed_->geometry;
  const qreal ratio = devicePixelRatioF();
  const QRectF target = imageRectInFramebuffer();
  const QPointF from = mapPhysicalToView(geometry, target, window_, profileLine_->first) / ratio;
  const QPointF to = mapPhysicalToView(geometry, target, window_, profileLine_->second) / ratio;
  paintLineProfile(painter, imageRectInWidget(), from, to, profile_);
}

}  // namespace cineflow::ui
