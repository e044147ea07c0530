#include "study/current_study.hpp"

#include <utility>

#include <QDateTime>

namespace cineflow::ui {

void CurrentStudy::begin(store::StudyInfo study) {
  if (!study.hasEntries()) {
    end();
    return;
  }
  if (study.studyInstanceUid.empty()) {
    const QDateTime now = QDateTime::currentDateTime();
    study.studyInstanceUid = store::newStudyInstanceUid();
    study.studyDate = now.toString(QStringLiteral("yyyyMMdd")).toStdString();
    study.studyTime = now.toString(QStringLiteral("HHmmss")).toStdString();
  }
  if (study_ != study) {
    study_ = std::move(study);
    emit changed();
  }
}

void CurrentStudy::end() {
  if (study_) {
    study_.reset();
    emit changed();
  }
}

QString CurrentStudy::summary() const {
  return summaryOf(study_);
}

QString CurrentStudy::summaryOf(const std::optional<store::StudyInfo>& study) {
  if (!study) {
    return tr("No patient");
  }
  const QString name = QString::fromStdString(study->patientName);
  const QString id = QString::fromStdString(study->patientId);
  if (name.isEmpty() && id.isEmpty()) {
    const QString description = QString::fromStdString(study->studyDescription);
    return description.isEmpty() ? tr("Unnamed patient")
                                 : tr("Unnamed patient · %1").arg(description);
  }
  if (id.isEmpty()) {
    return name;
  }
  return name.isEmpty() ? tr("ID %1").arg(id) : tr("%1 · ID %2").arg(name, id);
}

}  // namespace cineflow::ui
