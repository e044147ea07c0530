#include "shell/save_preset_dialog.hpp"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include "shell/preset_files.hpp"

namespace cineflow::ui {

SavePresetDialog::SavePresetDialog(const QString& holds, std::vector<Preset> presets,
                                   QWidget* parent)
    : QDialog(parent), presets_(std::move(presets)) {
  setWindowTitle(tr("Save as preset"));
  setObjectName(QStringLiteral("savePresetDialog"));
  auto* layout = new QVBoxLayout(this);
  auto* what = new QLabel(holds, this);
  what->setObjectName(QStringLiteral("presetHoldsLabel"));
  what->setWordWrap(true);
  layout->addWidget(what);
  name_ = new QLineEdit(this);
  name_->setObjectName(QStringLiteral("presetNameEdit"));
  name_->setPlaceholderText(tr("Name, e.g. Carotid (L7-4)"));
  layout->addWidget(name_);
  refusal_ = new QLabel(this);
  refusal_->setObjectName(QStringLiteral("presetNameRefusal"));
  refusal_->setStyleSheet(QStringLiteral("color: #c0392b"));
  layout->addWidget(refusal_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
  save_ = buttons->button(QDialogButtonBox::Save);
  connect(buttons, &QDialogButtonBox::accepted, this, &SavePresetDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  connect(name_, &QLineEdit::textChanged, this, &SavePresetDialog::checkName);
  checkName();
  setMinimumWidth(380);
}

QString SavePresetDialog::name() const {
  return name_->text().trimmed();
}

void SavePresetDialog::checkName() {
  const QString refusal = presetNameRefusal(name());
  save_->setEnabled(refusal.isEmpty());
  // Nothing typed yet is not an error worth a red line: Save is simply off.
  refusal_->setText(name_->text().isEmpty() ? QString() : refusal);
  refusal_->setVisible(!refusal_->text().isEmpty());
}

void SavePresetDialog::accept() {
  if (!presetNameRefusal(name()).isEmpty()) {
    return;  // Enter in the field while Save is off
  }
  if (const Preset* own = ownPresetNamed(presets_, name())) {
    const auto answer = QMessageBox::question(
        this, tr("Replace preset"),
        tr("You already have a preset called \"%1\" (%2). Replace it?").arg(own->name, own->origin),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) {
      return;
    }
  }
  QDialog::accept();
}

}  // namespace cineflow::ui
