#pragma once
// MipTriptych: the three maximum-intensity projections of one volume at once, each titled, each a
// ImageView that the owner connects to the live display controls: through the slab (x-z, like a
// B-mode image) in a tall left column, en face (x-y) and the side view (depth-y) on the right. With
// a companion widget (the Volumes dock's slice view) the four share a 2 x 2 grid instead: the
// companion and the projection through the slab above, en face and the side view below. Used by
// the Live MIP dock (the newest volume) and the Volumes dock (the selected one). Until it has
// something to show, or after clear(), a placeholder says why it is empty. The projections are
// compact views (no rulers: a scale bar) in physical proportions, or, with "Stretch thin axes"
// ticked, each filling its panel.

#include <QWidget>

#include "volumes/volume_controller.hpp"

class QCheckBox;
class QGridLayout;
class QLabel;
class QStackedLayout;

namespace cineflow::ui {

class ImageView;

class MipTriptych : public QWidget {
  Q_OBJECT

 public:
  enum class Axis { Y = 0, Z = 1, X = 2 };

  // The views are named <name>Y, <name>Z and <name>X (tests and style sheets find them). A
  // `companion` is reparented into the grid.
  explicit MipTriptych(const QString& name, QWidget* parent = nullptr,
                       QWidget* companion = nullptr);

  // Shows the projections of `images` (those present), and the views again after clear(); keeps
  // everything as it is when `images` holds none.
  void setImages(const VolumeImages& images);
  // Hides the views (and the companion) behind `placeholder` ("No volume selected"), so that a
  // volume that is gone, or a source that is no longer running, is not shown as if it were.
  void clear(const QString& placeholder);
  bool showsPlaceholder() const;
  QString placeholderText() const;
  ImageView& view(Axis axis) { return *views_[static_cast<int>(axis)]; }
  QCheckBox& stretchBox() { return *stretch_; }

 private:
  // Without a companion: the projection through the slab (x-z) or the en-face one (x-y),
  // whichever covers the larger physical area, takes the tall left column (the B-mode-like
  // x-z for a thin ultrasound sweep, the en-face view for an OCT raster volume).
  void arrange(int lead);

  ImageView* views_[3] = {};
  QWidget* cells_[3] = {};  // title + view
  QGridLayout* gridLayout_ = nullptr;
  bool hasCompanion_ = false;
  int lead_ = 0;
  QStackedLayout* pages_ = nullptr;  // the views, or the placeholder
  QWidget* grid_ = nullptr;
  QLabel* placeholder_ = nullptr;
  QCheckBox* stretch_ = nullptr;
};

}  // namespace cineflow::ui
