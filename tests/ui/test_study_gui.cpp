// Patient and study entry as an operator coming from a clinical scanner uses it (simulator, CPU
// backend, under Xvfb): File > Patient and study… (Ctrl+Shift+P) refuses what DICOM cannot carry
// with the reason, takes a full study, and the status bar and title name the patient. Then every
// export carries it: the cineloop's DICOM (its dialog pre-filled; Patient, General Study and
// General Series modules; one study UID across exports; dciodvfy clean), a saved volume's /study
// (kept when the volume is opened and saved again after the study ended), the cineloop's HDF5
// export and a raw recording. With the study ended, exports are anonymous, still dciodvfy clean,
// and HDF5 files have no /study.
#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <functional>

#include <hdf5.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#include "dcmtk/config/osconfig.h"
#include "dcmtk/dcmdata/dctk.h"
#pragma GCC diagnostic pop

#include "acquisition/raw_recording.hpp"
#include "bridge/engine_controller.hpp"
#include "cineloop/cineloop_panel.hpp"
#include "dciodvfy.hpp"
#include "export/cineloop_export.hpp"
#include "shell/main_window.hpp"
#include "sim_window.hpp"
#include "store/hdf5_handle.hpp"
#include "store/volume_reader.hpp"
#include "study/current_study.hpp"
#include "volumes/volume_controller.hpp"

using namespace cineflow;
using test::dciodvfyFindings;

namespace {

constexpr int kTimeoutMs = 120'000;

// Runs `act` on the next modal dialog named `name` once it is shown (a modal dialog's exec() does
// not return to the test until it closes).
void whenDialogOpens(const QString& name, std::function<void(QDialog&)> act) {
  auto* timer = new QTimer;
  timer->setInterval(20);
  QObject::connect(timer, &QTimer::timeout, [timer, name, act] {
    auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
    if (dialog == nullptr || dialog->objectName() != name) {
      return;
    }
    timer->stop();
    timer->deleteLater();
    act(*dialog);
  });
  timer->start();
}

template <class T>
T* child(QWidget& parent, const char* name) {
  return parent.findChild<T*>(QLatin1String(name));
}

// The file's /study attribute `name`; "<no /study>" when the group is missing.
std::string studyField(const QString& path, const char* name) {
  const hid_t file = H5Fopen(path.toLocal8Bit().constData(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) {
    return "<cannot open>";
  }
  std::string value = "<no /study>";
  if (H5Lexists(file, "study", H5P_DEFAULT) > 0) {
    const hid_t group = H5Gopen2(file, "study", H5P_DEFAULT);
    value = store::readStringAttribute(group, name);
    H5Gclose(group);
  }
  H5Fclose(file);
  return value;
}

QString dicomText(DcmDataset& data, const DcmTagKey& tag) {
  OFString value;
  data.findAndGetOFStringArray(tag, value);
  return QString::fromUtf8(value.c_str());
}

}  // namespace

class TestStudyGui : public QObject {
  Q_OBJECT

  std::unique_ptr<ui::MainWindow> window_;
  QTemporaryDir folder_;
  std::string uid_;  // the study's, once entered

  QString path(const QString& name) const { return QDir(folder_.path()).filePath(name); }
  QString statusText() const {
    return window_->findChild<QLabel*>(QStringLiteral("studyLabel"))->text();
  }

  // Exports the cineloop as `format` into `target`; the outcome's message, empty when it failed.
  bool exportCineloop(ui::CineloopExportFormat format, const QString& target) {
    ui::CineloopPanel& cineloop = window_->cineloopPanel();
    QSignalSpy finished(&cineloop, &ui::CineloopPanel::exportFinished);
    if (!cineloop.startExport(cineloop.exportRequest(format, target))) {
      return false;
    }
    if (!QTest::qWaitFor([&] { return finished.count() == 1; }, kTimeoutMs)) {
      return false;
    }
    return finished.front().at(0).toBool();
  }

