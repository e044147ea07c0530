#include "modalities/oct/oct_panel.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QPushButton>
#include <QSlider>

#include "bridge/engine_controller.hpp"
#include "common/file_dialogs.hpp"
#include "oct/cpu/oct_stages.hpp"
#include "oct/dispersion_search.hpp"
#include "oct/k_table_file.hpp"
#include "oct/oct_modality.hpp"
#include "registry/oct_engine.hpp"

namespace cineflow::ui {
namespace {

constexpr double kA2Range = 300.0;  // radians at u = 1
constexpr double kA3Range = 150.0;
constexpr auto kSnapshotTimeout = std::chrono::milliseconds(2000);
const char* const kErrorStyle = "color: #e0605a;";

QComboBox* makeCombo(QWidget* parent, const char* name,
                     std::initializer_list<std::pair<QString, int>> items) {
  auto* combo = new QComboBox(parent);
  combo->setObjectName(QString::fromLatin1(name));
  for (const auto& [text, value] : items) {
    combo->addItem(text, value);
  }
  return combo;
}

QDoubleSpinBox* makeBox(QWidget* parent, const char* name, double lo, double hi, int decimals,
                        double step, const QString& suffix) {
  auto* box = new QDoubleSpinBox(parent);
  box->setObjectName(QString::fromLatin1(name));
  box->setRange(lo, hi);
  box->setDecimals(decimals);
  box->setSingleStep(step);
  box->setSuffix(suffix);
  box->setKeyboardTracking(false);  // applies on Return or focus change, not per keystroke
  return box;
}

void selectData(QComboBox* combo, int value) {
  combo->setCurrentIndex(std::max(0, combo->findData(value)));
}

}  // namespace

OctPanel::OctPanel(EngineController& controller, QWidget* parent)
    : QGroupBox(tr("OCT"), parent), controller_(controller) {
  setObjectName(QStringLiteral("octPanel"));
  auto* layout = new QFormLayout(this);

  background_ = makeCombo(this, "octBackground",
                          {{tr("Rolling mean"), static_cast<int>(oct::Background::RollingMean)},
                           {tr("Reference"), static_cast<int>(oct::Background::Reference)}});
  background_->setToolTip(
      tr("Subtracted from every spectrum: the mean spectrum of each B-scan, or "
         "a reference captured with the sample removed"));
  captureReference_ = new QPushButton(tr("Capture"), this);
  captureReference_->setObjectName(QStringLiteral("octCaptureReference"));
  captureReference_->setToolTip(
      tr("Take the live B-scan's mean spectrum as the reference (remove the sample first)"));
  auto* backgroundRow = new QHBoxLayout;
  backgroundRow->addWidget(background_, 1);
  backgroundRow->addWidget(captureReference_);
  layout->addRow(tr("Background"), backgroundRow);

  kLinearisation_ =
      makeCombo(this, "octKLinearisation",
                {{tr("Wavelengths"), static_cast<int>(oct::KLinearisation::Wavelengths)},
                 {tr("Table file…"), static_cast<int>(oct::KLinearisation::Table)},
                 {tr("Polynomial…"), static_cast<int>(oct::KLinearisation::Polynomial)},
                 {tr("Linear in k"), static_cast<int>(oct::KLinearisation::None)}});
  kLinearisation_->setToolTip(
      tr("How the spectrometer's samples are resampled evenly in k: from the recording's "
         "wavelength table, a resampling table (a text file of raw sample indices, one per "
         "sample), a polynomial raw index = c0 + c1 j + c2 j² + c3 j³, or not at all (the "
         "samples are already linear in k)"));
  // Its longest choice need not widen the dock (the wider panel sets the Acquisition dock's width).
  kLinearisation_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  kLinearisation_->setMinimumContentsLength(10);
  editKLinearisation_ = new QPushButton(tr("Edit…"), this);
  editKLinearisation_->setObjectName(QStringLiteral("octEditKLinearisation"));
  editKLinearisation_->setToolTip(tr("Load another table file, or change the polynomial"));
  auto* kRow = new QHBoxLayout;
  kRow->addWidget(kLinearisation_, 1);
  kRow->addWidget(editKLinearisation_);
  layout->addRow(tr("k-linearisation"), kRow);
  interpolation_ = makeCombo(this, "octInterpolation",
                             {{tr("Cubic"), static_cast<int>(oct::Interpolation::Cubic)},
                              {tr("Linear"), static_cast<int>(oct::Interpolation::Linear)}});
  layout->addRow(tr("Interpolation"), interpolation_);

  const auto dispersionRow = [this](QSlider*& slider, QDoubleSpinBox*& box, const char* name,
                                    double range) {
    slider = new QSlider(Qt::Horizontal, this);
    slider->setObjectName(QStringLiteral("%1Slider").arg(QString::fromLatin1(name)));
    slider->setRange(static_cast<int>(-range), static_cast<int>(range));
    box = makeBox(this, name, -range, range, 1, 1.0, tr(" rad"));
    box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("-000.0 rad  ")));
    auto* row = new QHBoxLayout;
    row->addWidget(slider, 1);
    row->addWidget(box);
    return row;
  };
  layout->addRow(tr("Dispersion a2"), dispersionRow(a2Slider_, a2_, "octA2", kA2Range));
  layout->addRow(tr("Dispersion a3"), dispersionRow(a3Slider_, a3_, "octA3", kA3Range));
  autoDispersion_ = new QPushButton(tr("Auto dispersion"), this);
  autoDispersion_->setObjectName(QStringLiteral("octAutoDispersion"));
  autoDispersion_->setToolTip(tr("Find the a2 and a3 that make the live B-scan sharpest"));
  layout->addRow(QString(), autoDispersion_);

  window_ = makeCombo(this, "octWindow",
                      {{tr("Hann"), static_cast<int>(oct::SpectralWindow::Hann)},
                       {tr("Gaussian"), static_cast<int>(oct::SpectralWindow::Gaussian)},
                       {tr("Rectangular"), static_cast<int>(oct::SpectralWindow::Rectangular)}});
  layout->addRow(tr("Window"), window_);
  depthStart_ = makeBox(this, "octDepthStart", 0, 100, 3, 0.05, tr(" mm"));
  depthEnd_ = makeBox(this, "octDepthEnd", 0, 100, 3, 0.05, tr(" mm"));
  layout->addRow(tr("Depth from"), depthStart_);
  layout->addRow(tr("Depth to"), depthEnd_);
  refractiveIndex_ = makeBox(this, "octRefractiveIndex", 1.0, 4.0, 3, 0.01, QString());
  refractiveIndex_->setToolTip(tr("Group index of the sample: depths are optical path / n"));
  layout->addRow(tr("Refractive index"), refractiveIndex_);

  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("octMessage"));
  message_->setWordWrap(true);
  message_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::MinimumExpanding);
  message_->hide();
  layout->addRow(message_);

  const auto comboApplies = [this](QComboBox* combo, auto assign) {
    connect(combo, &QComboBox::currentIndexChanged, this, [this, combo, assign] {
      const int value = combo->currentData().toInt();
      apply([&](oct::OctParams& p) { assign(p, value); });
    });
  };
  comboApplies(background_,
               [](oct::OctParams& p, int v) { p.background = static_cast<oct::Background>(v); });
  // A table or polynomial needs its numbers first: choosing one asks for them.
  connect(kLinearisation_, &QComboBox::currentIndexChanged, this, [this] {
    if (loading_) {
      return;
    }
    const auto kind = static_cast<oct::KLinearisation>(kLinearisation_->currentData().toInt());
    if (kind == oct::KLinearisation::Table || kind == oct::KLinearisation::Polynomial) {
      editKLinearisation();
      return;
    }
    apply([kind](oct::OctParams& p) { p.kLinearisation = kind; });
  });
  connect(editKLinearisation_, &QPushButton::clicked, this, [this] { editKLinearisation(); });
  comboApplies(interpolation_, [](oct::OctParams& p, int v) {
    p.interpolation = static_cast<oct::Interpolation>(v);
  });
  comboApplies(window_,
               [](oct::OctParams& p, int v) { p.window = static_cast<oct::SpectralWindow>(v); });
  // Sliders move the boxes; the boxes apply.
  connect(a2Slider_, &QSlider::valueChanged, a2_, [this](int v) { a2_->setValue(v); });
  connect(a3Slider_, &QSlider::valueChanged, a3_, [this](int v) { a3_->setValue(v); });
  connect(a2_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    const QSignalBlocker block(a2Slider_);
    a2Slider_->setValue(static_cast<int>(std::lround(v)));
    apply([v](oct::OctParams& p) { p.a2 = v; });
  });
  connect(a3_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    const QSignalBlocker block(a3Slider_);
    a3Slider_->setValue(static_cast<int>(std::lround(v)));
    apply([v](oct::OctParams& p) { p.a3 = v; });
  });
  const auto depthApplies = [this](QDoubleSpinBox* box, bool start) {
    connect(box, &QDoubleSpinBox::valueChanged, this, [this, start](double mm) {
      const oct::OctAcquisition* acq = oct::acquisitionOf(controller_.engine());
      if (acq == nullptr) {
        return;
      }
      apply([&](oct::OctParams& p) {
        const double pixel = acq->axialPixelInAirM() / p.refractiveIndex;
        const int index = static_cast<int>(std::lround(mm * 1e-3 / pixel));
        (start ? p.depthFirst : p.depthLast) = index;
      });
    });
  };
  depthApplies(depthStart_, true);
  depthApplies(depthEnd_, false);
  connect(refractiveIndex_, &QDoubleSpinBox::valueChanged, this,
          [this](double n) { apply([n](oct::OctParams& p) { p.refractiveIndex = n; }); });
  connect(autoDispersion_, &QPushButton::clicked, this, [this] { autoDispersion(); });
  connect(captureReference_, &QPushButton::clicked, this, [this] { captureReference(); });
  connect(&controller_, &EngineController::sourceOpened, this, &OctPanel::onSourceOpened);
  hide();  // until an OCT source is open
}

