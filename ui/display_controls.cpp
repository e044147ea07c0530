#include "display_controls.hpp"

#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include "bmode_view.hpp"

namespace cineflow::ui {
namespace {

constexpr int kMinDynamicRangeDb = 10;
constexpr int kMaxDynamicRangeDb = 120;

QSlider* makeSlider(const QString& objectName, const QString& toolTip, QWidget* parent) {
  auto* slider = new QSlider(Qt::Horizontal, parent);
  slider->setObjectName(objectName);
  slider->setToolTip(toolTip);
  slider->setMinimumWidth(140);
  slider->setPageStep(5);
  // Space belongs to Start/Stop; a focused slider must not swallow keyboard shortcuts.
  slider->setFocusPolicy(Qt::NoFocus);
  return slider;
}

QLabel* makeValueLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  // Wide enough for "-120 dB" so the toolbar does not jump while dragging.
  label->setMinimumWidth(label->fontMetrics().horizontalAdvance(QStringLiteral("-1200 dB")));
  return label;
}

QString decibels(int value) {
  return QStringLiteral("%1 dB").arg(value);
}

}  // namespace

DisplayControls::DisplayControls(QWidget* parent)
    : QWidget(parent),
      gainSlider_(makeSlider(QStringLiteral("gainSlider"),
                             tr("Gain: the echo level shown as white (slide right to brighten)"),
                             this)),
      gainValue_(makeValueLabel(this)),
      dynamicRangeSlider_(makeSlider(QStringLiteral("dynamicRangeSlider"),
                                     tr("Dynamic range: the span of echo levels from black to "
                                        "white"),
                                     this)),
      dynamicRangeValue_(makeValueLabel(this)),
      colourMapCombo_(new QComboBox(this)) {
  colourMapCombo_->setObjectName(QStringLiteral("colourMapCombo"));
  colourMapCombo_->setToolTip(tr("Colour map: how echo levels are shown"));
  colourMapCombo_->setFocusPolicy(Qt::NoFocus);
  for (const ColourMap map : kColourMaps) {
    colourMapCombo_->addItem(colourMapName(map), static_cast<int>(map));
  }
  // The value is the white level (DESIGN.md §4), so a lower value brightens the image; operators
  // expect brighter to the right, as on a scanner's gain knob.
  gainSlider_->setInvertedAppearance(true);
  gainSlider_->setRange(-100, 200);
  gainSlider_->setValue(0);
  dynamicRangeSlider_->setRange(kMinDynamicRangeDb, kMaxDynamicRangeDb);
  dynamicRangeSlider_->setValue(static_cast<int>(BmodeView::kDefaultDynamicRangeDb));
  gainValue_->setText(decibels(gainSlider_->value()));
  dynamicRangeValue_->setText(decibels(dynamicRangeSlider_->value()));

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 0, 8, 0);
  layout->addWidget(new QLabel(tr("Gain"), this));
  layout->addWidget(gainSlider_);
  layout->addWidget(gainValue_);
  layout->addSpacing(12);
  layout->addWidget(new QLabel(tr("Dynamic range"), this));
  layout->addWidget(dynamicRangeSlider_);
  layout->addWidget(dynamicRangeValue_);
  layout->addSpacing(12);
  layout->addWidget(new QLabel(tr("Colour map"), this));
  layout->addWidget(colourMapCombo_);

  connect(gainSlider_, &QSlider::valueChanged, this, [this](int value) {
    gainValue_->setText(decibels(value));
    emit gainChanged(value);
  });
  connect(dynamicRangeSlider_, &QSlider::valueChanged, this, [this](int value) {
    dynamicRangeValue_->setText(decibels(value));
    emit dynamicRangeChanged(value);
  });
  connect(colourMapCombo_, &QComboBox::currentIndexChanged, this,
          [this] { emit colourMapChanged(colourMap()); });
}

double DisplayControls::gainDb() const {
  return gainSlider_->value();
}

double DisplayControls::dynamicRangeDb() const {
  return dynamicRangeSlider_->value();
}

ColourMap DisplayControls::colourMap() const {
  return static_cast<ColourMap>(colourMapCombo_->currentData().toInt());
}

void DisplayControls::setColourMap(ColourMap map) {
  colourMapCombo_->setCurrentIndex(colourMapCombo_->findData(static_cast<int>(map)));
}

void DisplayControls::setGainRange(double minimumDb, double maximumDb) {
  gainSlider_->setRange(static_cast<int>(std::floor(minimumDb)),
                        static_cast<int>(std::ceil(maximumDb)));
}

void DisplayControls::setGainDb(double gainDb) {
  gainSlider_->setValue(static_cast<int>(std::lround(gainDb)));
}

void DisplayControls::setDynamicRangeDb(double dynamicRangeDb) {
  dynamicRangeSlider_->setValue(static_cast<int>(std::lround(dynamicRangeDb)));
}

}  // namespace cineflow::ui
