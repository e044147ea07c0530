#pragma once
// One thing the image view (view2d/image_view.hpp) lets the operator do with the mouse, and what
// it draws over the image. The view is a compositor of such tools: it offers a left-button press
// to each in turn (colour box, measurement shapes, profile line, pan) and the first that takes it
// gets the moves and the release; a move without a drag held is a hover, which every tool sees.
// A tool reaches the view only through its public interface.

#include <QPointF>
#include <Qt>

class QPainter;

namespace cineflow::ui {

class ViewTool {
 public:
  virtual ~ViewTool() = default;
  // A left-button press at `pos` (widget coordinates): true when this tool takes the drag.
  virtual bool press(QPointF pos, Qt::KeyboardModifiers modifiers) = 0;
  virtual void move(QPointF pos) = 0;  // while it holds the drag
  virtual void release() = 0;          // the drag ends
  virtual void hover(QPointF pos) { (void)pos; }
  // A left-button double-click: true when this tool acted on it.
  virtual bool doubleClick(QPointF pos, Qt::KeyboardModifiers modifiers) {
    (void)pos;
    (void)modifiers;
    return false;
  }
  virtual void leave() {}  // the cursor left the view
  // Draws over the image (clipped by the tool where it must stay on the image).
  virtual void paint(QPainter& painter) { (void)painter; }
};

}  // namespace cineflow::ui
