#pragma once
// The Measurements dock: the tools (pan, caliper, ellipse, free-hand, contrast, text, arrow) as
// exclusive checkable actions that the Measure menu shares, the list of measurements and
// annotations (number, tool, image and frame, result), and Delete, Clear and Export CSV.

#include <QWidget>

#include "measure/measurement.hpp"

class QAction;
class QActionGroup;
class QPushButton;
class QTableWidget;

namespace cineflow::ui {

class MeasurementList;

class MeasurementsPanel : public QWidget {
  Q_OBJECT

 public:
  MeasurementsPanel(MeasurementList& list, QWidget* parent = nullptr);

  MeasureTool tool() const { return tool_; }
  // The action that picks `tool` (None: pan), with its shortcut, for the Measure menu.
  QAction* toolAction(MeasureTool tool) const;
  QTableWidget& table() const { return *table_; }
  // Writes the list to `path` as CSV; says what happened through messageReady.
  bool exportCsv(const QString& path);

 public slots:
  void setTool(cineflow::ui::MeasureTool tool);

 signals:
  void toolChanged(cineflow::ui::MeasureTool tool);
  // The operator double-clicked a row: show that measurement's frame.
  void measurementActivated(int id);
  void messageReady(const QString& text);

 private:
  void refresh();
  void deleteSelected();
  void chooseCsvFile();

  MeasurementList& list_;
  MeasureTool tool_ = MeasureTool::None;
  QActionGroup* tools_ = nullptr;
  QTableWidget* table_ = nullptr;
  QPushButton* delete_ = nullptr;
  QPushButton* clear_ = nullptr;
  QPushButton* export_ = nullptr;
};

}  // namespace cineflow::ui
