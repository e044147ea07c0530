// BmodeView's line profile: the segment, sampling the displayed frame along it, and its drawing.

#include <QPainter>

#include "bmode_view.hpp"
#include "pipeline/engine.hpp"
#include "profile_plot.hpp"

namespace cineflow::ui {

void BmodeView::setProfileLine(PhysicalPoint from, PhysicalPoint to) {
  profileLine_ = {from, to};
  updateLineProfile();
  update();
}

void BmodeView::clearProfileLine() {
  profileLine_.reset();
  profile_ = {};
  update();
}

void BmodeView::setAxialProfile(bool enabled) {
  axialProfile_ = enabled;
  if (!enabled) {
    clearProfileLine();
  }
}

void BmodeView::updateLineProfile() {
  if (!profileLine_ || !displayed_) {
    profile_ = {};
    return;
  }
  const process::ImageGeometry& geometry = displayed_->geometry;
  std::span<const float> pixels = displayed_->pixels;
  if (displayed_->pixelsInCineloop) {
    // The pixels stayed on the device: copy the frame back once per frame while a line is shown.
    if (liveSource_ == nullptr) {
      profile_ = {};
      return;
    }
    const compute::Backend& backend = liveSource_->backend();
    acquire::FrameHeader header;
    process::ImageGeometry read;
    profilePixels_.resize(geometry.pixels());
    const bool copied = liveSource_->cineloop().readImage(
        displayed_->header.sequence,
        [&](const float* image, const process::ImageGeometry& g) {
          if (!(g == geometry)) {
            return false;
          }
          backend.copyBlocking(profilePixels_.data(), image, geometry.pixels() * sizeof(float));
          return true;
        },
        header, read);
    if (!copied) {
      return;  // overwritten since it was shown: keep the last profile
    }
    pixels = profilePixels_;
  }
  profile_ = sampleLine(pixels, geometry, profileLine_->first, profileLine_->second);
}

void BmodeView::paintProfileLine(QPainter& painter) {
  const process::ImageGeometry& geometry = displayed_->geometry;
  const qreal ratio = devicePixelRatioF();
  const QRectF target = imageRectInFramebuffer();
  const QPointF from = mapPhysicalToView(geometry, target, window_, profileLine_->first) / ratio;
  const QPointF to = mapPhysicalToView(geometry, target, window_, profileLine_->second) / ratio;
  paintLineProfile(painter, imageRectInWidget(), from, to, profile_);
}

}  // namespace cineflow::ui
