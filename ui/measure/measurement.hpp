#pragma once
// The operator's measurements and annotations on an image (issue 19): what was drawn, on which
// image and frame, and what it measured (measure_regions.hpp does the arithmetic).
//
//   Caliper    two points: the distance (mm)
//   Ellipse    the ellipse inscribed in a dragged box: area (mm^2), perimeter (mm), and the
//              statistics of the pixels inside (mean and std in dB, pixel count)
//   Freehand   a closed outline: the same
//   Contrast   a target ellipse, then a background ellipse: contrast (dB), CNR, gCNR
//   Text       a label at a point
//   Arrow      an arrow from its tail to its head, with an optional label at the tail
//
// A measurement belongs to one frame of one view: `view` names the image (the live view, a
// volume's slice view, one of the MIP views) and `frame` is the shown frame's sequence number,
// so a measurement is drawn only while its frame is on screen and the list says where it was.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <QString>

#include "common/display_geometry.hpp"
#include "measure/measure_regions.hpp"
#include "process/image_geometry.hpp"

namespace cineflow::ui {

enum class MeasureTool { None, Caliper, Ellipse, Freehand, Contrast, Text, Arrow };

// "Caliper", "Ellipse", ... (for the list and the CSV); "" for None.
QString toolName(MeasureTool tool);
// True for the tools that measure (not Text and Arrow, which annotate).
bool measures(MeasureTool tool);

struct Measurement {
  int id = 0;  // unique within a MeasurementList, from 1
  MeasureTool tool = MeasureTool::None;
  QString view;             // the image's name ("Live", "MIP along y", ...)
  std::uint64_t frame = 0;  // the frame's sequence number
  // Caliper, Arrow: the two ends (arrow: tail, head). Ellipse: the box's corners. Freehand: the
  // outline. Contrast: the target box's corners, then the background box's. Text: the point.
  std::vector<PhysicalPoint> points;
  QString text;  // Text, Arrow

  // What it measured (measure()): the distance, the region's area and perimeter and statistics,
  // or the contrast.
  double distanceM = 0;
  double areaM2 = 0, perimeterM = 0;
  RegionStats stats;
  ContrastResult contrast;
  bool valid = false;  // false: the shape misses the image or holds no pixel

  // The measured region(s): Ellipse and Freehand one, Contrast two (target, background).
  std::vector<Region> regions() const;
};

// The name of a part of volume `number`'s review ("Volume 3 slice", "Volume 3 MIP along y"), so
// that its measurements travel with the volume (volume video, saved file).
QString volumeViewName(std::uint64_t number, const QString& part);
bool belongsToVolume(const Measurement& m, std::uint64_t number);

// Fills m's results from its points and the frame's dB pixels ([z][x] as `geometry`).
void measure(Measurement& m, std::span<const float> pixels, const process::ImageGeometry& geometry);

// One line for the list and the on-image label: "12.34 mm", "19.63 mm² · 15.71 mm · -32.1 ±
// 5.6 dB · 412 px", "contrast 9.5 dB · CNR 1.22 · gCNR 0.65", or the annotation's text.
QString summaryText(const Measurement& m);

}  // namespace cineflow::ui
