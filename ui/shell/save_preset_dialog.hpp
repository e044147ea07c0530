#pragma once
// Save as preset…: asks the name of the preset the operator is saving and says what it will hold
// (for which modality's sources). Save stays off while the name is empty or a shipped preset's,
// with the reason under the field; a name of one of the operator's own presets asks first whether
// to replace it.

#include <vector>

#include <QDialog>
#include <QString>

#include "shell/presets.hpp"

class QLabel;
class QLineEdit;
class QPushButton;

namespace cineflow::ui {

class SavePresetDialog : public QDialog {
  Q_OBJECT

 public:
  // `holds`: what the preset will hold, for the operator ("For ultrasound sources: …");
  // `presets`: those loaded now (whose own names ask before being replaced).
  SavePresetDialog(const QString& holds, std::vector<Preset> presets, QWidget* parent = nullptr);

  QString name() const;  // trimmed

  // For tests.
  QLineEdit& nameEdit() const { return *name_; }
  QPushButton& saveButton() const { return *save_; }
  const QLabel& refusal() const { return *refusal_; }

 private:
  void checkName();
  void accept() override;  // asks before replacing one of the operator's own presets

  std::vector<Preset> presets_;
  QLineEdit* name_ = nullptr;
  QLabel* refusal_ = nullptr;
  QPushButton* save_ = nullptr;
};

}  // namespace cineflow::ui
