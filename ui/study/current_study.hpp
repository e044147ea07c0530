#pragma once
// CurrentStudy: the patient and the study being scanned (store/study_info.hpp), entered through
// File > Patient and study… before scanning. Every export made while it is current carries it:
// DICOM exports their Patient and Study modules and the study's one UID, HDF5 files their /study
// group. It lives in memory only: patient data is never written to the settings file, and the
// next session starts with no patient.
//
// GUI thread only.

#include <optional>

#include <QObject>
#include <QString>

#include "store/study_info.hpp"

namespace cineflow::ui {

class CurrentStudy : public QObject {
  Q_OBJECT

 public:
  explicit CurrentStudy(QObject* parent = nullptr) : QObject(parent) {}

  // None: no patient (exports are anonymous and HDF5 files have no /study).
  const std::optional<store::StudyInfo>& study() const { return study_; }

  // Makes `study` current. A study without its UID, date and time gets them now (a new study);
  // one without any entry ends the study instead. The caller has checked it (studyProblem()).
  void begin(store::StudyInfo study);
  // No patient from now on.
  void end();

  // "Smith^John · ID 12345" for the status bar and the window title; "No patient" when none.
  QString summary() const;
  static QString summaryOf(const std::optional<store::StudyInfo>& study);

 signals:
  void changed();

 private:
  std::optional<store::StudyInfo> study_;
};

// `current`'s study; none when it has none or is null (no study wired in).
inline std::optional<store::StudyInfo> studyOf(const CurrentStudy* current) {
  return current != nullptr ? current->study() : std::nullopt;
}

}  // namespace cineflow::ui
