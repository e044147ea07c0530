#include "modalities/ultrasound/mat_import_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <stdexcept>

namespace cineflow::ui {
namespace {

struct Key {
  const char* key;
  const char* label;
  const char* tip;
};

const Key kKeys[] = {
    {"rf", "RF variable", "The variable holding the channel data"},
    {"order", "Dimension order",
     "Its dimensions as MATLAB stores them, first = fastest: samples, elements, and optionally "
     "transmits and frames"},
    {"fs", "Sampling frequency (Hz)", "A variable or struct field (param.fs), or a number"},
    {"f0", "Centre frequency (Hz)", "A variable or struct field, or a number"},
    {"c", "Sound speed (m/s)", "A variable or struct field, or a number"},
    {"t0", "t0 (s)", "Time of the first sample: a variable or struct field, or a number"},
    {"pitch", "Pitch (m)", "Element spacing: a variable or struct field, or a number"},
    {"angles", "Transmit angles",
     "A number (radians, every transmit), a variable with one angle per transmit, or "
     "delays:VAR, a [transmits x elements] matrix of transmit delays in seconds"},
    {"bandwidth", "Bandwidth (%)", "Fractional bandwidth in percent; empty when unknown"},
    {"elements", "Element count check",
     "A variable to check the RF's elements against; empty: none"},
};

// The mapping's value for `key`, as MatMapping::parse() reads it.
QString valueOf(const ultrasound::MatMapping& m, const QString& key) {
  const std::string text = m.toString();
  for (const QString& item : QString::fromStdString(text).split(';')) {
    if (item.startsWith(key + '=')) {
      return item.mid(key.size() + 1);
    }
  }
  return {};
}

}  // namespace

MatImportDialog::MatImportDialog(const ultrasound::MatMapping& mapping, const QString& path,
                                 QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Import MATLAB recording"));
  auto* layout = new QFormLayout(this);

  auto* fileRow = new QHBoxLayout;
  path_ = new QLineEdit(path, this);
  path_->setObjectName(QStringLiteral("matPath"));
  auto* browse = new QPushButton(tr("Browse…"), this);
  connect(browse, &QPushButton::clicked, this, &MatImportDialog::browse);
  fileRow->addWidget(path_, 1);
  fileRow->addWidget(browse);
  layout->addRow(tr("File"), fileRow);

  preset_ = new QComboBox(this);
  preset_->setObjectName(QStringLiteral("matPreset"));
  preset_->addItem(tr("Verasonics (as PyMUST stores it)"));
  preset_->addItem(tr("Last used"));
  preset_->setCurrentIndex(1);
  layout->addRow(tr("Preset"), preset_);

  for (const Key& key : kKeys) {
    auto* edit = new QLineEdit(valueOf(mapping, QString::fromLatin1(key.key)), this);
    edit->setObjectName(QStringLiteral("mat_") + QString::fromLatin1(key.key));
    edit->setToolTip(tr(key.tip));
    layout->addRow(tr(key.label), edit);
    fields_[QString::fromLatin1(key.key)] = edit;
  }
  connect(preset_, &QComboBox::currentIndexChanged, this, &MatImportDialog::applyPreset);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &MatImportDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addRow(buttons);
}

QString MatImportDialog::path() const {
  return path_->text().trimmed();
}

ultrasound::MatMapping MatImportDialog::mapping() const {
  std::string text;
  for (const auto& [key, edit] : fields_) {
    const QString value = edit->text().trimmed();
    if (value.contains(';') || value.contains('=')) {
      throw std::invalid_argument(key.toStdString() + ": '" + value.toStdString() +
                                  "' may not contain ';' or '='");
    }
    text += key.toStdString() + "=" + value.toStdString() + ";";
  }
  return ultrasound::MatMapping::parse(text);
}

void MatImportDialog::browse() {
  const QString chosen = QFileDialog::getOpenFileName(this, tr("MATLAB recording"), path(),
                                                      tr("MATLAB files (*.mat);;All files (*)"));
  if (!chosen.isEmpty()) {
    path_->setText(chosen);
  }
}

void MatImportDialog::applyPreset(int index) {
  if (index != 0) {
    return;  // "Last used" keeps the fields as they are
  }
  const ultrasound::MatMapping preset = ultrasound::MatMapping::verasonics();
  for (const auto& [key, edit] : fields_) {
    edit->setText(valueOf(preset, key));
  }
}

void MatImportDialog::accept() {
  if (path().isEmpty()) {
    QMessageBox::warning(this, windowTitle(), tr("Choose a .mat file first."));
    return;
  }
  try {
    (void)mapping();
  } catch (const std::invalid_argument& error) {
    QMessageBox::warning(
        this, windowTitle(),
        tr("The mapping is not valid: %1").arg(QString::fromStdString(error.what())));
    return;
  }
  QDialog::accept();
}

}  // namespace cineflow::ui
