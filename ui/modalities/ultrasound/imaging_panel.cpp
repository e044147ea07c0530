#include "modalities/ultrasound/imaging_panel.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>

#include "bridge/engine_controller.hpp"
#include "registry/ultrasound_engine.hpp"
#include "ultrasound/ultrasound_modality.hpp"

namespace cineflow::ui {
namespace {

constexpr double kMmPerM = 1e3;
constexpr double kPercent = 100.0;
// Wide enough for any probe and depth; the engine's validation decides what is sensible.
constexpr double kMaxExtentMm = 500.0;
constexpr double kMaxStepMm = 10.0;
constexpr double kMaxIqBandwidthPercent = 200.0;
constexpr int kMaxIqDecimation = 64;
const QString kErrorStyle = QStringLiteral("color: #ff7070;");
constexpr QRgb kPendingColour = 0xffe0b040;  // a grid box edited, not yet applied
constexpr QRgb kRefusedColour = 0xffff7070;  // ... and refused

QDoubleSpinBox* millimetreBox(QWidget* parent, const QString& objectName, double minimum,
                              double maximum = kMaxExtentMm, int decimals = 2) {
  auto* box = new QDoubleSpinBox(parent);
  box->setObjectName(objectName);
  box->setRange(minimum, maximum);
  box->setDecimals(decimals);
  box->setSingleStep(decimals > 2 ? 0.01 : 1.0);
  box->setSuffix(QStringLiteral(" mm"));
  return box;
}

// Applies a box's value when the operator has finished typing, not per digit (each value
// rebuilds stages).
template <class Box>
Box* liveBox(Box* box) {
  box->setKeyboardTracking(false);
  return box;
}

// What a grid box stands for, in metres: `currentM` while the box still shows it (to the box's
// decimals), so that applying the grid leaves alone the values the operator did not edit.
double metresFrom(const QDoubleSpinBox& box, double currentM) {
  const double halfLastDigit = 0.5 * std::pow(10.0, -box.decimals()) * (1 + 1e-9);
  return std::abs(box.value() - currentM * kMmPerM) <= halfLastDigit ? currentM
                                                                     : box.value() / kMmPerM;
}

}  // namespace

ImagingPanel::ImagingPanel(EngineController& controller, QWidget* parent)
    : QGroupBox(tr("Imaging"), parent), controller_(controller) {
  setObjectName(QStringLiteral("imagingPanel"));
  auto* layout = new QFormLayout(this);

  mode_ = new QComboBox(this);
  mode_->setObjectName(QStringLiteral("modeBox"));
  mode_->addItem(tr("RF"), static_cast<int>(ultrasound::ImagingMode::Rf));
  mode_->addItem(tr("I/Q"), static_cast<int>(ultrasound::ImagingMode::Iq));
  mode_->addItem(tr("Colour Doppler"), static_cast<int>(ultrasound::ImagingMode::ColourDoppler));
  mode_->addItem(tr("Power Doppler"), static_cast<int>(ultrasound::ImagingMode::PowerDoppler));
  mode_->setToolTip(
      tr("RF: bandpass, delay-and-sum on RF, Hilbert envelope. I/Q: demodulation, delay-and-sum "
         "on I/Q with phase rotation, |IQ| (needed for RF sampled below 2 x f0). Colour and "
         "power Doppler: the I/Q chain and the flow of its ensembles over the B-mode (needs the "
         "acquisition's PRF). Applied live."));
  connect(mode_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (index < 0) {
      return;
    }
    const auto mode = static_cast<ultrasound::ImagingMode>(mode_->itemData(index).toInt());
    applyChange([mode](ultrasound::ImagingParams& p) { p.mode = mode; });
  });
  layout->addRow(tr("Mode"), mode_);
  modeNote_ = new QLabel(this);
  modeNote_->setObjectName(QStringLiteral("modeNote"));
  modeNote_->setWordWrap(true);
  modeNote_->hide();
  layout->addRow(modeNote_);

