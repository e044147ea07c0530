// The 3-D view dock in the main window on the simulator (CPU backend, Xvfb): raised, it shows the
// newest volume in its physical proportions (voxel sizes from the engine's geometry and the
// sweep's elevation step); Review shows the volume selected in the Volumes dock; the slice plane's
// "Open in slice view" buffers the live volume and opens it in the Volumes dock at that slice; a
// turntable MP4 of the view is written and decodes to the frames it should hold; the PNG and the
// turntable come out at the export size chosen, not the dock's, without redrawing the view on
// screen; and a volume tens of dB away from the live image's level is shown at its own level,
// which the gain slider still moves.

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTimer>
#include <QtTest>

#include <cmath>
#include <memory>
#include <random>

#include "common/colour_maps.hpp"
#include "mp4_decode.hpp"
#include "pipeline/engine.hpp"
#include "sim_window.hpp"
#include "support/test_paths.hpp"
#include "view2d/display_controls.hpp"
#include "view3d/turntable_recorder.hpp"
#include "view3d/volume_3d_panel.hpp"
#include "view3d/volume_view.hpp"
#include "volumes/volume_review_panel.hpp"

using cineflow::ui::Volume3dPanel;
using cineflow::ui::VolumeView;

namespace {
constexpr int kTimeoutMs = 120'000;

// What share of `image`'s pixels within `area` are white (within 2 grey levels of `whiteGrey`, the
// colour map's top), are black, and their mean grey level.
struct Brightness {
  double white = 0, black = 0, mean = 0;
};
Brightness brightness(const QImage& image, const QRect& area, int whiteGrey = 255) {
  Brightness result;
  int count = 0;
  for (int y = area.top(); y <= area.bottom(); ++y) {
    for (int x = area.left(); x <= area.right(); ++x) {
      const int grey = qGray(image.pixel(x, y));
      result.white += grey >= whiteGrey - 2;
      result.black += grey <= 10;
      result.mean += grey;
      ++count;
    }
  }
  if (count > 0) {
    result.white /= count;
    result.black /= count;
    result.mean /= count;
  }
  return result;
}
}  // namespace

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
    const QSize size = panel_->videoSize();  // as shown (the dock may widen meanwhile)
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
    QCOMPARE(QSize(decoded.width, decoded.height), size);

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

  void exportsComeOutAtTheChosenSize() {
    // The dock much smaller than the export: the PNG and the turntable have the chosen size.
    VolumeView& view = panel_->view();
    view.setMaximumSize(320, 200);
    QTRY_VERIFY_WITH_TIMEOUT(view.width() <= 320 && view.height() <= 200, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(view.volume() && view.framesDrawn() > 0, kTimeoutMs);
    const QSize shown = view.size();
    const float yaw = view.camera().yaw();
    const std::uint64_t drawn = view.framesDrawn();
    panel_->setExportSize({1920, 1080});
    QCOMPARE(panel_->pngSize(), QSize(1920, 1080));
    const QString png =
        QString::fromStdString(cineflow::test::artefactPath("test_volume_3d_1920x1080.png"));
    QFile::remove(png);
    QCOMPARE(panel_->savePng(png), QString());
    // Drawn offscreen: the view on screen was neither drawn again nor changed.
    QCOMPARE(view.framesDrawn(), drawn);
    QCOMPARE(view.size(), shown);
    QCOMPARE(view.camera().yaw(), yaw);
    const QImage picture(png);
    QCOMPARE(picture.size(), QSize(1920, 1080));
    // The volume fills a good part of it, lit (the background is near black).
    const Brightness whole = brightness(picture, picture.rect());
    QVERIFY2(whole.black < 0.9, qPrintable(QString::number(whole.black)));
    QVERIFY2(whole.mean > 10, qPrintable(QString::number(whole.mean)));

    panel_->setExportSize({1280, 720});
    QCOMPARE(panel_->videoSize(), QSize(1280, 720));
    const QString video =
        QString::fromStdString(cineflow::test::artefactPath("test_volume_3d_1280x720.mp4"));
    QFile::remove(video);
    QSignalSpy finished(panel_, &Volume3dPanel::turntableFinished);
    QVERIFY(panel_->startTurntable(video, 0.2));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
    QCOMPARE(view.size(), shown);
    QCOMPARE(view.camera().yaw(), yaw);
    const auto decoded = cineflow::test::decodeMp4(video.toStdString());
    QVERIFY2(decoded.error.isEmpty(), qPrintable(decoded.error));
    QCOMPARE(decoded.width, 1280);
    QCOMPARE(decoded.height, 720);
    QCOMPARE(decoded.frames, 6);  // 0.2 s at 30 frames/s

    panel_->setExportSize({});  // as shown: the view's size, even for the video
    QCOMPARE(panel_->pngSize(), view.framebufferSize());
    QCOMPARE(panel_->videoSize().width() % 2, 0);
    QCOMPARE(panel_->videoSize().height() % 2, 0);
    view.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
  }

  void aVolumeOfAnotherLevelShowsAtItsOwn() {
    // A volume 40 dB above the live image's white level (as an ultrasound volume is beside a live
    // OCT source): at the display controls' absolute gain it would be all white; at its own level
    // it shows grey levels, and the gain slider still brightens it.
    auto& controls = window_->displayControls();
    VolumeView& view = panel_->view();
    QVERIFY(view.ownLevel());
    const double liveWhiteDb = controls.gainDb();
    auto volume = std::make_shared<cineflow::ui::VolumeData>();
    volume->nx = 64;
    volume->nz = 64;
    volume->ny = 24;
    volume->voxelMm = {0.2f, 0.2f, 0.2f};
    volume->number = 900;
    volume->voxels.resize(static_cast<std::size_t>(volume->nx) * volume->nz * volume->ny);
    std::mt19937 random(20261129);
    std::normal_distribution<float> speckle(static_cast<float>(liveWhiteDb + 40.0), 6.0f);
    for (float& voxel : volume->voxels) {
      voxel = speckle(random);
    }
    // The volume alone in the middle of the view: no slice plane drawn over it.
    panel_->findChild<QCheckBox*>(QStringLiteral("volume3dShowPlane"))->setChecked(false);
    panel_->setReviewVolume(volume);
    panel_->findChild<QComboBox*>(QStringLiteral("volume3dShowing"))->setCurrentIndex(1);
    QCOMPARE(view.volume(), std::shared_ptr<const cineflow::ui::VolumeData>(volume));
    QVERIFY(view.ownWhiteDb().has_value());
    view.setAngles(0, 0);  // face-on: the middle of the picture lies inside the volume
    const auto& top = cineflow::ui::colourTable(controls.colourMap());
    const int whiteGrey = qGray(top[3 * 255], top[3 * 255 + 1], top[3 * 255 + 2]);
    const auto middle = [&view, whiteGrey] {
      const QImage image = view.grabFramebuffer();
      const int side = std::min(image.width(), image.height()) / 5;
      return brightness(
          image, QRect(image.width() / 2 - side, image.height() / 2 - side, 2 * side, 2 * side),
          whiteGrey);
    };
    const Brightness own = middle();
    const QString said = QStringLiteral("white %1, black %2, mean %3");
    QVERIFY2(own.white < 0.5 && own.black < 0.5 && own.mean > 40 && own.mean < 215,
             qPrintable(said.arg(own.white).arg(own.black).arg(own.mean)));
    // The live image's absolute level, as the 3-D view had it, would have shown it all white.
    view.setGainDb(static_cast<float>(liveWhiteDb));
    view.setOwnLevel(false);
    const Brightness absolute = middle();
    QVERIFY2(absolute.white > 0.9,
             qPrintable(said.arg(absolute.white).arg(absolute.black).arg(absolute.mean)));
    view.setOwnLevel(true);
    // 10 dB more gain on the slider brightens it.
    const double relative = controls.relativeGainDb();
    controls.setGainDb(liveWhiteDb - 10.0);
    QCOMPARE(controls.relativeGainDb(), relative + 10.0);
    const Brightness brighter = middle();
    QVERIFY2(brighter.mean > own.mean + 10,
             qPrintable(said.arg(brighter.white).arg(brighter.black).arg(brighter.mean)));
    controls.setGainDb(liveWhiteDb);
    view.resetView();
    panel_->findChild<QComboBox*>(QStringLiteral("volume3dShowing"))->setCurrentIndex(0);
  }

  void cleanupTestCase() { window_.reset(); }

 private:
  std::unique_ptr<cineflow::ui::MainWindow> window_;
  QDockWidget* dock_ = nullptr;
  Volume3dPanel* panel_ = nullptr;
};

QTEST_MAIN(TestVolume3dGui)
#include "test_volume_3d_gui.moc"
