#pragma once
// The image view's line profile (view2d/line_profile.hpp): Shift + drag draws a segment across the
// image, Shift + double-click removes it; with the axial profile on, the segment follows the
// cursor down the whole depth instead (a drag then moves it too, rather than panning). The
// profile is sampled again for every new frame.

#include <optional>
#include <utility>

#include "common/display_geometry.hpp"
#include "view2d/line_profile.hpp"
#include "view2d/tools/view_tool.hpp"

namespace cineflow::ui {

class ImageView;

class ProfileLineTool : public ViewTool {
 public:
  explicit ProfileLineTool(ImageView& view) : view_(view) {}

  bool hasLine() const { return line_.has_value(); }
  const LineProfile& profile() const { return profile_; }
  void setLine(PhysicalPoint from, PhysicalPoint to);
  void clear();
  void setAxial(bool enabled);
  // Samples the displayed frame along the line again (a new frame).
  void resample();

  bool press(QPointF pos, Qt::KeyboardModifiers modifiers) override;
  void move(QPointF pos) override;
  void release() override { drawing_ = false; }
  void hover(QPointF pos) override;
  bool doubleClick(QPointF pos, Qt::KeyboardModifiers modifiers) override;
  void paint(QPainter& painter) override;

 private:
  void followAxially(QPointF pos);

  ImageView& view_;
  std::optional<std::pair<PhysicalPoint, PhysicalPoint>> line_;  // from, to
  bool axial_ = false;
  bool drawing_ = false;  // Shift + left button down
  LineProfile profile_;
};

}  // namespace cineflow::ui
