// The real datasets imaged from the GUI (data/): an operator opens
// a recording in the acquisition panel, sets the imaging parameters with its controls and starts;
// the frames the GUI receives must be as correct as the headless validation's.
// - Verasonics rotating disk: the panel picks I/Q mode by itself and says why; with f-number 1,
//   rectangular apodisation and the reference's grid entered in the panel, every frame the GUI
//   shows correlates with PyMUST's B-mode at >= 0.95 (Pearson, 30 dB uint8). An I/Q bandwidth
//   that would let the negative band's image in is refused in the panel with the reason and the
//   box goes back to the bandwidth in effect; the decimation reaches the engine; applying the
//   grid changes only the boxes that were edited.
// - Field II points, in RF mode and in I/Q mode chosen in the panel, a 0.01 mm grid over them
//   entered in the panel: every isolated point within 0.05 mm (RF) or 0.03 mm (I/Q) of its true
//   position.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QtTest>

#include <map>

#include "acquisition/acquisition_panel.hpp"
#include "bridge/engine_controller.hpp"
#include "modalities/ultrasound/imaging_panel.hpp"
#include "support/real_datasets.hpp"
#include "support/test_paths.hpp"

using namespace cineflow;
using ui::EngineController;

namespace {

constexpr int kOpenTimeoutMs = 60'000;
constexpr int kFramesTimeoutMs = 120'000;
constexpr double kRequiredCorrelation = 0.95;
constexpr std::size_t kDiskFramesToCheck = 6;

void select(QComboBox& box, int data) {
  box.setCurrentIndex(box.findData(data));
}

// Opens `path` in the controller without starting; fails the test on an error.
bool openPaused(EngineController& controller, const std::string& path) {
  QSignalSpy opened(&controller, &EngineController::sourceOpened);
  QSignalSpy failed(&controller, &EngineController::errorOccurred);
  controller.open(QString::fromStdString(path), false);
  if (!QTest::qWaitFor([&] { return opened.count() > 0 || failed.count() > 0; }, kOpenTimeoutMs)) {
    qWarning("opening %s timed out", path.c_str());
    return false;
  }
  if (!failed.isEmpty()) {
    qWarning("%s", qPrintable(failed.front().front().toString()));
    return false;
  }
  return true;
}

}  // namespace

class TestRealDatasets : public QObject {
  Q_OBJECT

 private slots:
  void verasonicsDiskMatchesPyMustFromThePanel();
  void field2PointsFromThePanel_data();
  void field2PointsFromThePanel();
};

void TestRealDatasets::verasonicsDiskMatchesPyMustFromThePanel() {
  const std::string path = test::datasetFile("verasonics_rotating_disk.h5");
  if (path.empty()) {
    QFAIL("data/verasonics_rotating_disk.h5 is missing from this clone (data/README.md)");
  }
  const test::DiskReference reference = test::readDiskReference(path);
  EngineController controller(compute::BackendRequest::Cpu);
  ui::AcquisitionPanel panel(controller);
  panel.show();
  ui::ImagingPanel& imaging = panel.modalityPanel<cineflow::ui::ImagingPanel>();
  QVERIFY(!imaging.isEnabled());  // nothing to image yet
  QVERIFY(openPaused(controller, path));
  QVERIFY(imaging.isEnabled());

  // Sampled at 6.67 MHz for a 5 MHz carrier: I/Q, said so, RF not offered.
  QCOMPARE(imaging.modeBox().currentData().toInt(), static_cast<int>(ultrasound::ImagingMode::Iq));
  QVERIFY2(imaging.modeNote().contains("below 2 x f0"), qPrintable(imaging.modeNote()));
  const auto* model = qobject_cast<QStandardItemModel*>(imaging.modeBox().model());
  QVERIFY(model != nullptr);
  QVERIFY(!model->item(imaging.modeBox().findData(static_cast<int>(ultrasound::ImagingMode::Rf)))
               ->isEnabled());
  QVERIFY(imaging.iqBandwidthBox().isEnabled());
  QVERIFY2(imaging.iqBandwidthBox().text().contains("15"),  // the file's 15 % bandwidth
           qPrintable(imaging.iqBandwidthBox().text()));

  // 100 % of f0 would overlap the negative band's image 3.33 MHz from the carrier: refused,
  // with the reason, and the recording's bandwidth stays in effect.
  imaging.iqBandwidthBox().setValue(100.0);
  QVERIFY2(imaging.imagingError().contains("image of the negative band"),
           qPrintable(imaging.imagingError()));
  QCOMPARE(controller.imagingParams().iqBandwidthRel, 0.0);
  QCOMPARE(imaging.iqBandwidthBox().value(), 0.0);  // the box shows what is in effect again
  // The next accepted change clears the reason.
  imaging.iqDecimationBox().setValue(2);
  QVERIFY2(imaging.imagingError().isEmpty(), qPrintable(imaging.imagingError()));
  QCOMPARE(controller.imagingParams().iqDecimation, 2);
  imaging.iqDecimationBox().setValue(1);
  QCOMPARE(controller.imagingParams().iqDecimation, 1);

  // Applying the grid after editing one box changes that value only: the others keep the exact
  // values in effect, which the boxes show rounded (the default x0 is -18.923 mm).
  const ultrasound::ImagingGrid defaults = controller.imagingParams().grid;
  imaging.lateralStepBox().setValue(0.2);
  QTest::mouseClick(&imaging.applyGridButton(), Qt::LeftButton);
  const ultrasound::ImagingGrid edited = controller.imagingParams().grid;
  QCOMPARE(edited.dx, 0.2e-3);
  QVERIFY(edited.x0 == defaults.x0 && edited.x1 == defaults.x1 && edited.z0 == defaults.z0 &&
          edited.z1 == defaults.z1 && edited.dz == defaults.dz);

  // PyMUST's settings, entered as an operator would.
  imaging.fNumberBox().setValue(1.0);
  select(imaging.apodisationBox(), static_cast<int>(ultrasound::Apodisation::Rectangular));
  const ultrasound::ImagingGrid grid = reference.grid();
  imaging.lateralStartBox().setValue(grid.x0 * 1e3);
  imaging.lateralEndBox().setValue(grid.x1 * 1e3);
  imaging.lateralStepBox().setValue(grid.dx * 1e3);
  imaging.depthStartBox().setValue(grid.z0 * 1e3);
  imaging.depthEndBox().setValue(grid.z1 * 1e3);
  imaging.depthStepBox().setValue(grid.dz * 1e3);
  QTest::mouseClick(&imaging.applyGridButton(), Qt::LeftButton);
  QVERIFY2(imaging.imagingError().isEmpty(), qPrintable(imaging.imagingError()));
  const ultrasound::ImagingParams applied = controller.imagingParams();
  QCOMPARE(applied.fNumber, 1.0);
  QCOMPARE(applied.apodisation, ultrasound::Apodisation::Rectangular);
  QCOMPARE(applied.geometry().nx, static_cast<int>(reference.xM.size()));
  QCOMPARE(applied.geometry().nz, static_cast<int>(reference.zM.size()));

  std::map<std::uint64_t, std::vector<float>> shown;  // by the recording's frame index
  connect(&controller, &EngineController::frameReady, this,
          [&](const std::shared_ptr<const ui::Image>& frame) {
            if (frame->pixels.size() == reference.pixels()) {
              shown[frame->header.sourceIndex % reference.frames()] = frame->pixels;
            }
          });
  QVERIFY(controller.start());
  QTRY_VERIFY_WITH_TIMEOUT(shown.size() >= kDiskFramesToCheck, kFramesTimeoutMs);
  controller.stop();

  double worst = 1;
  for (const auto& [index, pixels] : shown) {
    const double r =
        test::pearson(test::bmodeUint8(pixels, test::kDiskDynamicRangeDb),
                      reference.bmode.data() + index * reference.pixels(), reference.pixels());
    qInfo("frame %2llu: Pearson correlation with PyMUST %.4f",
          static_cast<unsigned long long>(index), r);
    worst = std::min(worst, r);
  }
  QVERIFY2(worst >= kRequiredCorrelation, qPrintable(QString("worst frame %1").arg(worst)));
}