  iqBandwidth_ = liveBox(new QDoubleSpinBox(this));
  iqBandwidth_->setObjectName(QStringLiteral("iqBandwidthBox"));
  iqBandwidth_->setRange(0.0, kMaxIqBandwidthPercent);
  iqBandwidth_->setDecimals(0);
  iqBandwidth_->setSingleStep(5.0);
  iqBandwidth_->setSuffix(QStringLiteral(" % of f0"));
  iqBandwidth_->setToolTip(
      tr("I/Q mode: the low-pass filter's bandwidth (its -6 dB points at +-half of it around "
         "the carrier). The lowest value takes the recording's own bandwidth, or the band "
         "measured from its echoes when it states none. Applied live."));
  connect(iqBandwidth_, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
    applyChange([percent](ultrasound::ImagingParams& p) { p.iqBandwidthRel = percent / kPercent; });
  });
  layout->addRow(tr("I/Q bandwidth"), iqBandwidth_);

  iqDecimation_ = liveBox(new QSpinBox(this));
  iqDecimation_->setObjectName(QStringLiteral("iqDecimationBox"));
  iqDecimation_->setRange(1, kMaxIqDecimation);
  iqDecimation_->setSpecialValueText(tr("none"));
  iqDecimation_->setToolTip(
      tr("I/Q mode: keep every Nth demodulated sample (the rate must stay above the bandwidth). "
         "Applied live."));
  connect(iqDecimation_, &QSpinBox::valueChanged, this, [this](int decimation) {
    applyChange([decimation](ultrasound::ImagingParams& p) { p.iqDecimation = decimation; });
  });
  layout->addRow(tr("I/Q decimation"), iqDecimation_);

  fNumber_ = liveBox(new QDoubleSpinBox(this));
  fNumber_->setObjectName(QStringLiteral("fNumberBox"));
  fNumber_->setRange(0.1, 20.0);
  fNumber_->setDecimals(2);
  fNumber_->setSingleStep(0.1);
  fNumber_->setToolTip(tr("Receive aperture = depth / f-number (applied live)"));
  connect(fNumber_, &QDoubleSpinBox::valueChanged, this, [this](double fNumber) {
    applyChange([fNumber](ultrasound::ImagingParams& p) { p.fNumber = fNumber; });
  });
  layout->addRow(tr("f-number"), fNumber_);

  apodisation_ = new QComboBox(this);
  apodisation_->setObjectName(QStringLiteral("apodisationBox"));
  apodisation_->addItem(tr("Hann"), static_cast<int>(ultrasound::Apodisation::Hann));
  apodisation_->addItem(tr("Rectangular"), static_cast<int>(ultrasound::Apodisation::Rectangular));
  apodisation_->setToolTip(
      tr("Receive weights over the aperture: Hann (lower side lobes) or rectangular (uniform, "
         "as PyMUST). Applied live."));
  connect(apodisation_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (index < 0) {
      return;
    }
    const auto apodisation =
        static_cast<ultrasound::Apodisation>(apodisation_->itemData(index).toInt());
    applyChange([apodisation](ultrasound::ImagingParams& p) { p.apodisation = apodisation; });
  });
  layout->addRow(tr("Apodisation"), apodisation_);

  // No cross-field limits here: the engine validates the grid and the panel shows its reason.
  depthStart_ = millimetreBox(this, QStringLiteral("depthStartBox"), 0.0);
  depthEnd_ = millimetreBox(this, QStringLiteral("depthEndBox"), 0.0);
  // Steps go down to 0 so that a step too small is refused with the engine's reason rather than
  // silently put back by the box.
  depthStep_ = millimetreBox(this, QStringLiteral("depthStepBox"), 0.0, kMaxStepMm, 4);
  lateralStart_ = millimetreBox(this, QStringLiteral("lateralStartBox"), -kMaxExtentMm);
  lateralEnd_ = millimetreBox(this, QStringLiteral("lateralEndBox"), -kMaxExtentMm);
  lateralStep_ = millimetreBox(this, QStringLiteral("lateralStepBox"), 0.0, kMaxStepMm, 4);
  layout->addRow(tr("Depth from"), depthStart_);
  layout->addRow(tr("Depth to"), depthEnd_);
  layout->addRow(tr("Depth step"), depthStep_);
  layout->addRow(tr("Lateral from"), lateralStart_);
  layout->addRow(tr("Lateral to"), lateralEnd_);
  layout->addRow(tr("Lateral step"), lateralStep_);

  applyGrid_ = new QPushButton(tr("Apply grid"), this);
  applyGrid_->setObjectName(QStringLiteral("applyGridButton"));
  applyGrid_->setToolTip(
      tr("Reconstruct on the grid in the boxes (applied live, between frames; Return in a box "
         "does the same)"));
  connect(applyGrid_, &QPushButton::clicked, this, &ImagingPanel::applyGrid);
  revertGrid_ = new QPushButton(tr("Revert"), this);
  revertGrid_->setObjectName(QStringLiteral("revertGridButton"));
  revertGrid_->setToolTip(
      tr("Put the grid in effect back into the boxes (Escape in a box does the same)"));
  revertGrid_->setEnabled(false);
  connect(revertGrid_, &QPushButton::clicked, this, &ImagingPanel::revertGrid);
  auto* gridButtons = new QHBoxLayout;
  gridButtons->addWidget(applyGrid_, 1);
  gridButtons->addWidget(revertGrid_);
  layout->addRow(gridButtons);
  for (QDoubleSpinBox* box : gridBoxes()) {
    connect(box, &QDoubleSpinBox::valueChanged, this, &ImagingPanel::updateGridState);
  }

  imagingError_ = new QLabel(this);
  imagingError_->setObjectName(QStringLiteral("imagingError"));
  imagingError_->setStyleSheet(kErrorStyle);
  imagingError_->setWordWrap(true);
  // Wraps within the panel's width rather than widening the dock (and hiding its buttons).
  imagingError_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::MinimumExpanding);
  imagingError_->hide();
  layout->addRow(imagingError_);

  setEnabled(false);
  // Nothing to show before a source is open: blanks, not the boxes' minimums.
  for (QDoubleSpinBox* box : numberBoxes()) {
    box->setSpecialValueText(QStringLiteral(" "));
    box->setValue(box->minimum());
  }
  connect(&controller_, &EngineController::sourceOpened, this, &ImagingPanel::onSourceOpened);
}

