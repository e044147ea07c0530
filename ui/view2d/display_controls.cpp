#include "view2d/display_controls.hpp"

#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>

#include "view2d/image_view.hpp"

namespace cineflow::ui {
namespace {

constexpr int kMinDynamicRangeDb = 10;
constexpr int kMaxDynamicRangeDb = 120;

QSlider* makeSlider(const QString& objectName, const QString& toolTip, QWidget* parent) {
  auto* slider = new QSlider(Qt::Horizontal, parent);
  slider->setObjectName(objectName);
  slider->setToolTip(toolTip);
  // Short on a small screen (the toolbar must hold the preset picker at 1280 px), longer where the
  // toolbar has room: the toolbar hands its spare width to the sliders.
  slider->setMinimumWidth(90);
  slider->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  slider->setPageStep(5);
  // Space belongs to Start/Stop; a focused slider must not swallow keyboard shortcuts.
  slider->setFocusPolicy(Qt::NoFocus);
  return slider;
}

QLabel* makeValueLabel(QWidget* parent, const QString& objectName) {
  auto* label = new QLabel(parent);
  label->setObjectName(objectName);
  // Wide enough for "-120 dB" so the toolbar does not jump while dragging.
  label->setMinimumWidth(label->fontMetrics().horizontalAdvance(QStringLiteral("-1200 dB")));
  return label;
}

QString decibels(int value) {
  return QStringLiteral("%1 dB").arg(value);
}

QString signedDecibels(double value) {
  return QStringLiteral("%1%2 dB").arg(value >= 0 ? QStringLiteral("+") : QString()).arg(value);
}

}  // namespace

DisplayControls::DisplayControls(QWidget* parent)
    : QWidget(parent),
      gainSlider_(makeSlider(
          QStringLiteral("gainSlider"),
          tr("Gain: slide right to brighten; +0 dB is the level suggested for the source"), this)),
      gainValue_(makeValueLabel(this, QStringLiteral("gainValue"))),
      dynamicRangeSlider_(makeSlider(QStringLiteral("dynamicRangeSlider"),
                                     tr("Dynamic range: the span of echo levels from black to "
                                        "white"),
                                     this)),
      dynamicRangeValue_(makeValueLabel(this, QStringLiteral("dynamicRangeValue"))),
      colourMapCombo_(new QComboBox(this)) {
  colourMapCombo_->setObjectName(QStringLiteral("colourMapCombo"));
  colourMapCombo_->setToolTip(tr("Colour map: how echo levels are shown"));
  colourMapCombo_->setFocusPolicy(Qt::NoFocus);
  for (const ColourMap map : kColourMaps) {
    colourMapCombo_->addItem(colourMapName(map), static_cast<int>(map));
  }
  // The slider's value is minus the white level (docs/ultrasound.md): it rises to the right, as the
  // gain does, and brightens the image.
  gainSlider_->setRange(-200, 100);
  gainSlider_->setValue(0);
  dynamicRangeSlider_->setRange(kMinDynamicRangeDb, kMaxDynamicRangeDb);
  dynamicRangeSlider_->setValue(static_cast<int>(ImageView::kDefaultDynamicRangeDb));
  gainValue_->setText(signedDecibels(relativeGainDb()));
  dynamicRangeValue_->setText(decibels(dynamicRangeSlider_->value()));

  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
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

  connect(gainSlider_, &QSlider::valueChanged, this, [this] {
    gainValue_->setText(signedDecibels(relativeGainDb()));
    emit gainChanged(gainDb());
  });
  connect(dynamicRangeSlider_, &QSlider::valueChanged, this, [this](int value) {
    dynamicRangeValue_->setText(decibels(value));
    emit dynamicRangeChanged(value);
  });
  connect(colourMapCombo_, &QComboBox::currentIndexChanged, this,
          [this] { emit colourMapChanged(colourMap()); });
}

double DisplayControls::gainDb() const {
  return -gainSlider_->value();
}

double DisplayControls::relativeGainDb() const {
  return std::lround(suggestedWhiteDb_) - gainDb();
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

void DisplayControls::setSuggestedGain(double whiteDb, double belowDb, double aboveDb) {
  suggestedWhiteDb_ = whiteDb;
  gainSlider_->setRange(static_cast<int>(-std::ceil(whiteDb + aboveDb)),
                        static_cast<int>(-std::floor(whiteDb - belowDb)));
  setGainDb(whiteDb);
  gainValue_->setText(signedDecibels(relativeGainDb()));  // also when the value stays
}

void DisplayControls::setGainDb(double gainDb) {
  gainSlider_->setValue(static_cast<int>(-std::lround(gainDb)));
}

void DisplayControls::setDynamicRangeDb(double dynamicRangeDb) {
  dynamicRangeSlider_->setValue(static_cast<int>(std::lround(dynamicRangeDb)));
}

}  // namespace cineflow::ui
