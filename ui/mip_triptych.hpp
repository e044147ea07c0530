#pragma once
// MipTriptych: the three maximum-intensity projections of one volume at once, each titled, each a
// BmodeView that the owner connects to the live display controls: through the slab (x-z, like a
// B-mode image) in a tall left column, en face (x-y) and the side view (depth-y) on the right. With
// a companion widget (the Volumes dock's slice view) the four share a 2 x 2 grid instead: the
// companion and the projection through the slab above, en face and the side view below. Used by
// the Live MIP dock (the newest volume) and the Volumes dock (the selected one).

#include <QWidget>

#include "volume_controller.hpp"

class QLabel;

namespace cineflow::ui {

class BmodeView;

class MipTriptych : public QWidget {
  Q_OBJECT

 public:
  enum class Axis { Y = 0, Z = 1, X = 2 };

  // The views are named <name>Y, <name>Z and <name>X (tests and style sheets find them). A
  // `companion` is reparented into the grid.
  explicit MipTriptych(const QString& name, QWidget* parent = nullptr,
                       QWidget* companion = nullptr);

  // Shows the projections of `images` (those present); keeps the views as they are otherwise.
  void setImages(const VolumeImages& images);
  BmodeView& view(Axis axis) { return *views_[static_cast<int>(axis)]; }

 private:
  BmodeView* views_[3] = {};
};

}  // namespace cineflow::ui