QString ImagingPanel::modeNote() const {
  return modeNote_->isHidden() ? QString() : modeNote_->text();
}

QString ImagingPanel::imagingError() const {
  return imagingError_->isHidden() ? QString() : imagingError_->text();
}

void ImagingPanel::onSourceOpened() {
  // Ultrasound's panel: hidden while another modality's source is open (its panel shows).
  const bool ultrasound = ultrasound::acquisitionOf(controller_.engine()) != nullptr;
  setVisible(ultrasound);
  setEnabled(ultrasound);
  if (!ultrasound) {
    return;
  }
  load();
}

std::array<QDoubleSpinBox*, 6> ImagingPanel::gridBoxes() const {
  return {depthStart_, depthEnd_, depthStep_, lateralStart_, lateralEnd_, lateralStep_};
}

std::array<double, 6> ImagingPanel::gridInEffect() const {
  const ultrasound::ImagingGrid g = controller_.imagingParams().grid;
  return {g.z0, g.z1, g.dz, g.x0, g.x1, g.dx};
}

std::array<QDoubleSpinBox*, 8> ImagingPanel::numberBoxes() const {
  return {fNumber_,   iqBandwidth_,  depthStart_, depthEnd_,
          depthStep_, lateralStart_, lateralEnd_, lateralStep_};
}

