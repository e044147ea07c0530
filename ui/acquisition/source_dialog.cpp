#include "acquisition/source_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "acquisition/plugin_parameter_form.hpp"

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
  list_->setMinimumWidth(220);
  connect(list_, &QListWidget::currentRowChanged, pages_, &QStackedWidget::setCurrentIndex);
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

QString SourceDialog::spec() const {
  const int row = list_->currentRow();
  if (row >= 0 && static_cast<std::size_t>(row) < forms_.size()) {
    return QString::fromStdString("plugin:" + listing_.plugins[row]->path().string() + "#" +
                                  forms_[row]->values());
  }
  return "zmq:" + endpoint_->text().trimmed();
}

}  // namespace cineflow::ui