void OctPanel::editKLinearisation() {
  const auto kind = static_cast<oct::KLinearisation>(kLinearisation_->currentData().toInt());
  if (kind == oct::KLinearisation::Table) {
    const QString path = askOpenFile(this, file_kinds::kTables, tr("k-linearisation table"),
                                     tr("Resampling tables (*.txt *.csv *.dat);;All files (*)"));
    if (path.isEmpty()) {
      load();  // the choice goes back to what is in effect
    } else {
      loadKTable(path);
    }
  } else if (kind == oct::KLinearisation::Polynomial) {
    const oct::OctParams p = oct::paramsOf(controller_.engine());
    QStringList current;
    for (const double c : p.kPolynomial) {
      current << QString::number(c, 'g', 12);
    }
    bool accepted = false;
    const QString text = QInputDialog::getText(
        this, tr("k-linearisation polynomial"),
        tr("Raw sample index = c0 + c1 j + c2 j² + c3 j³ for output sample j.\nc0, c1, c2, c3:"),
        QLineEdit::Normal, current.isEmpty() ? QStringLiteral("0, 1, 0, 0") : current.join(", "),
        &accepted);
    if (accepted) {
      setKPolynomial(text);
    } else {
      load();
    }
  }
}

bool OctPanel::loadKTable(const QString& path) {
  const oct::OctAcquisition* acq = oct::acquisitionOf(controller_.engine());
  if (acq == nullptr) {
    return false;
  }
  std::vector<float> table;
  try {
    table = oct::readKTable(path.toStdString(), acq->samples);
  } catch (const std::exception& error) {
    load();
    showMessage(QString::fromUtf8(error.what()), true);
    return false;
  }
  if (!applyKLinearisation([&](oct::OctParams& p) {
        p.kLinearisation = oct::KLinearisation::Table;
        p.kTable = std::move(table);
      })) {
    return false;
  }
  showMessage(tr("k-linearisation table from %1.").arg(QFileInfo(path).fileName()), false);
  return true;
}

