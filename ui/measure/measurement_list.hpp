#pragma once
// The measurements and annotations the operator made (measurement.hpp), in the order made: what
// the views draw, the Measurements dock lists and the CSV export writes. Lives on the GUI thread.

#include <span>
#include <vector>

#include <QObject>
#include <QString>

#include "measure/measurement.hpp"

namespace cineflow::ui {

// Measurements as CSV, one row per measurement, lengths in mm, areas in mm^2 (columns:
// MeasurementList::csvHeader()); text quoted as RFC 4180 asks.
QString measurementsCsv(std::span<const Measurement> measurements);

class MeasurementList : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;

  const std::vector<Measurement>& all() const { return items_; }
  const Measurement* find(int id) const;
  // Adds `m` with the next id (returned).
  int add(Measurement m);
  void remove(int id);
  void clear();
  // Moves every measurement of image `view` to image `to` (a name no view draws, so that they
  // stay listed and exported with their values but are never drawn on another image that reuses
  // their frames' sequence numbers). Returns how many moved.
  int moveView(const QString& view, const QString& to);

  // The list as CSV (measurementsCsv).
  QString csv() const { return measurementsCsv(items_); }
  // The measurements of the image `view`, oldest first.
  std::vector<Measurement> ofView(const QString& view) const;
  static QString csvHeader();
  // Writes csv() to `path` whole (base::writeFileAtomically). False with `error` set when it
  // could not.
  bool writeCsv(const QString& path, QString* error) const;

 signals:
  void changed();

 private:
  std::vector<Measurement> items_;
  int nextId_ = 1;
};

}  // namespace cineflow::ui
