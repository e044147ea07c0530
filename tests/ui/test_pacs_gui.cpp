// Send to PACS as an operator meets it, against a real PACS (Orthanc, started by the test on the
// loopback interface: support/orthanc_server.hpp): the PACS settings dialog refuses what cannot
// be used and tests what is typed by C-ECHO; a cineloop DICOM export with "Send to the PACS" ticked
// arrives in the PACS; a PACS that is gone leaves the file where it was and says so.

#include <QApplication>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "cineloop/cineloop_panel.hpp"
#include "export/dcmtk.hpp"
#include "export/pacs_dialog.hpp"
#include "export/pacs_settings.hpp"
#include "export/pacs_upload.hpp"
#include "sim_window.hpp"
#include "support/orthanc_server.hpp"
#include "view2d/image_view.hpp"
#include "volumes/volume_controller.hpp"
#include "volumes/volume_review_panel.hpp"

using namespace cineflow;
using cineflow::test::OrthancServer;

namespace {

const QString kPacsTitle = QStringLiteral("CF_GUI_PACS");
const QString kCineflowTitle = QStringLiteral("CINEFLOW_GUI");

template <typename T>
T& child(QWidget& parent, const char* name) {
  T* widget = parent.findChild<T*>(QLatin1String(name));
  if (widget == nullptr) {
    qFatal("no %s", name);
  }
  return *widget;
}

QString sopInstanceUidOf(const QString& path) {
  DcmFileFormat file;
  OFString value;
  if (file.loadFile(path.toStdString().c_str()).good()) {
    file.getDataset()->findAndGetOFString(DCM_SOPInstanceUID, value);
  }
  return QString::fromLatin1(value.c_str());
}

}  // namespace

class TestPacsGui : public QObject {
  Q_OBJECT

 private slots:
  void settingsAreCheckedAndTestedByEcho();
  void anOctVolumeGoesToThePacsAsOphthalmicTomography();
  void aDicomExportIsSentToThePacs();

 private:
  std::unique_ptr<OrthancServer> pacs_;
};

void TestPacsGui::settingsAreCheckedAndTestedByEcho() {
  pacs_ = std::make_unique<OrthancServer>(kPacsTitle, kCineflowTitle);
  if (!pacs_->started()) {
    QSKIP(qPrintable(pacs_->why()));
  }
  QVERIFY(!ui::savedPacsNode());
  ui::PacsDialog dialog(std::nullopt);
  dialog.show();
  auto& ok = child<QPushButton>(dialog, "pacsOkButton");
  auto& test = child<QPushButton>(dialog, "pacsTestButton");
  auto& problem = child<QLabel>(dialog, "pacsProblem");
  // Empty: nothing to test or keep, and the reason in words.
  QVERIFY(!ok.isEnabled());
  QVERIFY(!test.isEnabled());
  QVERIFY2(problem.text().contains(QStringLiteral("AE title")), qPrintable(problem.text()));

  child<QLineEdit>(dialog, "pacsCalledAe").setText(QStringLiteral("NOT_THIS_PACS"));
  child<QLineEdit>(dialog, "pacsHost").setText(QStringLiteral("127.0.0.1"));
  child<QSpinBox>(dialog, "pacsPort").setValue(pacs_->dicomPort());
  child<QLineEdit>(dialog, "pacsCallingAe").setText(kCineflowTitle);
  QVERIFY(ok.isEnabled());
  QSignalSpy tested(&dialog, &ui::PacsDialog::tested);
  QTest::mouseClick(&test, Qt::LeftButton);
  QVERIFY(!test.isEnabled());  // while the echo runs
  QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 30'000);
  QVERIFY(!tested.at(0).at(0).toBool());
  QVERIFY2(dialog.testResult().contains(QStringLiteral("refused")),
           qPrintable(dialog.testResult()));

  child<QLineEdit>(dialog, "pacsCalledAe").setText(kPacsTitle);
  QTRY_VERIFY(test.isEnabled());
  QTest::mouseClick(&test, Qt::LeftButton);
  QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 2, 30'000);
  QVERIFY2(tested.at(1).at(0).toBool(), qPrintable(dialog.testResult()));
  ui::savePacsNode(dialog.node());
  const std::optional<ui::PacsNode> saved = ui::savedPacsNode();
  QVERIFY(saved);
  QCOMPARE(QString::fromStdString(saved->calledAe), kPacsTitle);
  QCOMPARE(saved->port, pacs_->dicomPort());
  QCOMPARE(QString::fromStdString(saved->callingAe), kCineflowTitle);
}