bool OctPanel::setKPolynomial(const QString& text) {
  std::vector<double> coefficients;
  try {
    coefficients = oct::parseKPolynomial(text.toStdString());
  } catch (const std::exception& error) {
    load();
    showMessage(QString::fromUtf8(error.what()), true);
    return false;
  }
  return applyKLinearisation([&](oct::OctParams& p) {
    p.kLinearisation = oct::KLinearisation::Polynomial;
    p.kPolynomial = std::move(coefficients);
  });
}

template <class Change>
bool OctPanel::applyKLinearisation(Change change) {
  apply(change);
  const bool applied = message_->isHidden();
  load();
  return applied;
}

QString OctPanel::message() const {
  return message_->isHidden() ? QString() : message_->text();
}

void OctPanel::onSourceOpened() {
  const bool oct = oct::acquisitionOf(controller_.engine()) != nullptr;
  setVisible(oct);
  if (oct) {
    load();
    message_->hide();
  }
}

void OctPanel::load() {
  const oct::OctAcquisition* acq = oct::acquisitionOf(controller_.engine());
  if (acq == nullptr) {
    return;
  }
  const oct::OctParams p = oct::paramsOf(controller_.engine());
  loading_ = true;
  selectData(background_, static_cast<int>(p.background));
  selectData(kLinearisation_, static_cast<int>(p.kLinearisation));
  editKLinearisation_->setEnabled(p.kLinearisation == oct::KLinearisation::Table ||
                                  p.kLinearisation == oct::KLinearisation::Polynomial);
  selectData(interpolation_, static_cast<int>(p.interpolation));
  selectData(window_, static_cast<int>(p.window));
  a2_->setValue(p.a2);
  a3_->setValue(p.a3);
  a2Slider_->setValue(static_cast<int>(std::lround(p.a2)));
  a3Slider_->setValue(static_cast<int>(std::lround(p.a3)));
  const double pixelMm = acq->axialPixelInAirM() / p.refractiveIndex * 1e3;
  const double maxMm = acq->samples / 2 * pixelMm;
  for (QDoubleSpinBox* box : {depthStart_, depthEnd_}) {
    box->setRange(0.0, maxMm);
    box->setSingleStep(std::max(0.001, 10 * pixelMm));
  }
  depthStart_->setValue(p.depthFirst * pixelMm);
  depthEnd_->setValue(p.lastDepth(*acq) * pixelMm);
  refractiveIndex_->setValue(p.refractiveIndex);
  loading_ = false;
}

