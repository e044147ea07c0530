#include "view2d/depth_gain_controls.hpp"

#include <cmath>

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>

namespace cineflow::ui {

DepthGainControls::DepthGainControls(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("depthGainControls"));
  auto* layout = new QGridLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setHorizontalSpacing(2);
  auto* top = new QLabel(tr("shallow"), this);
  auto* bottom = new QLabel(tr("deep"), this);
  top->setEnabled(false);
  bottom->setEnabled(false);
  layout->addWidget(top, 0, 0, 1, kDepthGainBands / 2, Qt::AlignLeft);
  layout->addWidget(bottom, 0, kDepthGainBands / 2, 1, kDepthGainBands / 2, Qt::AlignRight);
  const auto maxDb = static_cast<int>(kMaxDepthGainDb);
  for (int band = 0; band < kDepthGainBands; ++band) {
    auto* slider = new QSlider(Qt::Vertical, this);
    slider->setObjectName(QStringLiteral("depthGainSlider%1").arg(band));
    slider->setRange(-maxDb, maxDb);
    slider->setPageStep(5);
    slider->setTickPosition(QSlider::TicksBothSides);
    slider->setTickInterval(maxDb);
    slider->setMinimumHeight(90);
    slider->setToolTip(tr("Gain at depth band %1 of %2 (top to bottom of the image), dB")
                           .arg(band + 1)
                           .arg(kDepthGainBands));
    auto* value = new QLabel(this);
    value->setAlignment(Qt::AlignHCenter);
    value->setMinimumWidth(value->fontMetrics().horizontalAdvance(QStringLiteral("+20")));
    layout->addWidget(slider, 1, band, Qt::AlignHCenter);
    layout->addWidget(value, 2, band);
    sliders_[static_cast<std::size_t>(band)] = slider;
    values_[static_cast<std::size_t>(band)] = value;
    connect(slider, &QSlider::valueChanged, this, [this, band](int db) {
      if (showing_) {
        return;
      }
      gain_.db[static_cast<std::size_t>(band)] = db;
      showValues();
      emit depthGainChanged(gain_);
    });
  }
  auto* reset = new QPushButton(tr("Reset"), this);
  reset->setObjectName(QStringLiteral("depthGainReset"));
  reset->setToolTip(tr("Every band back to 0 dB"));
  reset->setFocusPolicy(Qt::TabFocus);
  connect(reset, &QPushButton::clicked, this, [this] { setDepthGain({}); });
  layout->addWidget(reset, 3, 0, 1, kDepthGainBands);
  layout->setRowStretch(1, 1);
  showValues();
}

void DepthGainControls::setDepthGain(const DepthGain& gain) {
  if (gain == gain_) {
    return;
  }
  gain_ = gain;
  showing_ = true;
  for (int band = 0; band < kDepthGainBands; ++band) {
    sliders_[static_cast<std::size_t>(band)]->setValue(
        static_cast<int>(std::lround(gain_.db[static_cast<std::size_t>(band)])));
  }
  showing_ = false;
  showValues();
  emit depthGainChanged(gain_);
}

void DepthGainControls::showValues() {
  for (int band = 0; band < kDepthGainBands; ++band) {
    const double db = gain_.db[static_cast<std::size_t>(band)];
    values_[static_cast<std::size_t>(band)]->setText(db == 0.0 ? QStringLiteral("0")
                                                               : QString::asprintf("%+.0f", db));
  }
}

}  // namespace cineflow::ui