  // Buffers the engine's newest volume (acquiring until there is one) and saves it to `target`.
  bool saveNewestVolume(const QString& target) {
    ui::VolumeController& volumes = window_->volumes();
    QSignalSpy newVolume(&volumes, &ui::VolumeController::latestVolumeChanged);
    window_->controller().setRunning(true);
    if (!QTest::qWaitFor([&] { return newVolume.count() > 0; }, kTimeoutMs) ||
        !volumes.bufferLatest()) {
      return false;
    }
    window_->controller().stop();
    volumes.save(volumes.volumes().back().id, target);
    return QTest::qWaitFor([&] { return !volumes.isSaving() && QFile::exists(target); },
                           kTimeoutMs);
  }

 public:
  static void initMain() { test::useFreshSettings("test_study_gui"); }

 private slots:
  void initTestCase() {
    QVERIFY(folder_.isValid());
    window_ = test::openSimulatorWindow();
    QVERIFY(window_);
    QVERIFY(test::waitForFirstVolume(*window_, kTimeoutMs));
  }
  void cleanupTestCase() { window_.reset(); }

  void noPatientAtFirst() {
    QVERIFY(!window_->study().study().has_value());
    QCOMPARE(statusText(), QStringLiteral("No patient"));
  }

  void dialogRefusesWhatDicomCannotCarryThenTakesTheStudy() {
    QStringList refusals;
    bool placeholdersOnly = false;
    whenDialogOpens(QStringLiteral("studyDialog"), [&](QDialog& dialog) {
      auto* ok = child<QPushButton>(dialog, "studyOkButton");
      auto* problem = child<QLabel>(dialog, "studyProblem");
      auto* name = child<QLineEdit>(dialog, "studyPatientName");
      auto* birth = child<QLineEdit>(dialog, "studyBirthDate");
      auto* accession = child<QLineEdit>(dialog, "studyAccession");
      placeholdersOnly = name->text().isEmpty() && !name->placeholderText().isEmpty() &&
                         birth->text().isEmpty() && !birth->placeholderText().isEmpty();
      accession->setText(QStringLiteral("ACC-12345678901234"));  // 18 characters: SH holds 16
      refusals << (ok->isEnabled() ? QString() : problem->text());
      accession->setText(QStringLiteral("ACC123456"));
      birth->setText(QStringLiteral("1984-02-30"));
      refusals << (ok->isEnabled() ? QString() : problem->text());
      birth->setText(QDate::currentDate().addDays(3).toString(Qt::ISODate));
      refusals << (ok->isEnabled() ? QString() : problem->text());
      name->setText(QStringLiteral("A^B^C^D^E^F"));
      birth->setText(QStringLiteral("1984-03-07"));
      refusals << (ok->isEnabled() ? QString() : problem->text());
      name->setText(QStringLiteral("Lindqvist^Åsa"));
      child<QLineEdit>(dialog, "studyPatientId")->setText(QStringLiteral("P-0042"));
      auto* sex = child<QComboBox>(dialog, "studySex");
      sex->setCurrentIndex(sex->findData(QStringLiteral("F")));
      child<QLineEdit>(dialog, "studyDescription")->setText(QStringLiteral("Carotid, left"));
      child<QLineEdit>(dialog, "studyReferringPhysician")->setText(QStringLiteral("Okafor^Chidi"));
      child<QLineEdit>(dialog, "studyOperator")->setText(QStringLiteral("Meyer^Jonas"));
      refusals << (ok->isEnabled() ? QString() : problem->text());
      ok->click();
    });
    window_->activateWindow();
    QApplication::setActiveWindow(window_.get());
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    QTest::keyClick(window_.get(), Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(window_->study().study().has_value(), 10'000);
    QVERIFY(placeholdersOnly);
    QCOMPARE(refusals.size(), 5);
    QVERIFY2(refusals[0].contains(QStringLiteral("Accession number: at most 16 characters")),
             qPrintable(refusals[0]));
    QVERIFY2(refusals[1].contains(QStringLiteral("Birth date: write a real date")),
             qPrintable(refusals[1]));
    QVERIFY2(refusals[2].contains(QStringLiteral("Birth date: in the future")),
             qPrintable(refusals[2]));
    QVERIFY2(refusals[3].contains(QStringLiteral("Patient name: at most five parts")),
             qPrintable(refusals[3]));
    QCOMPARE(refusals[4], QString());  // taken

    const store::StudyInfo& study = *window_->study().study();
    QCOMPARE(QString::fromStdString(study.patientName), QStringLiteral("Lindqvist^Åsa"));
    QCOMPARE(study.birthDate, std::string("19840307"));
    QCOMPARE(study.sex, std::string("F"));
    QCOMPARE(study.accessionNumber, std::string("ACC123456"));
    QVERIFY(study.studyInstanceUid.rfind("2.25.", 0) == 0);
    uid_ = study.studyInstanceUid;
    QCOMPARE(statusText(), QStringLiteral("Lindqvist^Åsa · ID P-0042"));
    QVERIFY(window_->windowTitle().contains(QStringLiteral("Lindqvist^Åsa")));
  }

  // The export dialog starts from the study; DICOM carries all of it and passes dciodvfy.
  void dicomExportCarriesTheStudy() {
    window_->controller().stop();
    ui::CineloopPanel& cineloop = window_->cineloopPanel();
    QTRY_VERIFY_WITH_TIMEOUT(cineloop.entryCount() > 0, kTimeoutMs);
    QString prefilledName, prefilledId;
    whenDialogOpens(QStringLiteral("cineloopExportDialog"), [&](QDialog& dialog) {
      prefilledName = child<QLineEdit>(dialog, "dicomPatientName")->text();
      prefilledId = child<QLineEdit>(dialog, "dicomPatientId")->text();
      child<QRadioButton>(dialog, "exportDicom")->setChecked(true);
      child<QLineEdit>(dialog, "exportFolder")->setText(folder_.path());
      child<QPushButton>(dialog, "exportButton")->click();
    });
    QSignalSpy finished(&cineloop, &ui::CineloopPanel::exportFinished);
    QTest::mouseClick(child<QWidget>(cineloop, "cineloopExport"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, kTimeoutMs);
    QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
    QCOMPARE(prefilledName, QStringLiteral("Lindqvist^Åsa"));
    QCOMPARE(prefilledId, QStringLiteral("P-0042"));
    const QStringList written = QDir(folder_.path()).entryList({QStringLiteral("*.dcm")});
    QCOMPARE(written.size(), 1);
    const QString dicom = path(written.front());

    DcmFileFormat format;
    QVERIFY(format.loadFile(dicom.toLocal8Bit().constData()).good());
    DcmDataset& data = *format.getDataset();
    QCOMPARE(dicomText(data, DCM_PatientName), QStringLiteral("Lindqvist^Åsa"));
    QCOMPARE(dicomText(data, DCM_PatientID), QStringLiteral("P-0042"));
    QCOMPARE(dicomText(data, DCM_PatientBirthDate), QStringLiteral("19840307"));
    QCOMPARE(dicomText(data, DCM_PatientSex), QStringLiteral("F"));
    QCOMPARE(dicomText(data, DCM_AccessionNumber), QStringLiteral("ACC123456"));
    QCOMPARE(dicomText(data, DCM_StudyDescription), QStringLiteral("Carotid, left"));
    QCOMPARE(dicomText(data, DCM_ReferringPhysicianName), QStringLiteral("Okafor^Chidi"));
    QCOMPARE(dicomText(data, DCM_OperatorsName), QStringLiteral("Meyer^Jonas"));
    QCOMPARE(dicomText(data, DCM_StudyInstanceUID), QString::fromStdString(uid_));
    QCOMPARE(dicomText(data, DCM_StudyDate),
             QString::fromStdString(window_->study().study()->studyDate));
    const QString kept = QString::fromStdString(test::artefactPath("study.dcm"));
    QFile::remove(kept);
    QFile::copy(dicom, kept);  // for dcmdump and a PACS viewer
    const QStringList findings = dciodvfyFindings(dicom);
    QVERIFY2(findings.isEmpty(), qPrintable(findings.join(QLatin1Char('\n'))));

    // A second export of the same study: the same study UID, a series of its own.
    const QString second = path(QStringLiteral("second.dcm"));
    QVERIFY(exportCineloop(ui::CineloopExportFormat::Dicom, second));
    DcmFileFormat other;
    QVERIFY(other.loadFile(second.toLocal8Bit().constData()).good());
    QCOMPARE(dicomText(*other.getDataset(), DCM_StudyInstanceUID), QString::fromStdString(uid_));
    QVERIFY(dicomText(*other.getDataset(), DCM_SeriesInstanceUID) !=
            dicomText(data, DCM_SeriesInstanceUID));
  }

  void hdf5ExportAndRecordingCarryTheStudy() {
    const QString exported = path(QStringLiteral("loop.h5"));
    QVERIFY(exportCineloop(ui::CineloopExportFormat::Hdf5, exported));
    QCOMPARE(studyField(exported, "study_instance_uid"), uid_);
    QCOMPARE(studyField(exported, "patient_id"), std::string("P-0042"));

    const QString recording = path(QStringLiteral("raw.h5"));
    window_->controller().setRunning(true);
    QCOMPARE(window_->startRecording(recording), QString());
    QTRY_VERIFY_WITH_TIMEOUT(window_->recording().stats().written >= 2, kTimeoutMs);
    window_->stopRecording();
    window_->controller().stop();
    QCOMPARE(studyField(recording, "study_instance_uid"), uid_);
    QCOMPARE(studyField(recording, "operator_name"), std::string("Meyer^Jonas"));
  }

  // A saved volume has the study; opened again after the study ended and saved anew, it keeps it.
  void savedVolumeKeepsItsStudy() {
    const QString saved = path(QStringLiteral("volume.h5"));
    QVERIFY(saveNewestVolume(saved));
    QCOMPARE(studyField(saved, "study_instance_uid"), uid_);
    QCOMPARE(studyField(saved, "patient_birth_date"), std::string("19840307"));
    const store::LoadedVolume loaded = store::readVolumeFile(saved.toStdString());
    QVERIFY(loaded.study.has_value());
    QVERIFY(*loaded.study == *window_->study().study());

    window_->study().end();
    QCOMPARE(statusText(), QStringLiteral("No patient"));
    ui::VolumeController& volumes = window_->volumes();
    QSignalSpy opened(&volumes, &ui::VolumeController::volumeOpened);
    volumes.openFile(saved);
    QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1, kTimeoutMs);
    const QString again = path(QStringLiteral("volume_again.h5"));
    volumes.save(opened.front().at(0).value<quint64>(), again);
    QTRY_VERIFY_WITH_TIMEOUT(!volumes.isSaving() && QFile::exists(again), kTimeoutMs);
    QCOMPARE(studyField(again, "study_instance_uid"), uid_);
    QCOMPARE(studyField(again, "patient_name"), std::string("Lindqvist^Åsa"));
  }

  // No study: anonymous DICOM that still passes dciodvfy, HDF5 files without /study.
  void withoutAStudyExportsAreAnonymous() {
    QVERIFY(!window_->study().study().has_value());
    const QString dicom = path(QStringLiteral("anonymous.dcm"));
    QVERIFY(exportCineloop(ui::CineloopExportFormat::Dicom, dicom));
    DcmFileFormat format;
    QVERIFY(format.loadFile(dicom.toLocal8Bit().constData()).good());
    DcmDataset& data = *format.getDataset();
    QCOMPARE(dicomText(data, DCM_PatientName), QString());
    QCOMPARE(dicomText(data, DCM_PatientBirthDate), QString());
    QCOMPARE(dicomText(data, DCM_AccessionNumber), QString());
    QVERIFY(dicomText(data, DCM_StudyInstanceUID) != QString::fromStdString(uid_));
    QVERIFY(!data.tagExists(DCM_OperatorsName));
    const QStringList findings = dciodvfyFindings(dicom);
    QVERIFY2(findings.isEmpty(), qPrintable(findings.join(QLatin1Char('\n'))));

    const QString saved = path(QStringLiteral("anonymous_volume.h5"));
    QVERIFY(saveNewestVolume(saved));
    QCOMPARE(studyField(saved, "patient_name"), std::string("<no /study>"));
    const QString exported = path(QStringLiteral("anonymous_loop.h5"));
    QVERIFY(exportCineloop(ui::CineloopExportFormat::Hdf5, exported));
    QCOMPARE(studyField(exported, "patient_name"), std::string("<no /study>"));
  }
};

QTEST_MAIN(TestStudyGui)
#include "test_study_gui.moc"