template <class Change>
void OctPanel::apply(Change change) {
  if (loading_ || oct::acquisitionOf(controller_.engine()) == nullptr) {
    return;
  }
  oct::OctParams params = oct::paramsOf(controller_.engine());
  change(params);
  const QString error = controller_.setSettings(oct::makeSettings(std::move(params)));
  if (error.isEmpty()) {
    message_->hide();
    return;
  }
  load();  // show what is in effect
  showMessage(error, true);
}

void OctPanel::showMessage(const QString& text, bool isError) {
  message_->setStyleSheet(isError ? QString::fromLatin1(kErrorStyle) : QString());
  message_->setText(text);
  message_->show();
}

bool OctPanel::takeBscan(std::vector<std::uint16_t>& bscan) {
  std::vector<std::byte> bytes;
  acquire::FrameHeader header;
  if (!controller_.engine().snapshotRaw(bytes, header, kSnapshotTimeout)) {
    showMessage(tr("No live B-scan: start acquiring first."), true);
    return false;
  }
  bscan.resize(bytes.size() / sizeof(std::uint16_t));
  std::memcpy(bscan.data(), bytes.data(), bscan.size() * sizeof(std::uint16_t));
  return true;
}

bool OctPanel::autoDispersion() {
  const oct::OctAcquisition* acq = oct::acquisitionOf(controller_.engine());
  std::vector<std::uint16_t> bscan;
  if (acq == nullptr || !takeBscan(bscan)) {
    return false;
  }
  QApplication::setOverrideCursor(Qt::WaitCursor);
  oct::DispersionEstimate estimate;
  try {
    estimate =
        oct::searchDispersion(*acq, oct::paramsOf(controller_.engine()), bscan, kA2Range, kA3Range);
  } catch (const std::exception& error) {
    QApplication::restoreOverrideCursor();
    showMessage(tr("Auto dispersion failed: %1").arg(QString::fromUtf8(error.what())), true);
    return false;
  }
  QApplication::restoreOverrideCursor();
  apply([&](oct::OctParams& p) {
    p.a2 = estimate.a2;
    p.a3 = estimate.a3;
  });
  load();
  showMessage(tr("Sharpest at a2 = %1 rad, a3 = %2 rad.")
                  .arg(estimate.a2, 0, 'f', 1)
                  .arg(estimate.a3, 0, 'f', 1),
              false);
  return true;
}

bool OctPanel::captureReference() {
  const oct::OctAcquisition* acq = oct::acquisitionOf(controller_.engine());
  std::vector<std::uint16_t> bscan;
  if (acq == nullptr || !takeBscan(bscan)) {
    return false;
  }
  std::vector<float> reference(static_cast<std::size_t>(acq->samples));
  oct::cpu::meanSpectrum(bscan.data(), acq->imagedAscans(), acq->samples, reference.data());
  apply([&](oct::OctParams& p) {
    p.background = oct::Background::Reference;
    p.reference = std::move(reference);
  });
  load();
  showMessage(tr("Reference spectrum captured from the live B-scan."), false);
  return true;
}

}  // namespace cineflow::ui