void TestRealDatasets::field2PointsFromThePanel_data() {
  QTest::addColumn<int>("mode");
  QTest::newRow("rf") << static_cast<int>(ultrasound::ImagingMode::Rf);
  QTest::newRow("iq") << static_cast<int>(ultrasound::ImagingMode::Iq);
}

void TestRealDatasets::field2PointsFromThePanel() {
  QFETCH(int, mode);
  const std::string path = test::datasetFile("field2_pw3_points.h5");
  if (path.empty()) {
    QFAIL("data/field2_pw3_points.h5 is missing from this clone (data/README.md)");
  }
  const auto scatterers = test::readScatterers(path);
  EngineController controller(compute::BackendRequest::Cpu);
  ui::AcquisitionPanel panel(controller);
  panel.show();
  ui::ImagingPanel& imaging = panel.modalityPanel<cineflow::ui::ImagingPanel>();
  QVERIFY(openPaused(controller, path));
  QVERIFY(imaging.modeNote().isEmpty());  // 20 MHz for a 5.2 MHz carrier: either mode
  select(imaging.modeBox(), mode);
  QVERIFY2(imaging.imagingError().isEmpty(), qPrintable(imaging.imagingError()));
  QCOMPARE(static_cast<int>(controller.imagingParams().mode), mode);
  QCOMPARE(imaging.iqBandwidthBox().isEnabled(),
           mode == static_cast<int>(ultrasound::ImagingMode::Iq));
  imaging.lateralStartBox().setValue(-0.4);
  imaging.lateralEndBox().setValue(0.4);
  imaging.lateralStepBox().setValue(0.01);
  imaging.depthStartBox().setValue(9.9);
  imaging.depthEndBox().setValue(46.3);
  imaging.depthStepBox().setValue(0.01);
  QTest::mouseClick(&imaging.applyGridButton(), Qt::LeftButton);
  QVERIFY2(imaging.imagingError().isEmpty(), qPrintable(imaging.imagingError()));
  QCOMPARE(controller.imagingParams().grid.dz, 0.01e-3);
  const double limitM = mode == static_cast<int>(ultrasound::ImagingMode::Iq) ? 0.03e-3 : 0.05e-3;

  std::shared_ptr<const ui::Image> shown;
  connect(&controller, &EngineController::frameReady, this,
          [&](const std::shared_ptr<const ui::Image>& frame) { shown = frame; });
  QVERIFY(controller.start());
  QTRY_VERIFY_WITH_TIMEOUT(shown != nullptr, kFramesTimeoutMs);
  controller.stop();
  const std::vector<double> errors =
      test::isolatedPointErrors(shown->pixels, shown->geometry, scatterers);
  QCOMPARE(errors.size(), std::size_t{4});
  for (const double error : errors) {
    QVERIFY2(error <= limitM,
             qPrintable(QString("error %1 mm, limit %2 mm").arg(error * 1e3).arg(limitM * 1e3)));
  }
}

QTEST_MAIN(TestRealDatasets)
#include "test_real_datasets.moc"
