#include "modalities/ultrasound/doppler_panel.hpp"

#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>

#include "bridge/engine_controller.hpp"
#include "registry/ultrasound_engine.hpp"
#include "ultrasound/doppler_math.hpp"
#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::ui {
namespace {

const QString kErrorStyle = QStringLiteral("color: #ff7070;");

QSpinBox* oddBox(QWidget* parent, const QString& name) {
  auto* box = new QSpinBox(parent);
  box->setObjectName(name);
  box->setRange(1, ultrasound::kMaxAveraging);
  box->setSingleStep(2);
  box->setKeyboardTracking(false);
  return box;
}

FlowMap mapFor(ultrasound::ImagingMode mode) {
  switch (mode) {
    case ultrasound::ImagingMode::ColourDoppler:
      return FlowMap::Velocity;
    case ultrasound::ImagingMode::PowerDoppler:
      return FlowMap::Power;
    default:
      return FlowMap::Off;
  }
}

}  // namespace

DopplerPanel::DopplerPanel(EngineController& controller, QWidget* parent)
    : QGroupBox(tr("Doppler"), parent), controller_(controller) {
  setObjectName(QStringLiteral("dopplerPanel"));
  auto* layout = new QFormLayout(this);

  prf_ = new QLabel(this);
  prf_->setObjectName(QStringLiteral("dopplerPrf"));
  prf_->setWordWrap(true);
  layout->addRow(prf_);

  ensemble_ = new QSpinBox(this);
  ensemble_->setObjectName(QStringLiteral("ensembleBox"));
  ensemble_->setRange(ultrasound::kMinEnsemble, ultrasound::kMaxEnsemble);
  ensemble_->setKeyboardTracking(false);
  ensemble_->setSuffix(tr(" frames"));
  ensemble_->setToolTip(tr("Frames per estimate (the packet size). Applied live."));
  connect(ensemble_, &QSpinBox::valueChanged, this,
          [this](int n) { applyChange([n](ultrasound::DopplerParams& d) { d.ensemble = n; }); });
  ensembleMode_ = new QComboBox(this);
  ensembleMode_->setObjectName(QStringLiteral("ensembleModeBox"));
  ensembleMode_->addItem(tr("sliding"), static_cast<int>(ultrasound::EnsembleMode::Sliding));
  ensembleMode_->addItem(tr("block"), static_cast<int>(ultrasound::EnsembleMode::Block));
  ensembleMode_->setToolTip(
      tr("Sliding: an estimate at every frame from the last N. Block: one "
         "every N frames (a packet acquisition)."));
  connect(ensembleMode_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (index >= 0) {
      const auto mode =
          static_cast<ultrasound::EnsembleMode>(ensembleMode_->itemData(index).toInt());
      applyChange([mode](ultrasound::DopplerParams& d) { d.ensembleMode = mode; });
    }
  });
  auto* ensembleRow = new QHBoxLayout;
  ensembleRow->addWidget(ensemble_);
  ensembleRow->addWidget(ensembleMode_);
  layout->addRow(tr("Ensemble"), ensembleRow);

  wallFilter_ = new QComboBox(this);
  wallFilter_->setObjectName(QStringLiteral("wallFilterBox"));
  wallFilter_->addItem(tr("none"), static_cast<int>(ultrasound::WallFilter::None));
  wallFilter_->addItem(tr("polynomial regression"),
                       static_cast<int>(ultrasound::WallFilter::Regression));
  wallFilter_->addItem(tr("IIR high-pass"), static_cast<int>(ultrasound::WallFilter::Iir));
  wallFilter_->addItem(tr("SVD"), static_cast<int>(ultrasound::WallFilter::Svd));
  wallFilter_->setToolTip(
      tr("The clutter (wall) filter that removes the tissue's slow echoes "
         "before the velocity is estimated. Applied live."));
  connect(wallFilter_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (index >= 0) {
      const auto filter = static_cast<ultrasound::WallFilter>(wallFilter_->itemData(index).toInt());
      applyChange([filter](ultrasound::DopplerParams& d) { d.wallFilter = filter; });
    }
  });
  layout->addRow(tr("Wall filter"), wallFilter_);
  wallParameter_ = new QDoubleSpinBox(this);
  wallParameter_->setObjectName(QStringLiteral("wallParameterBox"));
  wallParameter_->setKeyboardTracking(false);
  wallParameterLabel_ = new QLabel(this);
  connect(wallParameter_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    applyChange([value](ultrasound::DopplerParams& d) {
      switch (d.wallFilter) {
        case ultrasound::WallFilter::Regression:
          d.regressionOrder = static_cast<int>(std::lround(value));
          break;
        case ultrasound::WallFilter::Iir:
          d.iirCutoff = value;
          break;
        case ultrasound::WallFilter::Svd:
          d.svdRank = static_cast<int>(std::lround(value));
          break;
        case ultrasound::WallFilter::None:
          break;
      }
    });
  });
  layout->addRow(wallParameterLabel_, wallParameter_);

  averageX_ = oddBox(this, QStringLiteral("averageXBox"));
  averageZ_ = oddBox(this, QStringLiteral("averageZBox"));
  averageX_->setToolTip(tr("Average the autocorrelation over this many pixels laterally"));
  averageZ_->setToolTip(tr("... and this many in depth (odd; 1: none)"));
  const auto applyAveraging = [this] {
    const int x = averageX_->value(), z = averageZ_->value();
    applyChange([x, z](ultrasound::DopplerParams& d) {
      d.averageX = x;
      d.averageZ = z;
    });
  };
  connect(averageX_, &QSpinBox::valueChanged, this, applyAveraging);
  connect(averageZ_, &QSpinBox::valueChanged, this, applyAveraging);
  auto* averageRow = new QHBoxLayout;
  averageRow->addWidget(averageX_);
  averageRow->addWidget(new QLabel(QStringLiteral("x"), this));
  averageRow->addWidget(averageZ_);
  averageRow->addWidget(new QLabel(tr("px"), this));
  layout->addRow(tr("Averaging"), averageRow);

  box_ = new QLabel(this);
  box_->setObjectName(QStringLiteral("colourBoxLabel"));
  box_->setToolTip(tr("Drag the colour box on the image to move it, its edges to resize it"));
  wholeImage_ = new QPushButton(tr("Whole image"), this);
  wholeImage_->setObjectName(QStringLiteral("wholeImageButton"));
  connect(wholeImage_, &QPushButton::clicked, this, [this] { setColourBox(process::ColourBox{}); });
  auto* boxRow = new QHBoxLayout;
  boxRow->addWidget(box_, 1);
  boxRow->addWidget(wholeImage_);
  layout->addRow(tr("Colour box"), boxRow);

  const auto sliderRow = [this, layout](QSlider*& slider, QLabel*& value, const QString& name,
                                        const QString& label, int lo, int hi, int initial,
                                        const QString& tip) {
    slider = new QSlider(Qt::Horizontal, this);
    slider->setObjectName(name);
    slider->setRange(lo, hi);
    slider->setValue(initial);
    slider->setToolTip(tip);
    value = new QLabel(this);
    value->setMinimumWidth(48);
    auto* row = new QHBoxLayout;
    row->addWidget(slider, 1);
    row->addWidget(value);
    layout->addRow(label, row);
    connect(slider, &QSlider::valueChanged, this, [this] { emitLook(); });
  };
  sliderRow(threshold_, thresholdValue_, QStringLiteral("flowThresholdSlider"), tr("Threshold"), 0,
            60, static_cast<int>(FlowLook{}.powerThresholdDb),
            tr("Flow shows where its power lies this far above the B-mode's black level"));
  sliderRow(priority_, priorityValue_, QStringLiteral("flowPrioritySlider"), tr("Priority"), 0, 100,
            static_cast<int>(FlowLook{}.priority * 100),
            tr("Flow shows over B-mode up to this display level (100 %: everywhere)"));

  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("dopplerError"));
  error_->setStyleSheet(kErrorStyle);
  error_->setWordWrap(true);
  error_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::MinimumExpanding);
  error_->hide();
  layout->addRow(error_);

  hide();
  connect(&controller_, &EngineController::settingsChanged, this, &DopplerPanel::load);
  connect(&controller_, &EngineController::sourceOpened, this, &DopplerPanel::load);
  emitLook();
}

