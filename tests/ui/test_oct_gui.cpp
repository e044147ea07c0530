// OCT in the operator window, as an operator meets it under Xvfb: the OCT simulator opens from its
// button, the OCT panel replaces the ultrasound imaging panel, B-scans arrive, the a2 slider
// changes the engine's dispersion live, Auto dispersion finds the simulated mismatch (60 rad)
// within 10 %, a volume buffers and saves with OCT metadata, and opening the ultrasound simulator
// brings the ultrasound panel back.

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QPushButton>
#include <QSlider>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "modalities/oct/oct_panel.hpp"
#include "modalities/ultrasound/imaging_panel.hpp"
#include "oct/oct_modality.hpp"
#include "registry/oct_engine.hpp"
#include "shell/main_window.hpp"
#include "sim_window.hpp"
#include "support/plain_hdf5.hpp"
#include "view2d/image_view.hpp"
#include "volumes/volume_controller.hpp"

using cineflow::ui::MainWindow;

namespace {
constexpr int kTimeoutMs = 60'000;
}

class TestOctGui : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::test::useFreshSettings("test_oct_gui"); }

 private slots:
  void initTestCase() { QVERIFY(qEnvironmentVariableIsSet("CINEFLOW_CACHE_DIR")); }

  void octSourceShowsItsPanelAndImages() {
    MainWindow window(cineflow::compute::BackendRequest::Cpu);
    window.setInteractiveErrors(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* button = window.findChild<QPushButton*>(QStringLiteral("octSimulatorButton"));
    QVERIFY(button != nullptr);
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(window.controller().isRunning() || !window.lastError().isEmpty(),
                             kTimeoutMs);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
    cineflow::ui::OctPanel& panel =
        window.acquisitionPanel().modalityPanel<cineflow::ui::OctPanel>();
    QTRY_VERIFY(panel.isVisible());
    QVERIFY(!window.acquisitionPanel().modalityPanel<cineflow::ui::ImagingPanel>().isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(window.view().framesDisplayed() > 2, kTimeoutMs);

    // The slider applies live.
    panel.a2Slider().setValue(25);
    QTRY_COMPARE(cineflow::oct::paramsOf(window.controller().engine()).a2, 25.0);

    // Auto dispersion on the live B-scan.
    QVERIFY2(panel.autoDispersion(), qPrintable(panel.message()));
    const double a2 = cineflow::oct::paramsOf(window.controller().engine()).a2;
    QVERIFY2(std::abs(a2 - 60.0) <= 6.0, qPrintable(QString::number(a2)));
    QVERIFY2(std::abs(panel.a2Box().value() - a2) < 0.05,
             qPrintable(QStringLiteral("the box shows %1, the engine has %2, the slider %3")
                            .arg(panel.a2Box().value())
                            .arg(a2)
                            .arg(panel.a2Slider().value())));

    // A volume buffers and saves with the OCT metadata.
    QTRY_VERIFY_WITH_TIMEOUT(window.controller().engine().stats().volumes >= 1, kTimeoutMs);
    cineflow::ui::VolumeController& volumes = window.volumes();
    QVERIFY(volumes.bufferLatest());
    QTRY_VERIFY(!volumes.volumes().empty());
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("oct-volume.h5"));
    volumes.save(volumes.volumes().front().id, path);
    QTRY_VERIFY_WITH_TIMEOUT(!volumes.isSaving() && QFile::exists(path), kTimeoutMs);
    {
      const cineflow::test::PlainFile file(path.toStdString());
      QVERIFY(file.id >= 0);
      QCOMPARE(cineflow::test::readString(file.id, "modality"), std::string("oct"));
      QCOMPARE(cineflow::test::readString(file.id, "schema"), std::string("cineflow.volume/1"));
      QVERIFY(std::abs(cineflow::test::readDouble(file.id, "dispersion_a2_rad") - a2) < 1e-9);
      QCOMPARE(cineflow::test::readDouble(file.id, "samples"), 2048.0);
    }

    // Back to ultrasound: its panel returns.
    window.openSource(QStringLiteral("sim"));
    QTRY_VERIFY_WITH_TIMEOUT(
        window.acquisitionPanel().modalityPanel<cineflow::ui::ImagingPanel>().isVisible(),
        kTimeoutMs);
    QVERIFY(!panel.isVisible());
  }

  // A resampling table from a file and a typed polynomial reach the engine; a file with a word
  // that is not a number, or of the wrong length, and bad coefficients are refused with the
  // reason, and the resampling in effect stays.
  void kLinearisationFromAFileOrAPolynomial() {
    MainWindow window(cineflow::compute::BackendRequest::Cpu);
    window.setInteractiveErrors(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openSource(QStringLiteral("oct-sim"));
    QTRY_VERIFY_WITH_TIMEOUT(window.controller().isRunning() || !window.lastError().isEmpty(),
                             kTimeoutMs);
    QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
    cineflow::ui::OctPanel& panel =
        window.acquisitionPanel().modalityPanel<cineflow::ui::OctPanel>();
    const cineflow::oct::OctAcquisition* acq =
        cineflow::oct::acquisitionOf(window.controller().engine());
    QVERIFY(acq != nullptr);
    const auto engineParams = [&window] {
      return cineflow::oct::paramsOf(window.controller().engine());
    };

    // The table the wavelength calibration gives, written as an operator's file would be.
    const std::vector<float> positions = cineflow::oct::positionsFromWavelengths(acq->wavelengthM);
    QTemporaryDir folder;
    const QString good = folder.filePath(QStringLiteral("k-table.txt"));
    {
      QFile file(good);
      QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Text));
      QTextStream out(&file);
      out << "# raw sample index per output sample\n";
      for (const float p : positions) {
        out << QString::number(p, 'g', 9) << '\n';
      }
    }
    QVERIFY2(panel.loadKTable(good), qPrintable(panel.message()));
    QCOMPARE(engineParams().kLinearisation, cineflow::oct::KLinearisation::Table);
    QCOMPARE(engineParams().kTable.size(), positions.size());
    QCOMPARE(engineParams().kTable[100], positions[100]);

    const QString bad = folder.filePath(QStringLiteral("bad.txt"));
    {
      QFile file(bad);
      QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Text));
      file.write("1.5\n2.5\nabc\n");
    }
    QVERIFY(!panel.loadKTable(bad));
    QVERIFY2(panel.message().contains(QStringLiteral("line 3")) &&
                 panel.message().contains(QStringLiteral("'abc'")),
             qPrintable(panel.message()));
    QCOMPARE(engineParams().kLinearisation, cineflow::oct::KLinearisation::Table);

    const QString shortTable = folder.filePath(QStringLiteral("short.txt"));
    {
      QFile file(shortTable);
      QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Text));
      file.write("1 2 3 4\n");
    }
    QVERIFY(!panel.loadKTable(shortTable));
    QVERIFY2(panel.message().contains(QStringLiteral("has 4 numbers")),
             qPrintable(panel.message()));

    QVERIFY(!panel.setKPolynomial(QStringLiteral("0, one")));
    QVERIFY2(panel.message().contains(QStringLiteral("'one'")), qPrintable(panel.message()));
    QCOMPARE(engineParams().kLinearisation, cineflow::oct::KLinearisation::Table);
    QVERIFY2(panel.setKPolynomial(QStringLiteral("0.5, 0.999")), qPrintable(panel.message()));
    QCOMPARE(engineParams().kLinearisation, cineflow::oct::KLinearisation::Polynomial);
    QCOMPARE(engineParams().kPolynomial, (std::vector<double>{0.5, 0.999}));
    const auto* combo = panel.findChild<QComboBox*>(QStringLiteral("octKLinearisation"));
    QVERIFY(combo != nullptr);
    QCOMPARE(combo->currentData().toInt(),
             static_cast<int>(cineflow::oct::KLinearisation::Polynomial));
    QVERIFY(panel.findChild<QPushButton*>(QStringLiteral("octEditKLinearisation"))->isEnabled());
  }
};

QTEST_MAIN(TestOctGui)
#include "test_oct_gui.moc"
