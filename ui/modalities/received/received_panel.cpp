#include "modalities/received/received_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>

#include "bridge/engine_controller.hpp"
#include "received/received_modality.hpp"

namespace cineflow::ui {
namespace {

const char* const kErrorStyle = "color: #e0605a;";

QDoubleSpinBox* makeLevelBox(QWidget* parent, const char* name, const QString& tip) {
  auto* box = new QDoubleSpinBox(parent);
  box->setObjectName(QString::fromLatin1(name));
  box->setRange(-1e9, 1e9);
  box->setDecimals(1);
  box->setKeyboardTracking(false);  // applies on Return or focus change, not per keystroke
  box->setToolTip(tip);
  return box;
}

}  // namespace

ReceivedPanel::ReceivedPanel(EngineController& controller, QWidget* parent)
    : QGroupBox(tr("Received images"), parent), controller_(controller) {
  setObjectName(QStringLiteral("receivedPanel"));
  auto* layout = new QFormLayout(this);
  what_ = new QLabel(this);
  what_->setObjectName(QStringLiteral("receivedWhat"));
  what_->setWordWrap(true);
  layout->addRow(what_);
  mapping_ = new QComboBox(this);
  mapping_->setObjectName(QStringLiteral("receivedMapping"));
  mapping_->addItem(tr("Pixel levels"), false);
  mapping_->addItem(tr("Values are dB"), true);
  mapping_->setToolTip(
      tr("How pixel values become the displayed image: between a black and a white level, or "
         "as decibels (float images that are dB already)"));
  layout->addRow(tr("Mapping"), mapping_);
  black_ = makeLevelBox(this, "receivedBlack",
                        tr("The pixel value shown black at the display's default range (-60 dB)"));
  white_ = makeLevelBox(this, "receivedWhite", tr("The pixel value shown at 0 dB"));
  layout->addRow(tr("Black level"), black_);
  layout->addRow(tr("White level"), white_);
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("receivedMessage"));
  message_->setWordWrap(true);
  message_->setStyleSheet(QString::fromLatin1(kErrorStyle));
  message_->hide();
  layout->addRow(message_);

  connect(mapping_, &QComboBox::currentIndexChanged, this, [this] { applyControls(); });
  connect(black_, &QDoubleSpinBox::valueChanged, this, [this] { applyControls(); });
  connect(white_, &QDoubleSpinBox::valueChanged, this, [this] { applyControls(); });
  connect(&controller_, &EngineController::sourceOpened, this, [this] { onSourceOpened(); });
  connect(&controller_, &EngineController::settingsChanged, this, [this] {
    if (isVisible()) {
      load();
    }
  });
  hide();
}

received::ReceivedLevels ReceivedPanel::levels() const {
  const received::ReceivedSource* source = received::asReceived(controller_.engine().source());
  const auto settings = controller_.engine().settings();
  if (settings != nullptr && &settings->modality() == &received::receivedModality()) {
    return received::requireLevels(*settings);
  }
  if (source == nullptr) {
    return {};
  }
  // None set yet: what the engine will start from, the modality's defaults for this source.
  return received::requireLevels(*received::receivedModality().defaultSettings(*source));
}

void ReceivedPanel::onSourceOpened() {
  const received::ReceivedSource* source = received::asReceived(controller_.engine().source());
  setVisible(source != nullptr);
  if (source != nullptr) {
    message_->hide();
    load();
  }
}

void ReceivedPanel::load() {
  const received::ReceivedSource* source = received::asReceived(controller_.engine().source());
  if (source == nullptr) {
    return;
  }
  const received::ReceivedFormat& format = source->format();
  what_->setText(
      tr("%1: %2 x %3 %4, %5 x %6 mm pixels. Display-only: shown, measured and recorded as "
         "they arrive.")
          .arg(format.device.empty() ? tr("Images") : QString::fromStdString(format.device))
          .arg(format.cols)
          .arg(format.rows)
          .arg(QString::fromLatin1(received::toString(format.pixel)))
          .arg(format.dxM * 1e3, 0, 'g', 4)
          .arg(format.dzM * 1e3, 0, 'g', 4));
  const received::ReceivedLevels l = levels();
  loading_ = true;
  mapping_->setCurrentIndex(l.asDb ? 1 : 0);
  black_->setValue(l.black);
  white_->setValue(l.white);
  black_->setEnabled(!l.asDb);
  white_->setEnabled(!l.asDb);
  loading_ = false;
}

QString ReceivedPanel::apply(const received::ReceivedLevels& levels) {
  const QString error = controller_.setSettings(received::makeSettings(levels));
  load();
  message_->setText(error);
  message_->setVisible(!error.isEmpty());
  return error;
}

void ReceivedPanel::applyControls() {
  if (loading_ || received::asReceived(controller_.engine().source()) == nullptr) {
    return;
  }
  received::ReceivedLevels l;
  l.asDb = mapping_->currentData().toBool();
  l.black = black_->value();
  l.white = white_->value();
  apply(l);
}

QString ReceivedPanel::message() const {
  return message_->isHidden() ? QString() : message_->text();
}

}  // namespace cineflow::ui
