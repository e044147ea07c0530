#include "view2d/tools/pan_tool.hpp"

#include "view2d/image_view.hpp"

namespace cineflow::ui {

bool PanTool::press(QPointF pos, Qt::KeyboardModifiers modifiers) {
  (void)modifiers;
  from_ = pos;
  return true;  // the last tool asked: any press left over pans
}

void PanTool::move(QPointF pos) {
  if (from_) {
    view_.panBy((pos - *from_) * view_.devicePixelRatioF());
    from_ = pos;
  }
}

bool PanTool::doubleClick(QPointF pos, Qt::KeyboardModifiers modifiers) {
  (void)pos;
  (void)modifiers;
  if (view_.measureTool() != MeasureTool::None) {
    return false;  // with a tool, a double-click is two clicks of that tool
  }
  view_.resetView();
  return true;
}

}  // namespace cineflow::ui
