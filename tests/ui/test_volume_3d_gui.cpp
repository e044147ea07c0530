// The 3-D view dock in the main window on the simulator (CPU backend, Xvfb): raised, it shows the
// newest volume in its physical proportions (voxel sizes from the engine's geometry and the
// sweep's elevation step); Review shows the volume selected in the Volumes dock; the slice plane's
// "Open in slice view" buffers the live volume and opens it in the Volumes dock at that slice; and
// a turntable MP4 of the view is written and decodes to the frames it should hold.

#include <QComboBox>
#include <QDockWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTimer>
#include <QtTest>

#include <cmath>

#include "mp4_decode.hpp"
#include "pipeline/engine.hpp"
#include "sim_window.hpp"
#include "support/test_paths.hpp"
#include "view3d/turntable_recorder.hpp"
#include "view3d/volume_3d_panel.hpp"
#include "view3d/volume_view.hpp"
#include "volumes/volume_review_panel.hpp"

using cineflow::ui::Volume3dPanel;
using cineflow::ui::VolumeView;

namespace {
constexpr int kTimeoutMs = 120'000;
}

class TestVolume3dGui : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::test::useFreshSettings("test_volume_3d_gui"); }

 private slots:
  void initTestCase() {
    window_ = cineflow::test::openSimulatorWindow();
    QVERIFY(window_);
    QVERIFY(cineflow::test::waitForFirstVolume(*window_, kTimeoutMs));
    dock_ = window_->findChild<QDockWidget*>(QStringLiteral("volume3dDock"));
    panel_ = window_->findChild<Volume3dPanel*>(QStringLiteral("volume3dPanel"));
    QVERIFY(dock_ && panel_);
    dock_->show();
    dock_->raise();
  }

  void theNewestVolumeTurnsUpInProportion() {
    VolumeView& view = panel_->view();
    QTRY_VERIFY_WITH_TIMEOUT(view.volume() && view.framesDrawn() > 0, kTimeoutMs);
    const auto geometry = window_->controller().engine().cineloop().geometry();
    const auto volume = view.volume();
    QCOMPARE(volume->nx, geometry.nx);
    QCOMPARE(volume->nz, geometry.nz);
    QCOMPARE(volume->ny, 16);
    QVERIFY(std::abs(volume->voxelMm.x() - geometry.dx * 1e3) < 1e-4);
    QVERIFY(std::abs(volume->voxelMm.y() - geometry.dz * 1e3) < 1e-4);
    QVERIFY(volume->voxelMm.z() > 0);
    QCOMPARE(view.camera().extentMm().x(), static_cast<float>(volume->nx) * volume->voxelMm.x());
    QVERIFY2(view.renderingError().isEmpty(), qPrintable(view.renderingError()));
    // It follows the engine: a newer volume replaces it.
    const std::uint64_t first = volume->number;
    QTRY_VERIFY_WITH_TIMEOUT(view.volume()->number > first, kTimeoutMs);
    // The window with its 3-D view, for people to look at (the manual's picture:
    // tools/docs/screenshots.sh).
    const QString artefact =
        QString::fromStdString(cineflow::test::artefactPath("test_volume_3d_gui.png"));
    QVERIFY2(window_->grab().toImage().save(artefact), qPrintable(artefact));
  }

  void reviewShowsTheSelectedVolume() {
    auto& volumes = window_->volumes();
    QVERIFY(volumes.bufferLatest());
    auto& review = window_->volumeReviewPanel();
    review.refresh();
    QTRY_VERIFY_WITH_TIMEOUT(review.selectedId().has_value(), kTimeoutMs);
    const auto number = volumes.numberOf(*review.selectedId());
    QVERIFY(number.has_value());
    auto* showing = panel_->findChild<QComboBox*>(QStringLiteral("volume3dShowing"));
    showing->setCurrentIndex(1);
    QCOMPARE(panel_->showing(), Volume3dPanel::Showing::Review);
    QTRY_VERIFY_WITH_TIMEOUT(panel_->view().volume() && panel_->view().volume()->number == *number,
                             kTimeoutMs);
    // It stays on the reviewed volume while the engine goes on.
    QTest::qWait(1500);
    QCOMPARE(panel_->view().volume()->number, *number);
    showing->setCurrentIndex(0);
  }

  void openInSliceViewReviewsThatSlice() {
    auto* slice = panel_->findChild<QSlider*>(QStringLiteral("volume3dSlice"));
    auto* open = panel_->findChild<QPushButton*>(QStringLiteral("volume3dOpenSlice"));
    QVERIFY(slice && open);
    QCOMPARE(slice->maximum(), 15);
    slice->setValue(5);
    QCOMPARE(panel_->view().slicePlane(), std::optional<int>(5));
    const int before = static_cast<int>(window_->volumes().volumes().size());
    QTest::mouseClick(open, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(static_cast<int>(window_->volumes().volumes().size()), before + 1,
                              kTimeoutMs);
    auto& review = window_->volumeReviewPanel();
    auto* reviewSlice = review.findChild<QSlider*>(QStringLiteral("sliceSlider"));
    QVERIFY(reviewSlice);
    QTRY_COMPARE_WITH_TIMEOUT(reviewSlice->value(), 5, kTimeoutMs);
    // The newest buffered volume is the one selected.
    std::uint64_t newest = 0;
    for (const auto& entry : window_->volumes().volumes()) {
      newest = std::max(newest, entry.id);
    }
    QCOMPARE(review.selectedId(), std::optional<std::uint64_t>(newest));
  }

  void turntableIsWritten() {
    const QString path =
        QString::fromStdString(cineflow::test::artefactPath("test_volume_3d_turntable.mp4"));
    QFile::remove(path);
    const float yaw = panel_->view().camera().yaw();
    QSignalSpy finished(panel_, &Volume3dPanel::turntableFinished);
    QSignalSpy progressed(&panel_->turntable(), &cineflow::ui::TurntableRecorder::progressed);
    // The window answers while the turntable is written: it is drawn a frame per event-loop turn.
    int turnsWhileWriting = 0;
    QTimer tick;
    connect(&tick, &QTimer::timeout, [&] { turnsWhileWriting += panel_->turntable().running(); });
    tick.start(0);
    QVERIFY(panel_->startTurntable(path, 0.5));
    QVERIFY(!panel_->startTurntable(path, 0.5));  // one at a time
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    tick.stop();
    QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
    QVERIFY(turnsWhileWriting >= 15);  // at least one event-loop turn per frame drawn
    QCOMPARE(progressed.back().at(0).toInt(), 15);
    QCOMPARE(panel_->view().camera().yaw(), yaw);  // the view is left as it was
    const auto decoded = cineflow::test::decodeMp4(path.toStdString());
    QVERIFY2(decoded.error.isEmpty(), qPrintable(decoded.error));
    QCOMPARE(decoded.frames, 15);  // 0.5 s at 30 frames/s
    QVERIFY(decoded.width >= panel_->view().width());

    // Cancelled after its first frames: no file, the view as it was.
    const QString cancelled =
        QString::fromStdString(cineflow::test::artefactPath("test_volume_3d_cancelled.mp4"));
    QFile::remove(cancelled);
    QVERIFY(panel_->startTurntable(cancelled, 6.0));
    QTRY_VERIFY_WITH_TIMEOUT(progressed.count() >= 17, kTimeoutMs);
    panel_->turntable().cancel();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kTimeoutMs);
    QVERIFY(!finished.back().at(0).toBool());
    QVERIFY(finished.back().at(1).toString().contains(QStringLiteral("cancelled")));
    QVERIFY(!QFile::exists(cancelled) && !QFile::exists(cancelled + QStringLiteral(".partial")));
    QCOMPARE(panel_->view().camera().yaw(), yaw);

    // A folder that does not exist: refused with a message.
    QVERIFY(panel_->startTurntable(QStringLiteral("/nonexistent-folder/x.mp4"), 0.2));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, kTimeoutMs);
    QVERIFY(!finished.back().at(0).toBool());
    QVERIFY(!finished.back().at(1).toString().isEmpty());
    QCOMPARE(panel_->view().camera().yaw(), yaw);
  }

  void cleanupTestCase() { window_.reset(); }

 private:
  std::unique_ptr<cineflow::ui::MainWindow> window_;
  QDockWidget* dock_ = nullptr;
  Volume3dPanel* panel_ = nullptr;
};

QTEST_MAIN(TestVolume3dGui)
#include "test_volume_3d_gui.moc"