// The OCT simulator's buffered volume, exported from the Volumes dock as DICOM and sent: the PACS
// holds one Ophthalmic Tomography Image of the left eye with as many frames as B-scans, the
// simulator's light source (840 nm centre, 40 nm FWHM: engine/oct/oct_simulator.cpp) and the
// slices' elevation step as slice thickness.
void TestPacsGui::anOctVolumeGoesToThePacsAsOphthalmicTomography() {
  if (!pacs_ || !pacs_->started() || !ui::savedPacsNode()) {
    QSKIP("needs the PACS the settings case started and saved");
  }
  const auto window = test::openWindowOn(QStringLiteral("oct-sim"), test::guiTestBackend());
  QVERIFY(window);
  QVERIFY(test::waitForFirstVolume(*window, 120'000));
  QVERIFY(window->volumes().bufferLatest());
  QTRY_VERIFY_WITH_TIMEOUT(!window->volumes().volumes().empty(), 30'000);
  ui::VolumeReviewPanel& panel = window->volumeReviewPanel();
  const std::uint64_t id = window->volumes().volumes().front().id;
  QVERIFY(panel.select(id));
  QTRY_VERIFY_WITH_TIMEOUT(panel.view().framesDisplayed() > 0, 30'000);
  auto* upload = window->findChild<ui::PacsUpload*>();
  QVERIFY(upload != nullptr);
  QSignalSpy written(&panel, &ui::VolumeReviewPanel::dicomFinished);
  QSignalSpy sent(upload, &ui::PacsUpload::finished);
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString file = dir.filePath(QStringLiteral("oct_volume.dcm"));
  QVERIFY(panel.exportDicom(file, ui::Laterality::Left, true));
  QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, 120'000);
  QVERIFY2(written.at(0).at(0).toBool(), qPrintable(written.at(0).at(1).toString()));
  QTRY_COMPARE_WITH_TIMEOUT(sent.count(), 1, 120'000);
  QVERIFY2(sent.at(0).at(0).toBool(), qPrintable(sent.at(0).at(1).toString()));

  const QString uid = sopInstanceUidOf(file);
  QString stored;
  for (const QJsonValue& instance : pacs_->getJson(QStringLiteral("/instances")).array()) {
    const QJsonObject tags =
        pacs_->getJson(QStringLiteral("/instances/%1/simplified-tags").arg(instance.toString()))
            .object();
    if (tags.value(QStringLiteral("SOPInstanceUID")).toString() == uid) {
      stored = instance.toString();
      QCOMPARE(tags.value(QStringLiteral("SOPClassUID")).toString(),
               QString::fromLatin1(ui::kOphthalmicTomographyImageStorage));
      QCOMPARE(tags.value(QStringLiteral("Modality")).toString(), QStringLiteral("OPT"));
      QCOMPARE(tags.value(QStringLiteral("ImageLaterality")).toString(), QStringLiteral("L"));
      QCOMPARE(tags.value(QStringLiteral("IlluminationWaveLength")).toString().toDouble(), 840.0);
      QCOMPARE(tags.value(QStringLiteral("IlluminationBandwidth")).toString().toDouble(), 40.0);
      const process::VolumeInfo info = window->volumes().buffered(id).info;
      QCOMPARE(tags.value(QStringLiteral("NumberOfFrames")).toString().toInt(),
               static_cast<int>(info.elevationM.size()));
      const QJsonObject measures = tags.value(QStringLiteral("SharedFunctionalGroupsSequence"))
                                       .toArray()
                                       .at(0)
                                       .toObject()
                                       .value(QStringLiteral("PixelMeasuresSequence"))
                                       .toArray()
                                       .at(0)
                                       .toObject();
      const double thicknessMm =
          measures.value(QStringLiteral("SliceThickness")).toString().toDouble();
      const double stepMm = (info.elevationM.back() - info.elevationM.front()) * 1e3 /
                            double(info.elevationM.size() - 1);
      QVERIFY2(std::abs(thicknessMm - stepMm) <= 1e-6 * stepMm,
               qPrintable(QStringLiteral("%1 mm, step %2 mm").arg(thicknessMm).arg(stepMm)));
    }
  }
  QVERIFY2(!stored.isEmpty(), "the OCT volume is not in the PACS");

  // Saved, let go and opened again from its file, the volume is still OCT: its export is an
  // Ophthalmic Tomography Image with the file's light source.
  const QString saved = dir.filePath(QStringLiteral("oct_volume.h5"));
  window->volumes().save(id, saved, ui::VolumeController::ExistingFile::Refuse);
  QTRY_VERIFY_WITH_TIMEOUT(window->volumes().volumes().front().saved, 60'000);
  QVERIFY(window->volumes().discard(id));
  window->volumes().openFile(saved);
  QTRY_VERIFY_WITH_TIMEOUT(!window->volumes().volumes().empty(), 60'000);
  const std::uint64_t opened = window->volumes().volumes().front().id;
  // Its file's description is taken up when the open's outcome is (the controller's next poll).
  QTRY_COMPARE_WITH_TIMEOUT(window->volumes().originOf(opened).modality, QStringLiteral("oct"),
                            30'000);
  QVERIFY(panel.select(opened));
  QTRY_VERIFY_WITH_TIMEOUT(panel.view().framesDisplayed() > 0, 30'000);
  const QString again = dir.filePath(QStringLiteral("oct_volume_again.dcm"));
  QVERIFY(panel.exportDicom(again, ui::Laterality::Right, false));
  QTRY_COMPARE_WITH_TIMEOUT(written.count(), 2, 120'000);
  QVERIFY2(written.at(1).at(0).toBool(), qPrintable(written.at(1).at(1).toString()));
  DcmFileFormat reread;
  QVERIFY(reread.loadFile(again.toStdString().c_str()).good());
  OFString sopClass, wavelength;
  reread.getDataset()->findAndGetOFString(DCM_SOPClassUID, sopClass);
  reread.getDataset()->findAndGetOFString(DCM_IlluminationWaveLength, wavelength);
  QCOMPARE(QString::fromLatin1(sopClass.c_str()),
           QString::fromLatin1(ui::kOphthalmicTomographyImageStorage));
  QCOMPARE(QString::fromLatin1(wavelength.c_str()).toDouble(), 840.0);
}

void TestPacsGui::aDicomExportIsSentToThePacs() {
  if (!pacs_ || !pacs_->started() || !ui::savedPacsNode()) {
    QSKIP("needs the PACS the settings case started and saved");
  }
  const auto window = test::openSimulatorWindow();
  QVERIFY(window);
  QVERIFY(QTest::qWaitFor([&] { return window->view().framesDisplayed() > 4; }, 60'000));
  window->freeze();
  QTRY_VERIFY_WITH_TIMEOUT(!window->controller().isRunning(), 30'000);
  auto* upload = window->findChild<ui::PacsUpload*>();
  QVERIFY(upload != nullptr);
  QSignalSpy sent(upload, &ui::PacsUpload::finished);

  ui::CineloopPanel& cineloop = window->cineloopPanel();
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString file = dir.filePath(QStringLiteral("loop.dcm"));
  ui::CineloopExportRequest request = cineloop.exportRequest(ui::CineloopExportFormat::Dicom, file);
  request.sendToPacs = true;
  QVERIFY(cineloop.startExport(request));
  QTRY_COMPARE_WITH_TIMEOUT(sent.count(), 1, 120'000);
  QVERIFY2(sent.at(0).at(0).toBool(), qPrintable(sent.at(0).at(1).toString()));
  QVERIFY2(upload->lastSummary().startsWith(QStringLiteral("1 of 1 file stored on CF_GUI_PACS")),
           qPrintable(upload->lastSummary()));
  QVERIFY(upload->resultBox() != nullptr);
  QCOMPARE(upload->resultBox()->icon(), QMessageBox::Information);
  // Beside the OCT volume of the case before.
  bool found = false;
  for (const QJsonValue& instance : pacs_->getJson(QStringLiteral("/instances")).array()) {
    const QJsonObject tags =
        pacs_->getJson(QStringLiteral("/instances/%1/simplified-tags").arg(instance.toString()))
            .object();
    found =
        found || tags.value(QStringLiteral("SOPInstanceUID")).toString() == sopInstanceUidOf(file);
  }
  QVERIFY2(found, "the cineloop's DICOM is not in the PACS");

  // The PACS goes away: the next send says so, and the export stays where it was.
  pacs_->kill();
  QVERIFY(upload->sendToSavedPacs({file}));
  QTRY_COMPARE_WITH_TIMEOUT(sent.count(), 2, 60'000);
  QVERIFY(!sent.at(1).at(0).toBool());
  const QString summary = sent.at(1).at(1).toString();
  QVERIFY2(summary.startsWith(QStringLiteral("0 of 1 file stored")), qPrintable(summary));
  QVERIFY2(summary.contains(QStringLiteral("cannot reach")), qPrintable(summary));
  QVERIFY2(summary.contains(QStringLiteral("Every file is kept")), qPrintable(summary));
  QCOMPARE(upload->resultBox()->icon(), QMessageBox::Warning);
  QVERIFY(QFile::exists(file));
}

int main(int argc, char** argv) {
  test::useFreshSettings("test_pacs_gui");
  QApplication app(argc, argv);
  TestPacsGui test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_pacs_gui.moc"
