#pragma once
// File > Import MATLAB recording…: the operator picks a .mat file and says where its RF and
// acquisition parameters are (ultrasound::MatMapping), starting from a preset (the Verasonics
// layout as PyMUST stores it). The mapping is checked when the source opens; a wrong one is
// reported with the variable it names, and the dialog keeps the operator's last mapping for the
// next import.

#include <QDialog>
#include <QString>
#include <map>

#include "ultrasound/mat_import.hpp"

class QComboBox;
class QLineEdit;

namespace cineflow::ui {

class MatImportDialog : public QDialog {
  Q_OBJECT

 public:
  // Starts from `mapping` (the last one used) and `path` (may be empty).
  MatImportDialog(const ultrasound::MatMapping& mapping, const QString& path,
                  QWidget* parent = nullptr);

  QString path() const;
  // The mapping the fields describe. Throws std::invalid_argument naming the bad field.
  ultrasound::MatMapping mapping() const;

  // For tests: the field of a mapping key ("rf", "order", "fs", ...).
  QLineEdit& field(const QString& key) const { return *fields_.at(key); }

 private:
  void browse();
  void applyPreset(int index);
  void accept() override;  // refuses an empty path or a malformed mapping, with a message

  QLineEdit* path_ = nullptr;
  QComboBox* preset_ = nullptr;
  std::map<QString, QLineEdit*> fields_;
};

}  // namespace cineflow::ui
