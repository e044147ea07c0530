#pragma once
// The image view's colour box (the region where flow is estimated), drawn while flow is shown.
// With no measuring tool chosen and no Shift, a left-button drag inside the box moves it and one
// on its edge (or, for the whole image, on the image's edge) resizes it, kept inside the image;
// the view's colourBoxChanged() says where it was let go.

#include <optional>

#include "common/display_geometry.hpp"
#include "process/image_region.hpp"
#include "view2d/tools/view_tool.hpp"

namespace cineflow::ui {

class ImageView;

class ColourBoxTool : public ViewTool {
 public:
  explicit ColourBoxTool(ImageView& view) : view_(view) {}
  const process::ColourBox& box() const { return box_; }
  // The box in effect (metres; empty: the whole image). Returns whether it changed.
  bool setBox(const process::ColourBox& box);

  bool press(QPointF pos, Qt::KeyboardModifiers modifiers) override;
  void move(QPointF pos) override;
  void release() override;
  void paint(QPainter& painter) override;

 private:
  struct Drag {
    bool left = false, right = false, top = false, bottom = false;  // edges moved (all: move)
    PhysicalPoint from;
    process::ColourBox start;  // the box (the whole image's when empty) at the press
  };
  ImageView& view_;
  process::ColourBox box_;
  std::optional<Drag> drag_;
};

}  // namespace cineflow::ui
