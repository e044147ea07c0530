#pragma once
// Draws measurements and annotations (measurement.hpp) with QPainter, for the views and for the
// exports that burn them in (frame_picture.hpp): shapes in a bright accent colour with a thin dark
// outline, so they read on any colour map, and each one's number and result beside it.

#include <functional>

#include <QPointF>

#include "measure/measurement.hpp"

class QPainter;

namespace cineflow::ui {

// Where a physical point (metres) lands on the painter's device. Views and pictures map axis-
// aligned (a scale and an offset per axis), so ellipses stay ellipses with axes along x and z.
using PhysicalMapping = std::function<QPointF(PhysicalPoint)>;

// Which parts paintMeasurement draws: a view clips the shapes to its image but lets the labels
// use its margins, so it draws the two in separate passes.
enum class MeasurementPart { Shape, Label, Both };

// Draws `m`: its shape, and its number and summaryText in a box beside it (kept on the device).
// Leaves the painter's state as it found it.
void paintMeasurement(QPainter& painter, const Measurement& m, const PhysicalMapping& map,
                      MeasurementPart part = MeasurementPart::Both);

// The shape being drawn: the tool's points so far (a contrast's second box after its first).
void paintMeasurementDraft(QPainter& painter, MeasureTool tool,
                           const std::vector<PhysicalPoint>& points, const PhysicalMapping& map);

}  // namespace cineflow::ui
