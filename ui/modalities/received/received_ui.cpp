#include "modalities/received/received_ui.hpp"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QUrl>
#include <QWidget>

#include "bridge/engine_controller.hpp"
#include "common/app_settings.hpp"
#include "modalities/received/received_panel.hpp"
#include "modalities/received/received_presets.hpp"
#include "received/igtl_client_source.hpp"
#include "received/received_modality.hpp"

namespace cineflow::ui {
namespace {

class ReceivedPanels : public ModalityPanels {
 public:
  ReceivedPanels(EngineController& controller, QWidget& parent)
      : panel_(new ReceivedPanel(controller, &parent)) {}

  std::vector<QWidget*> widgets() const override { return {panel_}; }

  QString applyPreset(const PresetSection& section) override {
    const auto& preset = static_cast<const ReceivedPresetSection&>(section);
    return panel_->apply(preset.applied(panel_->levels()));
  }

  std::shared_ptr<const PresetSection> capturePreset() const override {
    return std::make_shared<ReceivedPresetSection>(
        ReceivedPresetSection::captured(panel_->levels()));
  }

 private:
  ReceivedPanel* panel_;  // owned by the dock's panel
};

// Asks for the OpenIGTLink server: host, port and (optional) image device. Returns the spec, or
// "" when cancelled.
QString askForServer(const QString& last, QWidget* parent) {
  received::IgtlEndpoint endpoint;
  endpoint.host = "127.0.0.1";
  try {
    endpoint = received::IgtlEndpoint::parse(last.toStdString());
  } catch (const acquire::SourceError&) {
    // None yet, or a damaged setting: the defaults.
  }
  QDialog dialog(parent);
  dialog.setObjectName(QStringLiteral("igtlSourceDialog"));
  dialog.setWindowTitle(QObject::tr("Receive from an OpenIGTLink server"));
  dialog.setMinimumWidth(460);
  auto* layout = new QFormLayout(&dialog);
  auto* intro = new QLabel(
      QObject::tr("Shows the IMAGE stream of an OpenIGTLink server (a PLUS server streaming a "
                  "scanner, another workstation), display-only: measured and recorded as it "
                  "arrives."),
      &dialog);
  intro->setWordWrap(true);
  layout->addRow(intro);
  auto* host = new QLineEdit(QString::fromStdString(endpoint.host), &dialog);
  host->setObjectName(QStringLiteral("igtlHost"));
  layout->addRow(QObject::tr("Host"), host);
  auto* port = new QSpinBox(&dialog);
  port->setObjectName(QStringLiteral("igtlSourcePort"));
  port->setRange(1, 65535);
  port->setValue(endpoint.port);
  layout->addRow(QObject::tr("Port"), port);
  auto* device = new QLineEdit(QString::fromStdString(endpoint.device), &dialog);
  device->setObjectName(QStringLiteral("igtlDevice"));
  device->setMaxLength(20);
  device->setPlaceholderText(QObject::tr("any (the first image device that sends)"));
  layout->addRow(QObject::tr("Image device"), device);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  buttons->button(QDialogButtonBox::Ok)->setText(QObject::tr("Connect"));
  layout->addRow(buttons);
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  QObject::connect(host, &QLineEdit::textChanged, &dialog, [host, buttons] {
    buttons->button(QDialogButtonBox::Ok)->setEnabled(!host->text().trimmed().isEmpty());
  });
  if (dialog.exec() != QDialog::Accepted) {
    return {};
  }
  QString spec = QString::fromLatin1(received::kIgtlScheme) + host->text().trimmed() + ":" +
                 QString::number(port->value());
  if (!device->text().trimmed().isEmpty()) {
    spec += "#" + device->text().trimmed();
  }
  return spec;
}

}  // namespace

QString ReceivedUi::name() const {
  return ReceivedPresets().name();
}

std::vector<SourceButton> ReceivedUi::sourceButtons() const {
  return {{QStringLiteral("igtlSourceButton"), QObject::tr("OpenIGTLink…"),
           QObject::tr("Show the images an OpenIGTLink server streams (a PLUS server, a "
                       "scanner's research interface), display-only"),
           QString::fromLatin1(received::kIgtlScheme)}};
}

std::unique_ptr<ModalityPanels> ReceivedUi::createPanels(EngineController& controller,
                                                         QWidget& parent) const {
  return std::make_unique<ReceivedPanels>(controller, parent);
}

bool ReceivedUi::takeOpenRequest(const QString& spec, EngineController& controller,
                                 QWidget* parent) const {
  if (spec != QLatin1String(received::kIgtlScheme)) {
    return false;  // a whole igtl:// spec opens as it is
  }
  const auto settings = openAppSettings();
  const QString chosen =
      askForServer(settings->value(settings_keys::kIgtlSource).toString(), parent);
  if (!chosen.isEmpty()) {
    settings->setValue(settings_keys::kIgtlSource, chosen);
    controller.open(chosen);
  }
  return true;
}

}  // namespace cineflow::ui
