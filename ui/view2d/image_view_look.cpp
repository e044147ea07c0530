// ImageView's look as a volume view sets it: compact (no rulers), stretched (a thin image fills
// the view) and at its own level (image_view.hpp).
#include "view2d/image_view.hpp"

namespace cineflow::ui {

void ImageView::setDepthGain(const DepthGain& gain) {
  if (!(gain == depthGain_)) {
    depthGain_ = gain;
    update();
  }
}

void ImageView::setCompact(bool compact) {
  if (compact != compact_) {
    compact_ = compact;
    update();
  }
}

void ImageView::setStretch(bool stretch) {
  if (stretch != stretch_) {
    stretch_ = stretch;
    window_ = {};  // zoom and pan were of the other shape
    update();
  }
}

void ImageView::setOwnLevel(bool own) {
  ownLevel_ = own;
  if (own && displayed_ && !displayed_->pixels.empty()) {
    ownWhiteDb_ = suggestGainDb(intensityLayer(displayed_->pixels, displayed_->geometry));
    setGainDb(ownWhiteDb_ - relativeGainDb_);
  }
}

void ImageView::setRelativeGainDb(double db) {
  relativeGainDb_ = db;
  if (ownLevel_) {
    setGainDb(ownWhiteDb_ - relativeGainDb_);
  }
}

}  // namespace cineflow::ui
