#include "measure/measurements_panel.hpp"

#include <array>

#include <QAction>
#include <QActionGroup>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "common/file_dialogs.hpp"
#include "measure/measurement_list.hpp"

namespace cineflow::ui {
namespace {

struct ToolEntry {
  MeasureTool tool;
  const char* label;
  const char* shortcut;
  const char* tip;
};

constexpr std::array<ToolEntry, 7> kTools{{
    {MeasureTool::None, "Pan", "V", "Drag pans the image, the wheel zooms (no measuring tool)"},
    {MeasureTool::Caliper, "Caliper", "D", "Distance: drag from one point to the other"},
    {MeasureTool::Ellipse, "Ellipse", "E",
     "Area, perimeter and ROI statistics of the ellipse in the box you drag"},
    {MeasureTool::Freehand, "Free-hand", "H",
     "Area, perimeter and ROI statistics of the outline you draw (closed on release)"},
    {MeasureTool::Contrast, "Contrast", "C",
     "Contrast, CNR and gCNR: drag the target ellipse, then the background ellipse"},
    {MeasureTool::Text, "Text", "T", "A text label: click where it goes"},
    {MeasureTool::Arrow, "Arrow", "A", "An arrow from where you press to where you release"},
}};

constexpr int kIdRole = Qt::UserRole;

}  // namespace

MeasurementsPanel::MeasurementsPanel(MeasurementList& list, QWidget* parent)
    : QWidget(parent), list_(list) {
  setObjectName(QStringLiteral("measurementsPanel"));
  auto* layout = new QVBoxLayout(this);
  tools_ = new QActionGroup(this);
  tools_->setExclusive(true);
  // Two rows of tools, so that the dock is no wider than the acquisition panel it is tabbed with.
  auto* toolGrid = new QGridLayout;
  toolGrid->setSpacing(2);
  int index = 0;
  for (const ToolEntry& entry : kTools) {
    auto* action = new QAction(tr(entry.label), tools_);
    action->setObjectName(QStringLiteral("measureTool%1").arg(QString(entry.label).remove('-')));
    action->setCheckable(true);
    action->setChecked(entry.tool == MeasureTool::None);
    action->setShortcut(QKeySequence(QString::fromLatin1(entry.shortcut)));
    action->setToolTip(tr(entry.tip) + QStringLiteral(" (%1)").arg(entry.shortcut));
    action->setData(static_cast<int>(entry.tool));
    auto* button = new QToolButton(this);
    button->setDefaultAction(action);
    button->setAutoRaise(true);
    button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    toolGrid->addWidget(button, index / 4, index % 4);
    ++index;
  }
  layout->addLayout(toolGrid);
  connect(tools_, &QActionGroup::triggered, this,
          [this](QAction* action) { setTool(static_cast<MeasureTool>(action->data().toInt())); });

  table_ = new QTableWidget(0, 4, this);
  table_->setObjectName(QStringLiteral("measurementsTable"));
  table_->setHorizontalHeaderLabels({tr("#"), tr("Tool"), tr("Image"), tr("Result")});
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  table_->setToolTip(tr("Double-click a row to show its frame"));
  layout->addWidget(table_, 1);
  connect(table_, &QTableWidget::itemDoubleClicked, this, [this](QTableWidgetItem* item) {
    emit measurementActivated(item->data(kIdRole).toInt());
  });

  auto* buttons = new QHBoxLayout;
  delete_ = new QPushButton(tr("Delete"), this);
  delete_->setObjectName(QStringLiteral("deleteMeasurement"));
  delete_->setToolTip(tr("Delete the selected measurements (Delete)"));
  delete_->setShortcut(QKeySequence::Delete);
  clear_ = new QPushButton(tr("Clear"), this);
  clear_->setObjectName(QStringLiteral("clearMeasurements"));
  clear_->setToolTip(tr("Delete every measurement and annotation"));
  export_ = new QPushButton(tr("Export CSV…"), this);
  export_->setObjectName(QStringLiteral("exportMeasurements"));
  export_->setToolTip(tr("Write the list as a CSV file (lengths in mm, areas in mm², dB)"));
  buttons->addWidget(delete_);
  buttons->addWidget(clear_);
  buttons->addStretch(1);
  buttons->addWidget(export_);
  layout->addLayout(buttons);
  connect(delete_, &QPushButton::clicked, this, &MeasurementsPanel::deleteSelected);
  connect(clear_, &QPushButton::clicked, &list_, &MeasurementList::clear);
  connect(export_, &QPushButton::clicked, this, &MeasurementsPanel::chooseCsvFile);
  connect(&list_, &MeasurementList::changed, this, &MeasurementsPanel::refresh);
  refresh();
}

QAction* MeasurementsPanel::toolAction(MeasureTool tool) const {
  for (QAction* action : tools_->actions()) {
    if (static_cast<MeasureTool>(action->data().toInt()) == tool) {
      return action;
    }
  }
  return nullptr;
}

void MeasurementsPanel::setTool(MeasureTool tool) {
  if (QAction* action = toolAction(tool)) {
    action->setChecked(true);
  }
  if (tool != tool_) {
    tool_ = tool;
    emit toolChanged(tool);
  }
}

void MeasurementsPanel::refresh() {
  const auto& all = list_.all();
  table_->setRowCount(static_cast<int>(all.size()));
  for (int row = 0; row < static_cast<int>(all.size()); ++row) {
    const Measurement& m = all[static_cast<std::size_t>(row)];
    const QStringList cells{QString::number(m.id), toolName(m.tool),
                            tr("%1, frame %2").arg(m.view).arg(m.frame), summaryText(m)};
    for (int column = 0; column < cells.size(); ++column) {
      auto* item = new QTableWidgetItem(cells[column]);
      item->setData(kIdRole, m.id);
      item->setToolTip(cells[column]);
      table_->setItem(row, column, item);
    }
  }
  delete_->setEnabled(!all.empty());
  clear_->setEnabled(!all.empty());
  export_->setEnabled(!all.empty());
  if (!all.empty()) {
    table_->scrollToBottom();
  }
}

void MeasurementsPanel::deleteSelected() {
  std::vector<int> ids;
  for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
    ids.push_back(index.data(kIdRole).toInt());
  }
  if (ids.empty() && table_->rowCount() > 0) {
    ids.push_back(table_->item(table_->rowCount() - 1, 0)->data(kIdRole).toInt());  // the newest
  }
  for (const int id : ids) {
    list_.remove(id);
  }
}

bool MeasurementsPanel::exportCsv(const QString& path) {
  QString error;
  if (!list_.writeCsv(path, &error)) {
    emit messageReady(tr("Measurements not exported: %1").arg(error));
    return false;
  }
  emit messageReady(
      tr("%n measurement(s) written to %1", nullptr, static_cast<int>(list_.all().size()))
          .arg(path));
  return true;
}

void MeasurementsPanel::chooseCsvFile() {
  const QString path = askSaveFile(this, file_kinds::kExports, tr("Export measurements"),
                                   QStringLiteral("measurements.csv"), tr("CSV files (*.csv)"));
  if (!path.isEmpty()) {
    exportCsv(path);
  }
}

}  // namespace cineflow::ui
