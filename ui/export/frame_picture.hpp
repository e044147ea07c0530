#pragma once
// A B-mode frame drawn as the display draws it, for exports: in physical proportions (lateral
// nx*dx against depth nz*dz), levels mapped from dB by the display's gain and dynamic range
// ([gain - dynamic range, gain] -> the colour map's first .. last entry), sampled bilinearly
// between pixel centres as the display's linear texture is, and optionally with the same rulers and
// scale bar around it as on screen (view_overlay.hpp).
//
// Size: the finer of dx and dz becomes one picture pixel, then the whole picture is scaled so that
// its longer side lies in [kMinPictureSide, kMaxPictureSide] (a 248 x 958 grid of a 38 x 37 mm
// field becomes 985 x 958 pixels). The annotations add kOverlayMargins around it.

#include <span>
#include <vector>

#include <QImage>
#include <QSize>
#include <QString>

#include "common/colour_maps.hpp"
#include "common/image.hpp"
#include "measure/measurement.hpp"
#include "view2d/depth_gain.hpp"
#include "view2d/flow_display.hpp"

namespace cineflow::ui {

inline constexpr int kMinPictureSide = 512;
inline constexpr int kMaxPictureSide = 2048;

// How dB values become colours: the display's gain, dynamic range and colour map.
struct DisplayLook {
  double gainDb = 0.0;           // shown as the colour map's last (brightest) entry
  double dynamicRangeDb = 60.0;  // dB span from the first entry to the last (> 0)
  ColourMap colourMap = ColourMap::Grey;
  FlowLook flow;        // an image with flow layers: how they are composited (flow_display.hpp)
  DepthGain depthGain;  // time-gain compensation, added at each row's depth (depth_gain.hpp)
};

struct PictureOptions {
  DisplayLook look;
  bool annotations = true;   // depth ruler, lateral ticks and scale bar, as on screen
  bool measurements = true;  // the frame's measurements and labels burnt in (draw()'s marks)
};

// The image part's size for `geometry` (without annotation margins); empty for an empty geometry.
QSize pictureImageSize(const process::ImageGeometry& geometry);

// Draws frames one after another into one image; the tables and the image are reallocated only
// when the geometry or the options change, so a cineloop export allocates once.
class FramePicture {
 public:
  explicit FramePicture(const PictureOptions& options);

  // The frame drawn (RGB32). `caption`, if not empty, goes under the image's bottom-left corner
  // (annotations only). `marks`: measurements and annotations burnt in (measurement_painter.hpp),
  // those of this frame's sequence. The reference stays valid until the next call.
  const QImage& draw(const Image& frame, const QString& caption = {},
                     std::span<const Measurement> marks = {});

 private:
  void prepare(const process::ImageGeometry& geometry);
  void paintMarks(const Image& frame, std::span<const Measurement> marks);

  PictureOptions options_;
  ColourTable colours_;
  process::ImageGeometry geometry_;
  QRect imageRect_;  // where the frame goes in picture_
  // Per output column / row: the lower source index and the weight of the next one.
  std::vector<int> column_, row_;
  std::vector<float> columnWeight_, rowWeight_;
  std::vector<float> levels_;  // one output row of display levels, before the colour map
  QImage picture_;
};

}  // namespace cineflow::ui
