#pragma once
// The image view's measurements and annotations: with a measuring or annotating tool chosen
// (measure/measurement.hpp) and no Shift, a left-button drag draws that tool's shape, measured on
// the displayed frame's pixels when it is let go and added to the list; the list's entries for
// the frame on screen (and the image's name) are drawn. Changing the tool drops a shape half
// drawn.

#include <functional>
#include <vector>

#include <QString>

#include "common/display_geometry.hpp"
#include "measure/measurement.hpp"
#include "view2d/tools/view_tool.hpp"

namespace cineflow::ui {

class ImageView;
class MeasurementList;

class ShapeTool : public ViewTool {
 public:
  explicit ShapeTool(ImageView& view) : view_(view) {}

  MeasurementList* list() const { return list_; }
  void setList(MeasurementList* list, const QString& viewName);
  const QString& viewName() const { return viewName_; }
  void setViewName(const QString& viewName) { viewName_ = viewName; }
  MeasureTool tool() const { return tool_; }
  void setTool(MeasureTool tool);
  void setTextPrompt(std::function<QString(MeasureTool)> prompt) {
    textPrompt_ = std::move(prompt);
  }

  bool press(QPointF pos, Qt::KeyboardModifiers modifiers) override;
  void move(QPointF pos) override;
  void release() override;
  void paint(QPainter& painter) override;

 private:
  ImageView& view_;
  MeasurementList* list_ = nullptr;
  QString viewName_;
  MeasureTool tool_ = MeasureTool::None;
  std::vector<PhysicalPoint> draft_;  // the shape being drawn
  std::function<QString(MeasureTool)> textPrompt_;
};

}  // namespace cineflow::ui
