// An operator connects a spectrometer camera from the GUI, under Xvfb, against Aravis' GigE Vision
// simulator (support/fake_gige_camera.hpp): the Lab source dialog lists the cameras found, its
// spec opens the camera with the description chosen, the engine images its B-scans, and the
// statistics carry the camera stream's counters that the status bar shows.
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "acquisition/source_dialog.hpp"
#include "bridge/engine_controller.hpp"
#include "support/fake_gige_camera.hpp"

using cineflow::ui::EngineController;
using cineflow::ui::SourceDialog;

class TestGenicamGui : public QObject {
  Q_OBJECT

 private slots:
  void theLabSourceDialogOpensACamera() {
    cineflow::test::FakeGigeCamera camera(
        QStringLiteral("GUI%1").arg(QCoreApplication::applicationPid() % 100000));
    QVERIFY2(camera.started(), qPrintable(camera.why()));
    QTemporaryDir folder;
    const QString description = folder.filePath("spectrometer.json");
    QFile file(description);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"camera": {"pixel_format": "Mono16", "frame_rate_hz": 50},
      "samples": 512, "ascans": 128, "wavelength_first_m": 790e-9, "wavelength_last_m": 890e-9,
      "centre_wavelength_m": 840e-9, "bscans_per_volume": 0, "bidirectional": false,
      "flyback_ascans": 0, "lateral_step_m": 10e-6, "elevation_step_m": 10e-6})");
    file.close();

    SourceDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto* list = dialog.findChild<QListWidget*>("sourceList");
    QVERIFY(list != nullptr);
    list->setCurrentRow(list->count() - 1);  // "GenICam camera (OCT)": lists what it finds
    auto* cameras = dialog.findChild<QComboBox*>("cameraList");
    QVERIFY(cameras != nullptr);
    const int row = cameras->findData(camera.id());
    QVERIFY2(row >= 0, qPrintable(camera.id() + " is not among the cameras listed"));
    cameras->setCurrentIndex(row);
    dialog.findChild<QLineEdit*>("cameraDescription")->setText(description);
    const QString spec = dialog.spec();
    QCOMPARE(spec, "genicam://" + camera.id() + "#" + description);

    EngineController controller(cineflow::compute::BackendRequest::Cpu);
    QSignalSpy opened(&controller, &EngineController::sourceOpened);
    QSignalSpy failed(&controller, &EngineController::errorOccurred);
    std::uint64_t completed = 0;
    std::uint64_t processed = 0;
    connect(&controller, &EngineController::statsUpdated, this,
            [&](const cineflow::pipeline::EngineStats& stats) {
              processed = stats.processed;
              for (const auto& [name, value] : stats.sourceCounters) {
                if (name == "buffers") {
                  completed = value;
                }
              }
            });
    controller.open(spec);
    QTRY_VERIFY_WITH_TIMEOUT(opened.count() > 0 || failed.count() > 0, 30'000);
    QVERIFY2(failed.isEmpty(),
             failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
    QVERIFY2(opened.front().front().toString().contains(camera.id()),
             qPrintable(opened.front().front().toString()));
    QTRY_VERIFY_WITH_TIMEOUT(processed >= 10 && completed >= 10, 30'000);
    controller.stop();
  }
};

QTEST_MAIN(TestGenicamGui)
#include "test_genicam_gui.moc"
