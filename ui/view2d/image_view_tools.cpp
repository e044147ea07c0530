// ImageView's public face of its tools (view2d/tools/), and the displayed frame's pixels in host
// memory, which the measurements and the line profile read.

#include "pipeline/engine.hpp"
#include "view2d/image_view.hpp"

namespace cineflow::ui {

bool ImageView::showsFlow() const {
  return displayed_ && displayed_->geometry.hasFlow() && flowLook_.map != FlowMap::Off;
}

void ImageView::setColourBox(const process::ColourBox& box) {
  if (colourBoxTool_.setBox(box)) {
    update();
  }
}

void ImageView::setProfileLine(PhysicalPoint from, PhysicalPoint to) {
  profileTool_.setLine(from, to);
  update();
}

void ImageView::clearProfileLine() {
  profileTool_.clear();
  update();
}

void ImageView::setAxialProfile(bool enabled) {
  profileTool_.setAxial(enabled);
  update();
}

void ImageView::setMeasurements(MeasurementList* list, const QString& viewName) {
  shapeTool_.setList(list, viewName);
  update();
}

void ImageView::setMeasureTool(MeasureTool tool) {
  shapeTool_.setTool(tool);
  update();
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

}  // namespace cineflow::ui
