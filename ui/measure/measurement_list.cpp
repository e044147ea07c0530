#include "measure/measurement_list.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include <QStringList>

#include "base/text_file.hpp"

namespace cineflow::ui {
namespace {

QString quoted(const QString& text) {
  QString escaped = text;
  escaped.replace(QLatin1Char('"'), QStringLiteral("\"\""));
  return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QString number(double value, int decimals) {
  return QString::number(value, 'f', decimals);
}

}  // namespace

const Measurement* MeasurementList::find(int id) const {
  const auto it =
      std::find_if(items_.begin(), items_.end(), [id](const Measurement& m) { return m.id == id; });
  return it == items_.end() ? nullptr : &*it;
}

int MeasurementList::add(Measurement m) {
  m.id = nextId_++;
  items_.push_back(std::move(m));
  emit changed();
  return items_.back().id;
}

void MeasurementList::remove(int id) {
  const auto it =
      std::find_if(items_.begin(), items_.end(), [id](const Measurement& m) { return m.id == id; });
  if (it != items_.end()) {
    items_.erase(it);
    emit changed();
  }
}

int MeasurementList::moveView(const QString& view, const QString& to) {
  int moved = 0;
  for (Measurement& m : items_) {
    if (m.view == view) {
      m.view = to;
      ++moved;
    }
  }
  if (moved > 0) {
    emit changed();
  }
  return moved;
}

void MeasurementList::clear() {
  if (!items_.empty()) {
    items_.clear();
    emit changed();
  }
}

QString MeasurementList::csvHeader() {
  return QStringLiteral(
      "id,tool,view,frame,distance_mm,area_mm2,perimeter_mm,mean_db,std_db,pixels,contrast_db,"
      "cnr,gcnr,target_pixels,background_pixels,text,points_mm");
}

std::vector<Measurement> MeasurementList::ofView(const QString& view) const {
  std::vector<Measurement> found;
  std::copy_if(items_.begin(), items_.end(), std::back_inserter(found),
               [&](const Measurement& m) { return m.view == view; });
  return found;
}

QString measurementsCsv(std::span<const Measurement> measurements) {
  QStringList lines{MeasurementList::csvHeader()};
  for (const Measurement& m : measurements) {
    QStringList points;
    for (const PhysicalPoint& p : m.points) {
      points << QStringLiteral("%1 %2").arg(number(p.xM * 1e3, 3), number(p.zM * 1e3, 3));
    }
    const bool region = m.tool == MeasureTool::Ellipse || m.tool == MeasureTool::Freehand;
    const bool contrast = m.tool == MeasureTool::Contrast && m.valid;
    QStringList row;
    row << QString::number(m.id) << toolName(m.tool) << quoted(m.view) << QString::number(m.frame)
        << (m.tool == MeasureTool::Caliper ? number(m.distanceM * 1e3, 3) : QString())
        << (region ? number(m.areaM2 * 1e6, 3) : QString())
        << (region ? number(m.perimeterM * 1e3, 3) : QString())
        << (region && m.valid ? number(m.stats.meanDb, 2) : QString())
        << (region && m.valid ? number(m.stats.stdDb, 2) : QString())
        << (region ? QString::number(m.stats.pixels) : QString())
        << (contrast ? number(m.contrast.contrastDb, 2) : QString())
        << (contrast ? number(m.contrast.cnr, 3) : QString())
        << (contrast ? number(m.contrast.gcnr, 3) : QString())
        << (contrast ? QString::number(m.contrast.target.pixels) : QString())
        << (contrast ? QString::number(m.contrast.background.pixels) : QString()) << quoted(m.text)
        << quoted(points.join(QStringLiteral("; ")));
    lines << row.join(QLatin1Char(','));
  }
  return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool MeasurementList::writeCsv(const QString& path, QString* error) const {
  try {
    base::writeFileAtomically(path.toStdString(), csv().toStdString());
    return true;
  } catch (const std::runtime_error& e) {
    if (error != nullptr) {
      *error = QString::fromStdString(e.what());
    }
    return false;
  }
}

}  // namespace cineflow::ui
