#pragma once
// File > Patient and study…: the patient (name as Family^Given, ID, birth date, sex) and the study
// (accession number, description, referring physician, operator) entered before scanning, as on a
// clinical scanner. Fields are empty with their format as placeholder; what is typed is checked
// as it is typed against what DICOM can carry (the lengths of its Person Name, LO and SH values,
// a birth date that is a real day and not in the future), with the reason in place of OK while
// it cannot be taken. "New study" empties the form for the next patient (a new study UID when it
// is taken); "End study" closes it with no patient.

#include <optional>

#include <QDialog>
#include <QString>

#include "store/study_info.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace cineflow::ui {

class StudyDialog : public QDialog {
  Q_OBJECT

 public:
  // `current`: the study being scanned (its fields shown for editing), none for no patient.
  explicit StudyDialog(const std::optional<store::StudyInfo>& current, QWidget* parent = nullptr);

  // Once accepted: the study to make current (its UID kept while the form edits the same study,
  // empty for a new one), or none (End study, or every field left empty).
  std::optional<store::StudyInfo> study() const;
  // Why OK is disabled; empty when the form can be taken.
  QString problem() const { return problem_; }

 private:
  store::StudyInfo typed() const;  // the form as a study, without checks
  void newStudy();
  void update();

  store::StudyInfo kept_;  // the UID, date and time of the study being edited; empty: new
  bool ended_ = false;
  QString problem_;
  QLineEdit* patientName_ = nullptr;
  QLineEdit* patientId_ = nullptr;
  QLineEdit* birthDate_ = nullptr;
  QComboBox* sex_ = nullptr;
  QLineEdit* accession_ = nullptr;
  QLineEdit* description_ = nullptr;
  QLineEdit* referring_ = nullptr;
  QLineEdit* operator_ = nullptr;
  QLabel* state_ = nullptr;  // "New study" or the study's UID
  QLabel* problemLabel_ = nullptr;
  QPushButton* ok_ = nullptr;
};

}  // namespace cineflow::ui