void ImagingPanel::load() {
  for (QDoubleSpinBox* box : numberBoxes()) {
    box->setSpecialValueText(QString());  // the blanks shown before the first source
  }
  const acquire::AcquisitionParams* acq = ultrasound::acquisitionOf(controller_.engine());
  // RF sampled below 2 f0 can only be imaged in I/Q mode: say so, and offer nothing else.
  const QString note =
      acq != nullptr ? QString::fromStdString(ultrasound::bandpassSamplingNotice(*acq)) : QString();
  // Doppler needs repeated views of one plane at a known PRF: not offered otherwise, and the
  // greyed entries say why.
  const QString noDoppler =
      acq != nullptr
          ? QString::fromStdString(controller_.imagingParams().doppler.unavailableFor(*acq))
          : QString();
  if (auto* model = qobject_cast<QStandardItemModel*>(mode_->model())) {
    model->item(mode_->findData(static_cast<int>(ultrasound::ImagingMode::Rf)))
        ->setEnabled(note.isEmpty());
    for (const auto mode :
         {ultrasound::ImagingMode::ColourDoppler, ultrasound::ImagingMode::PowerDoppler}) {
      QStandardItem* item = model->item(mode_->findData(static_cast<int>(mode)));
      item->setEnabled(noDoppler.isEmpty());
      item->setToolTip(noDoppler.isEmpty() ? QString()
                                           : tr("Not for this source: %1").arg(noDoppler));
    }
  }
  const bool fromFile = acq != nullptr && acq->fractionalBandwidth > 0;
  const double ownPercent =
      (fromFile ? acq->fractionalBandwidth : ultrasound::kDefaultIqBandwidthRel) * kPercent;
  const QString own = !fromFile                ? tr("default (%1 %)")
                      : acq->bandwidthMeasured ? tr("measured (%1 %)")
                                               : tr("recording's (%1 %)");
  iqBandwidth_->setSpecialValueText(own.arg(ownPercent, 0, 'g', 3));
  loadLiveControls();
  gridError_.clear();
  loadGrid();
  showImagingResult({});
  updateGridState();
}

void ImagingPanel::loadLiveControls() {
  const ultrasound::ImagingParams params = controller_.imagingParams();
  loading_ = true;
  mode_->setCurrentIndex(mode_->findData(static_cast<int>(params.mode)));
  updateIqControls(params.mode);
  iqBandwidth_->setValue(params.iqBandwidthRel * kPercent);
  iqDecimation_->setValue(params.iqDecimation);
  fNumber_->setValue(params.fNumber);
  apodisation_->setCurrentIndex(apodisation_->findData(static_cast<int>(params.apodisation)));
  loading_ = false;
  updateModeNote();
}

void ImagingPanel::updateModeNote() {
  const acquire::AcquisitionParams* acq = ultrasound::acquisitionOf(controller_.engine());
  if (acq == nullptr) {
    modeNote_->hide();
    return;
  }
  QStringList notes;
  if (const std::string sampling = ultrasound::bandpassSamplingNotice(*acq); !sampling.empty()) {
    notes << tr("The RF is %1.").arg(QString::fromStdString(sampling));
  }
  // A depth step too coarse for RF mode aliases the echoes: said, not refused (the operator may
  // want the quick look).
  if (const std::string coarse = controller_.imagingParams().coarseRfGridNotice(*acq);
      !coarse.empty()) {
    notes << QString::fromStdString(coarse).replace(QStringLiteral("--mode iq"),
                                                    tr("the I/Q mode")) +
                 QLatin1Char('.');
  }
  // A grid far past the recording's last sample: black rows that still cost time.
  if (const std::string past = controller_.imagingParams().gridPastDataNotice(*acq);
      !past.empty()) {
    QString text = QString::fromStdString(past);
    text[0] = text[0].toUpper();
    notes << text + QLatin1Char('.');
  }
  modeNote_->setText(notes.join(QLatin1Char(' ')));
  modeNote_->setVisible(!notes.isEmpty());
}

void ImagingPanel::loadGrid() {
  const ultrasound::ImagingGrid grid = controller_.imagingParams().grid;
  depthStart_->setValue(grid.z0 * kMmPerM);
  depthEnd_->setValue(grid.z1 * kMmPerM);
  depthStep_->setValue(grid.dz * kMmPerM);
  lateralStart_->setValue(grid.x0 * kMmPerM);
  lateralEnd_->setValue(grid.x1 * kMmPerM);
  lateralStep_->setValue(grid.dx * kMmPerM);
}

