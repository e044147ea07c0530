#include "acquisition/igtl_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>

#include "bridge/engine_controller.hpp"
#include "common/app_settings.hpp"

namespace cineflow::ui {
namespace {

constexpr int kDefaultPort = 18944;  // OpenIGTLink's registered port

}  // namespace

IgtlPanel::IgtlPanel(EngineController& controller, QWidget* parent)
    : QGroupBox(tr("OpenIGTLink"), parent), controller_(controller) {
  setObjectName(QStringLiteral("igtlPanel"));
  setCheckable(true);
  setChecked(false);
  setToolTip(
      tr("Serve the live image to 3D Slicer (OpenIGTLinkIF), PLUS or MITK: each client "
         "gets the newest image in millimetres, the newest volume when it asks, and the "
         "imaging state"));
  const auto settings = openAppSettings();
  port_ = new QSpinBox(this);
  port_->setObjectName(QStringLiteral("igtlPort"));
  port_->setRange(1, 65535);
  port_->setValue(settings->value(settings_keys::kIgtlPort, kDefaultPort).toInt());
  pixels_ = new QComboBox(this);
  pixels_->setObjectName(QStringLiteral("igtlPixels"));
  pixels_->addItem(tr("8-bit, as displayed"), static_cast<int>(link::LinkPixels::Display8));
  pixels_->addItem(tr("Float dB, as computed"), static_cast<int>(link::LinkPixels::FloatDb));
  pixels_->setCurrentIndex(settings->value(settings_keys::kIgtlPixels, 0).toInt() == 1 ? 1 : 0);
  localOnly_ = new QCheckBox(tr("This machine only"), this);
  localOnly_->setObjectName(QStringLiteral("igtlLocalOnly"));
  localOnly_->setToolTip(tr("Listen on 127.0.0.1: only programs on this computer can connect"));
  localOnly_->setChecked(settings->value(settings_keys::kIgtlLocalOnly, false).toBool());
  status_ = new QLabel(tr("Not serving"), this);
  status_->setObjectName(QStringLiteral("igtlStatus"));
  status_->setWordWrap(true);

  auto* layout = new QFormLayout(this);
  layout->addRow(tr("Port"), port_);
  layout->addRow(tr("Pixels"), pixels_);
  layout->addRow(QString(), localOnly_);
  layout->addRow(status_);

  connect(this, &QGroupBox::toggled, this, &IgtlPanel::apply);
  connect(port_, &QSpinBox::editingFinished, this, [this] {
    if (serving() && controller_.igtlServer()->port() != port_->value()) {
      apply();
    }
  });
  connect(localOnly_, &QCheckBox::toggled, this, [this] {
    if (serving()) {
      apply();
    }
  });
  connect(pixels_, &QComboBox::currentIndexChanged, this, [this] {
    controller_.setIgtlPixels(static_cast<link::LinkPixels>(pixels_->currentData().toInt()));
    openAppSettings()->setValue(settings_keys::kIgtlPixels, pixels_->currentIndex());
  });
  auto* timer = new QTimer(this);
  timer->setInterval(1000);
  connect(timer, &QTimer::timeout, this, &IgtlPanel::showStats);
  timer->start();
}

bool IgtlPanel::serving() const {
  return controller_.igtlServer() != nullptr;
}

QString IgtlPanel::statusText() const {
  return status_->text();
}

QString IgtlPanel::serve(int port, link::LinkPixels pixels, bool thisMachineOnly) {
  {
    const QSignalBlocker blocker(this);
    port_->setValue(port);
    pixels_->setCurrentIndex(pixels == link::LinkPixels::FloatDb ? 1 : 0);
    localOnly_->setChecked(thisMachineOnly);
    setChecked(true);
  }
  apply();
  return serving() ? QString() : status_->text();
}

void IgtlPanel::apply() {
  if (applying_) {
    return;
  }
  applying_ = true;
  if (!isChecked()) {
    controller_.stopIgtlServer();
    status_->setText(tr("Not serving"));
    applying_ = false;
    return;
  }
  link::IgtlServerOptions options;
  options.port = port_->value();
  options.bindAddress = localOnly_->isChecked() ? "127.0.0.1" : "0.0.0.0";
  options.pixels = static_cast<link::LinkPixels>(pixels_->currentData().toInt());
  const QString problem = controller_.startIgtlServer(options);
  const auto settings = openAppSettings();
  settings->setValue(settings_keys::kIgtlPort, port_->value());
  settings->setValue(settings_keys::kIgtlLocalOnly, localOnly_->isChecked());
  if (!problem.isEmpty()) {
    setChecked(false);
    status_->setText(tr("Not serving: %1").arg(problem));
    emit messageReady(problem, true);
  } else {
    showStats();
    emit messageReady(tr("OpenIGTLink: serving images on port %1").arg(port_->value()), false);
  }
  applying_ = false;
}

void IgtlPanel::showStats() {
  const link::IgtlServer* server = controller_.igtlServer();
  if (server == nullptr) {
    return;
  }
  const link::IgtlServerStats stats = server->stats();
  QString text =
      tr("Serving on %1:%2 · %3")
          .arg(QString::fromStdString(server->options().bindAddress))
          .arg(server->port())
          .arg(stats.clients == 1 ? tr("1 client") : tr("%1 clients").arg(stats.clients));
  text += tr(" · %1 images sent").arg(stats.imagesSent);
  if (stats.skipped > 0) {
    text += tr(" · %1 skipped by slow clients").arg(stats.skipped);
  }
  status_->setText(text);
}

}  // namespace cineflow::ui