FlowLook DopplerPanel::flowLook() const {
  FlowLook look;
  look.map = map_;
  look.powerThresholdDb = threshold_->value();
  look.priority = priority_->value() / 100.0;
  look.powerRangeDb = powerRangeDb_;
  return look;
}

QString DopplerPanel::prfText() const {
  return prf_->text();
}

QString DopplerPanel::errorText() const {
  return error_->isHidden() ? QString() : error_->text();
}

void DopplerPanel::load() {
  const acquire::AcquisitionParams* acq = ultrasound::acquisitionOf(controller_.engine());
  const ultrasound::ImagingParams params = controller_.imagingParams();
  const FlowMap map = acq != nullptr ? mapFor(params.mode) : FlowMap::Off;
  setVisible(map != FlowMap::Off);
  if (map != map_) {
    map_ = map;
    emitLook();
  }
  if (acq == nullptr) {
    return;
  }
  const ultrasound::DopplerParams& d = params.doppler;
  loading_ = true;
  const double prf = d.prfFor(*acq);
  prf_->setText(prf > 0 ? tr("PRF %1 kHz: velocities alias beyond ±%2 m/s (c PRF / 4 f0)")
                              .arg(prf * 1e-3, 0, 'f', 2)
                              .arg(d.aliasingVelocityFor(*acq), 0, 'f', 3)
                        : tr("The recording states no PRF: Doppler cannot run on it"));
  ensemble_->setValue(d.ensemble);
  ensembleMode_->setCurrentIndex(ensembleMode_->findData(static_cast<int>(d.ensembleMode)));
  wallFilter_->setCurrentIndex(wallFilter_->findData(static_cast<int>(d.wallFilter)));
  updateWallParameter(d.wallFilter, d);
  averageX_->setValue(d.averageX);
  averageZ_->setValue(d.averageZ);
  box_->setText(d.box.empty() ? tr("whole image")
                              : tr("x %1..%2, z %3..%4 mm")
                                    .arg(d.box.x0 * 1e3, 0, 'f', 1)
                                    .arg(d.box.x1 * 1e3, 0, 'f', 1)
                                    .arg(d.box.z0 * 1e3, 0, 'f', 1)
                                    .arg(d.box.z1 * 1e3, 0, 'f', 1));
  wholeImage_->setEnabled(!d.box.empty());
  loading_ = false;
}

