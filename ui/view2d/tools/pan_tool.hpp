#pragma once
// The image view's pan: a left-button drag moves what the zoomed view shows; a double-click shows
// the whole image again (unless a measuring tool is chosen: then it is two clicks of that tool).

#include <optional>

#include "view2d/tools/view_tool.hpp"

namespace cineflow::ui {

class ImageView;

class PanTool : public ViewTool {
 public:
  explicit PanTool(ImageView& view) : view_(view) {}
  bool press(QPointF pos, Qt::KeyboardModifiers modifiers) override;
  void move(QPointF pos) override;
  void release() override { from_.reset(); }
  bool doubleClick(QPointF pos, Qt::KeyboardModifiers modifiers) override;
  void leave() override { from_.reset(); }

 private:
  ImageView& view_;
  std::optional<QPointF> from_;  // widget coordinates, while the drag pans
};

}  // namespace cineflow::ui
