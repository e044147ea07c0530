#include "acquisition/source_dialog.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "acquire/genicam_camera.hpp"
#include "acquisition/plugin_parameter_form.hpp"
#include "common/file_dialogs.hpp"

namespace cineflow::ui {
namespace {

QLabel* wrapped(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

QString folderList() {
  QStringList folders;
  for (const auto& folder : acquire::pluginFolders()) {
    folders << QString::fromStdString(folder.string());
  }
  return folders.join(QStringLiteral(", "));
}

}  // namespace

SourceDialog::SourceDialog(QWidget* parent)
    : QDialog(parent), listing_(acquire::discoverPlugins()) {
  setWindowTitle(tr("Lab source"));
  setObjectName(QStringLiteral("sourceDialog"));
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("sourceList"));
  pages_ = new QStackedWidget(this);
  for (const auto& plugin : listing_.plugins) {
    auto* item = new QListWidgetItem(QString::fromStdString(plugin->name()), list_);
    item->setToolTip(QString::fromStdString(plugin->path().string()));
    auto* page = new QWidget(pages_);
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(wrapped(
        QString::fromUtf8(plugin->table().summary != nullptr ? plugin->table().summary : ""),
        page));
    auto* form = new PluginParameterForm(plugin->parameters(), page);
    layout->addWidget(form);
    layout->addStretch(1);
    layout->addWidget(
        wrapped(tr("Plugin: %1").arg(QString::fromStdString(plugin->path().string())), page));
    forms_.push_back(form);
    pages_->addWidget(page);
  }
  new QListWidgetItem(tr("Network stream (ZeroMQ)"), list_);
  pages_->addWidget(createNetworkPage());
  new QListWidgetItem(tr("GenICam camera (OCT)"), list_);
  pages_->addWidget(createCameraPage());
  list_->setMinimumWidth(220);
  connect(list_, &QListWidget::currentRowChanged, pages_, &QStackedWidget::setCurrentIndex);
  connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row == cameraRow() && !camerasListed_) {
      listCameras();  // on first sight: a discovery takes about a second
    }
  });
  list_->setCurrentRow(0);

  auto* columns = new QHBoxLayout;
  columns->addWidget(list_);
  columns->addWidget(pages_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(columns, 1);
  QString found = tr("Plugins are looked for in %1.").arg(folderList());
  if (!listing_.refused.empty()) {
    QStringList refused;
    for (const std::string& line : listing_.refused) {
      refused << QString::fromStdString(line);
    }
    found += "\n" + tr("Not loaded: %1").arg(refused.join(QStringLiteral("\n")));
  }
  auto* folders = wrapped(found, this);
  folders->setObjectName(QStringLiteral("pluginFolders"));
  layout->addWidget(folders);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(760, 460);
}

QWidget* SourceDialog::createNetworkPage() {
  auto* page = new QWidget(pages_);
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(wrapped(
      tr("Frames pushed by an acquisition script or another machine over ZeroMQ (the "
         "cineflow.stream/1 messages: a JSON header, then frames with sequence numbers). Cineflow "
         "listens here and waits for the sender's header. tools/send_frames.py streams a "
         "recording this way."),
      page));
  auto* form = new QFormLayout;
  endpoint_ = new QLineEdit(QStringLiteral("tcp://*:5555"), page);
  endpoint_->setObjectName(QStringLiteral("streamEndpoint"));
  endpoint_->setToolTip(
      tr("A ZeroMQ endpoint: tcp://*:5555 listens on every interface, "
         "tcp://127.0.0.1:5555 on this machine only"));
  form->addRow(tr("Listen on"), endpoint_);
  layout->addLayout(form);
  layout->addStretch(1);
  return page;
}

QWidget* SourceDialog::createCameraPage() {
  auto* page = new QWidget(pages_);
  auto* layout = new QVBoxLayout(page);
  layout->addWidget(wrapped(
      tr("A spectrometer's line-scan camera read through GenICam (GigE Vision, USB3 Vision): one "
         "camera buffer is one B-scan, its width the spectrometer's pixels, its height the "
         "A-scans. The description (JSON) states the wavelengths and the scan, and the camera "
         "features to set: pixel format, exposure, line rate, trigger (manual: Plugins and "
         "streaming, GenICam cameras). cineflow cameras ID says what a camera offers."),
      page));
  auto* form = new QFormLayout;
  auto* row = new QHBoxLayout;
  cameras_ = new QComboBox(page);
  cameras_->setObjectName(QStringLiteral("cameraList"));
  cameras_->setMinimumContentsLength(28);
  row->addWidget(cameras_, 1);
  auto* refresh = new QPushButton(tr("Look again"), page);
  refresh->setObjectName(QStringLiteral("cameraRefresh"));
  connect(refresh, &QPushButton::clicked, this, [this] { listCameras(); });
  row->addWidget(refresh);
  form->addRow(tr("Camera"), row);
  auto* descriptionRow = new QHBoxLayout;
  description_ = new QLineEdit(page);
  description_->setObjectName(QStringLiteral("cameraDescription"));
  description_->setPlaceholderText(tr("spectrometer.json"));
  descriptionRow->addWidget(description_, 1);
  auto* browse = new QPushButton(tr("Choose…"), page);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path = askOpenFile(this, file_kinds::kTables, tr("Camera description"),
                                     tr("JSON description (*.json)"));
    if (!path.isEmpty()) {
      description_->setText(path);
    }
  });
  descriptionRow->addWidget(browse);
  form->addRow(tr("Description"), descriptionRow);
  layout->addLayout(form);
  cameraStatus_ = wrapped(QString(), page);
  cameraStatus_->setObjectName(QStringLiteral("cameraStatus"));
  layout->addWidget(cameraStatus_);
  layout->addStretch(1);
  return page;
}

int SourceDialog::cameraRow() const {
  return static_cast<int>(forms_.size()) + 1;  // after the plugins and the network stream
}

void SourceDialog::listCameras() {
  cameraStatus_->setText(tr("Looking for cameras…"));
  QApplication::setOverrideCursor(Qt::WaitCursor);
  QApplication::processEvents();
  const std::vector<acquire::CameraInfo> found = acquire::listCameras();
  QApplication::restoreOverrideCursor();
  camerasListed_ = true;
  cameras_->clear();
  for (const acquire::CameraInfo& camera : found) {
    cameras_->addItem(QString::fromStdString(camera.id + "  (" + camera.vendor + " " +
                                             camera.model + ", " + camera.address + ")"),
                      QString::fromStdString(camera.id));
  }
  cameraStatus_->setText(
      found.empty() ? tr("No camera found: is it powered, on this computer's network or USB, and "
                         "not open in another program?")
                    : tr("%n camera(s) found.", nullptr, static_cast<int>(found.size())));
}

QString SourceDialog::spec() const {
  const int row = list_->currentRow();
  if (row == cameraRow()) {
    return QStringLiteral("genicam://") + cameras_->currentData().toString() + "#" +
           description_->text().trimmed();
  }
  if (row >= 0 && static_cast<std::size_t>(row) < forms_.size()) {
    return QString::fromStdString("plugin:" + listing_.plugins[row]->path().string() + "#" +
                                  forms_[row]->values());
  }
  return "zmq:" + endpoint_->text().trimmed();
}

}  // namespace cineflow::ui