void DopplerPanel::updateWallParameter(ultrasound::WallFilter filter,
                                       const ultrasound::DopplerParams& d) {
  const bool has = filter != ultrasound::WallFilter::None;
  wallParameter_->setVisible(has);
  wallParameterLabel_->setVisible(has);
  switch (filter) {
    case ultrasound::WallFilter::Regression:
      wallParameterLabel_->setText(tr("Order"));
      wallParameter_->setDecimals(0);
      wallParameter_->setRange(0, ultrasound::kMaxRegressionOrder);
      wallParameter_->setSingleStep(1);
      wallParameter_->setSuffix({});
      wallParameter_->setValue(d.regressionOrder);
      break;
    case ultrasound::WallFilter::Iir:
      wallParameterLabel_->setText(tr("Cut-off"));
      wallParameter_->setDecimals(3);
      wallParameter_->setRange(0.001, 0.499);
      wallParameter_->setSingleStep(0.01);
      wallParameter_->setSuffix(tr(" x PRF"));
      wallParameter_->setValue(d.iirCutoff);
      break;
    case ultrasound::WallFilter::Svd:
      wallParameterLabel_->setText(tr("Rank removed"));
      wallParameter_->setDecimals(0);
      wallParameter_->setRange(1, std::max(1, d.ensemble - 2));
      wallParameter_->setSingleStep(1);
      wallParameter_->setSuffix({});
      wallParameter_->setValue(d.svdRank);
      break;
    case ultrasound::WallFilter::None:
      break;
  }
}

void DopplerPanel::setColourBox(const process::ColourBox& box) {
  applyChange([box](ultrasound::DopplerParams& d) { d.box = box; });
}

void DopplerPanel::setFlowLook(const FlowLook& look) {
  threshold_->setValue(static_cast<int>(std::lround(look.powerThresholdDb)));
  priority_->setValue(static_cast<int>(std::lround(look.priority * 100)));
  powerRangeDb_ = look.powerRangeDb;
  emitLook();
}

template <class Change>
void DopplerPanel::applyChange(Change change) {
  if (loading_) {
    return;
  }
  ultrasound::ImagingParams params = controller_.imagingParams();
  change(params.doppler);
  const QString error = controller_.setImagingParams(params);
  error_->setText(error.isEmpty() ? QString() : tr("Not applied: %1").arg(error));
  error_->setVisible(!error.isEmpty());
  load();  // what is in effect (a refused value goes back)
}

void DopplerPanel::emitLook() {
  thresholdValue_->setText(tr("+%1 dB").arg(threshold_->value()));
  priorityValue_->setText(tr("%1 %").arg(priority_->value()));
  emit flowLookChanged(flowLook());
}

}  // namespace cineflow::ui