template <class Change>
void ImagingPanel::applyChange(Change change) {
  if (loading_) {
    return;
  }
  ultrasound::ImagingParams params = controller_.imagingParams();
  change(params);
  const QString error = controller_.setImagingParams(params);
  // The controls show what is in effect: a refused value goes back, with the reason.
  loadLiveControls();
  showImagingResult(error.isEmpty() ? gridError_ : error);
}

void ImagingPanel::keyPressEvent(QKeyEvent* event) {
  const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
  const QWidget* focus = focusWidget();  // the grid box or its line edit
  const auto holds = [focus](const QWidget* box) {
    return focus != nullptr && (focus == box || box->isAncestorOf(focus));
  };
  const auto boxes = gridBoxes();
  const bool inGrid = std::any_of(boxes.begin(), boxes.end(), holds);
  if (enter && inGrid) {
    applyGrid();
    event->accept();
    return;
  }
  if (event->key() == Qt::Key_Escape && inGrid && gridEdited()) {
    revertGrid();
    event->accept();
    return;
  }
  QGroupBox::keyPressEvent(event);
}

void ImagingPanel::applyGrid() {
  ultrasound::ImagingParams params = controller_.imagingParams();
  ultrasound::ImagingGrid& g = params.grid;
  g.z0 = metresFrom(*depthStart_, g.z0);
  g.z1 = metresFrom(*depthEnd_, g.z1);
  g.dz = metresFrom(*depthStep_, g.dz);
  g.x0 = metresFrom(*lateralStart_, g.x0);
  g.x1 = metresFrom(*lateralEnd_, g.x1);
  g.dx = metresFrom(*lateralStep_, g.dx);
  // A refused grid stays in the boxes to be corrected; its reason stays until a grid applies.
  gridError_ = controller_.setImagingParams(params);
  if (gridError_.isEmpty()) {
    loadGrid();
  }
  updateModeNote();
  showImagingResult(gridError_);
  updateGridState();
}

void ImagingPanel::revertGrid() {
  loadGrid();  // clears the refusal with the edits (updateGridState)
}

std::array<bool, 6> ImagingPanel::editedBoxes() const {
  const auto boxes = gridBoxes();
  const auto inEffect = gridInEffect();
  std::array<bool, 6> edited{};
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    edited[i] = metresFrom(*boxes[i], inEffect[i]) != inEffect[i];
  }
  return edited;
}

bool ImagingPanel::gridEdited() const {
  const auto edited = editedBoxes();
  return std::find(edited.begin(), edited.end(), true) != edited.end();
}

void ImagingPanel::updateGridState() {
  if (!isEnabled()) {
    return;  // the blanks before the first source
  }
  const auto boxes = gridBoxes();
  const auto inEffect = gridInEffect();
  const auto editedBox = editedBoxes();
  const bool edited = gridEdited();
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const bool differs = editedBox[i];
    // A box not in effect reads in amber while waiting for Apply, in red once refused.
    QPalette palette = boxes[i]->parentWidget()->palette();
    if (differs) {
      palette.setColor(QPalette::Text,
                       gridError_.isEmpty() ? QColor(kPendingColour) : QColor(kRefusedColour));
    }
    boxes[i]->setPalette(palette);
    boxes[i]->setToolTip(differs ? tr("Not in effect: Apply grid (or Return) applies it, Revert "
                                      "(or Escape) puts back %1 mm")
                                       .arg(inEffect[i] * kMmPerM, 0, 'g', 6)
                                 : QString());
  }
  revertGrid_->setEnabled(edited);
  if (!edited && !gridError_.isEmpty()) {
    // Back to the grid in effect: the refusal is about values no longer shown.
    gridError_.clear();
    showImagingResult({});
  }
}

void ImagingPanel::showImagingResult(const QString& error) {
  imagingError_->setText(error.isEmpty() ? QString() : tr("Not applied: %1").arg(error));
  imagingError_->setVisible(!error.isEmpty());
}

void ImagingPanel::updateIqControls(ultrasound::ImagingMode mode) {
  const bool iq = ultrasound::usesIqChain(mode);
  iqBandwidth_->setEnabled(iq);
  iqDecimation_->setEnabled(iq);
}

}  // namespace cineflow::ui
