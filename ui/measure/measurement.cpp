#include "measure/measurement.hpp"

namespace cineflow::ui {

QString toolName(MeasureTool tool) {
  switch (tool) {
    case MeasureTool::None:
      return {};
    case MeasureTool::Caliper:
      return QStringLiteral("Caliper");
    case MeasureTool::Ellipse:
      return QStringLiteral("Ellipse");
    case MeasureTool::Freehand:
      return QStringLiteral("Free-hand");
    case MeasureTool::Contrast:
      return QStringLiteral("Contrast");
    case MeasureTool::Text:
      return QStringLiteral("Text");
    case MeasureTool::Arrow:
      return QStringLiteral("Arrow");
  }
  return {};
}

QString volumeViewName(std::uint64_t number, const QString& part) {
  return QStringLiteral("Volume %1 %2").arg(number).arg(part);
}

bool belongsToVolume(const Measurement& m, std::uint64_t number) {
  return m.view.startsWith(QStringLiteral("Volume %1 ").arg(number));
}

bool measures(MeasureTool tool) {
  return tool == MeasureTool::Caliper || tool == MeasureTool::Ellipse ||
         tool == MeasureTool::Freehand || tool == MeasureTool::Contrast;
}

std::vector<Region> Measurement::regions() const {
  switch (tool) {
    case MeasureTool::Ellipse:
      if (points.size() == 2) {
        return {Region::ellipseInBox(points[0], points[1])};
      }
      break;
    case MeasureTool::Freehand:
      return {Region::polygon(points)};
    case MeasureTool::Contrast:
      if (points.size() == 4) {
        return {Region::ellipseInBox(points[0], points[1]),
                Region::ellipseInBox(points[2], points[3])};
      }
      break;
    default:
      break;
  }
  return {};
}

void measure(Measurement& m, std::span<const float> pixels,
             const process::ImageGeometry& geometry) {
  m.valid = false;
  m.distanceM = m.areaM2 = m.perimeterM = 0;
  m.stats = {};
  m.contrast = {};
  const std::vector<Region> regions = m.regions();
  switch (m.tool) {
    case MeasureTool::Caliper:
      if (m.points.size() == 2) {
        m.distanceM = distanceM(m.points[0], m.points[1]);
        m.valid = true;
      }
      break;
    case MeasureTool::Ellipse:
    case MeasureTool::Freehand:
      if (regions.size() == 1 && !regions[0].empty()) {
        m.areaM2 = regions[0].areaM2();
        m.perimeterM = regions[0].perimeterM();
        m.stats = statsOf(regionValues(pixels, geometry, regions[0]));
        m.valid = m.stats.pixels > 0;
      }
      break;
    case MeasureTool::Contrast:
      if (regions.size() == 2) {
        m.contrast = contrastOf(pixels, geometry, regions[0], regions[1]);
        m.valid = m.contrast.target.pixels > 0 && m.contrast.background.pixels > 0;
      }
      break;
    case MeasureTool::Text:
    case MeasureTool::Arrow:
      m.valid = !m.points.empty();
      break;
    case MeasureTool::None:
      break;
  }
}

QString summaryText(const Measurement& m) {
  if (!m.valid && measures(m.tool)) {
    return QStringLiteral("no pixels of the image inside");
  }
  switch (m.tool) {
    case MeasureTool::Caliper:
      return QStringLiteral("%1 mm").arg(m.distanceM * 1e3, 0, 'f', 2);
    case MeasureTool::Ellipse:
    case MeasureTool::Freehand:
      return QStringLiteral("%1 mm² · %2 mm · %3 ± %4 dB · %5 px")
          .arg(m.areaM2 * 1e6, 0, 'f', 2)
          .arg(m.perimeterM * 1e3, 0, 'f', 2)
          .arg(m.stats.meanDb, 0, 'f', 1)
          .arg(m.stats.stdDb, 0, 'f', 1)
          .arg(m.stats.pixels);
    case MeasureTool::Contrast:
      return QStringLiteral("contrast %1 dB · CNR %2 · gCNR %3")
          .arg(m.contrast.contrastDb, 0, 'f', 1)
          .arg(m.contrast.cnr, 0, 'f', 2)
          .arg(m.contrast.gcnr, 0, 'f', 2);
    case MeasureTool::Text:
    case MeasureTool::Arrow:
      return m.text;
    case MeasureTool::None:
      break;
  }
  return {};
}

}  // namespace cineflow::ui
