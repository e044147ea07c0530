// Volumes in the main window on the simulator (CPU backend, under Xvfb): the live MIP dock shows
// the newest volume's three projections; Buffer keeps it (the list and the capacity bar say so);
// the review shows its slices (the slider picks the slice, by sequence number) and its three MIPs
// with their shapes; Save writes a cineflow.volume/1 file (progress bar up to 100 %) that reads
// back through the plain HDF5 C API and marks the volume saved; File > Open volume lists a saved
// file again, read on the I/O thread (and refuses one that is not a volume); Auto-buffer keeps
// every volume; Discard and Discard all free them (once the operator agrees to lose unsaved ones)
// and leave the review grid on a placeholder. A measurement on a slice travels with its volume:
// the slice video (MP4, every slice) and the saved file's measurements_csv attribute.
#include <algorithm>

#include <QCheckBox>
#include <QFile>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "bridge/engine_controller.hpp"
#include "common/app_settings.hpp"
#include "common/gl_format.hpp"
#include "measure/measurement_list.hpp"
#include "measure/measurements_panel.hpp"
#include "message_box_answerer.hpp"
#include "mp4_decode.hpp"
#include "shell/main_window.hpp"
#include "sim_window.hpp"
#include "support/plain_hdf5.hpp"
#include "support/test_paths.hpp"
#include "view2d/image_view.hpp"
#include "volumes/mip_triptych.hpp"
#include "volumes/volume_controller.hpp"
#include "volumes/volume_review_panel.hpp"

using cineflow::ui::MainWindow;
using cineflow::ui::VolumeReviewPanel;

namespace {
constexpr int kTimeoutMs = 120'000;
}

class TestVolumeReview : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::test::useFreshSettings("test_volume_review"); }

 private slots:
  void initTestCase() {
    window_ = cineflow::test::openSimulatorWindow();
    QVERIFY(window_);
    QVERIFY(cineflow::test::waitForFirstVolume(*window_, kTimeoutMs));
    QCOMPARE(window_->controller().engine().framesPerVolume(), 16);
  }

  void liveMipsShowTheNewestVolume() {
    using Axis = cineflow::ui::MipTriptych::Axis;
    cineflow::ui::MipTriptych& mips = window_->liveMips();
    for (const Axis axis : {Axis::Y, Axis::Z, Axis::X}) {
      QTRY_VERIFY_WITH_TIMEOUT(mips.view(axis).framesDisplayed() > 0, 10'000);
    }
    const auto geometry = window_->controller().engine().cineloop().geometry();
    QCOMPARE(mips.view(Axis::Y).displayedFrame()->geometry, geometry);
    // En face: rows are the 16 slices, columns x; side view: columns are the depths.
    QCOMPARE(mips.view(Axis::Z).displayedFrame()->geometry.nz, 16);
    QCOMPARE(mips.view(Axis::Z).displayedFrame()->geometry.nx, geometry.nx);
    QCOMPARE(mips.view(Axis::X).displayedFrame()->geometry.nx, geometry.nz);
  }

  void bufferKeepsTheNewestVolume() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    QCOMPARE(panel.list().count(), 0);
    auto* buffer = panel.findChild<QPushButton*>(QStringLiteral("bufferButton"));
    QVERIFY(buffer);
    QTest::mouseClick(buffer, Qt::LeftButton);
    QCOMPARE(panel.list().count(), 1);
    QVERIFY2(panel.capacityText().contains(QStringLiteral("1 volume")),
             qPrintable(panel.capacityText()));
    QVERIFY(panel.list().item(0)->text().contains(QStringLiteral("unsaved")));
    QCOMPARE(window_->volumes().unsavedCount(), 1);
  }

  void reviewShowsSlicesAndProjections() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    QVERIFY(panel.selectedId().has_value());
    const auto volumes = window_->volumes().volumes();
    const auto& info = volumes.front().info;
    for (const int y : {0, 7, 15}) {
      panel.setSlice(y);
      QTRY_VERIFY_WITH_TIMEOUT(
          panel.view().displayedFrame() && panel.view().displayedFrame()->header.sequence ==
                                               info.sequence[static_cast<std::size_t>(y)],
          5000);
    }
    using Axis = cineflow::ui::MipTriptych::Axis;
    cineflow::ui::MipTriptych& mips = panel.mips();
    QTRY_VERIFY_WITH_TIMEOUT(mips.view(Axis::Z).displayedFrame() &&
                                 mips.view(Axis::Z).displayedFrame()->geometry.nz == 16,
                             5000);
    QCOMPARE(mips.view(Axis::Z).displayedFrame()->geometry.nx, info.shape.nx);
    QTRY_VERIFY_WITH_TIMEOUT(mips.view(Axis::X).displayedFrame() &&
                                 mips.view(Axis::X).displayedFrame()->geometry.nx == info.shape.nz,
                             5000);
    QTRY_VERIFY_WITH_TIMEOUT(mips.view(Axis::Y).displayedFrame() &&
                                 mips.view(Axis::Y).displayedFrame()->geometry ==
                                     window_->controller().engine().cineloop().geometry(),
                             5000);
    const QImage shot = window_->grab().toImage();
    const QString artefact =
        QString::fromStdString(cineflow::test::artefactPath("test_volume_review.png"));
    QVERIFY2(shot.save(artefact), qPrintable(artefact));
  }

  // A measurement on the reviewed volume's slice goes under that volume's name; the slice video
  // has every slice (decoded with FFmpeg's libraries); the saved file (next test) carries it.
  void measurementsAndSliceVideoFollowTheVolume() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    const auto volumes = window_->volumes().volumes();
    const auto& info = volumes.front().info;
    panel.setSlice(7);
    cineflow::ui::ImageView& slice = panel.view();
    QTRY_VERIFY_WITH_TIMEOUT(
        slice.displayedFrame() && slice.displayedFrame()->header.sequence == info.sequence[7],
        5000);
    const QString name = cineflow::ui::volumeViewName(info.number, QStringLiteral("slice"));
    QCOMPARE(slice.measurementViewName(), name);
    window_->measurementsPanel().toolAction(cineflow::ui::MeasureTool::Ellipse)->trigger();
    const QPoint from = slice.physicalToWidget(-4e-3, 20e-3).toPoint();
    const QPoint to = slice.physicalToWidget(4e-3, 26e-3).toPoint();
    QTest::mousePress(&slice, Qt::LeftButton, Qt::NoModifier, from);
    QTest::mouseMove(&slice, to);
    QTest::mouseRelease(&slice, Qt::LeftButton, Qt::NoModifier, to);
    window_->measurementsPanel().toolAction(cineflow::ui::MeasureTool::None)->trigger();
    const auto marks = window_->measurements().ofView(name);
    QCOMPARE(marks.size(), std::size_t{1});
    QCOMPARE(marks.front().frame, info.sequence[7]);
    QVERIFY(marks.front().valid);

    QVERIFY(folder_.isValid());
    const QString video = folder_.filePath(QStringLiteral("slices.mp4"));
    QSignalSpy finished(&panel, &VolumeReviewPanel::videoFinished);
    QVERIFY(panel.exportSlicesVideo(video, 8.0));
    QVERIFY(!panel.exportSlicesVideo(video, 8.0));  // one at a time
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60'000);
    QVERIFY2(finished.front().at(0).toBool(), qPrintable(finished.front().at(1).toString()));
    const cineflow::test::DecodedVideo decoded = cineflow::test::decodeMp4(video.toStdString());
    QVERIFY2(decoded.error.isEmpty(), qPrintable(decoded.error));
    QCOMPARE(decoded.frames, static_cast<int>(info.sequence.size()));
    QVERIFY(std::abs(decoded.seconds - decoded.frames / 8.0) < 0.2);
  }

  void saveWritesAFileAndMarksTheVolume() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    QVERIFY(folder_.isValid());
    const QString path = folder_.filePath(QStringLiteral("reviewed.h5"));
    auto* saving = panel.findChild<QProgressBar*>(QStringLiteral("savingBar"));
    QVERIFY(saving);
    QVERIFY(!saving->isVisible());
    int lastPercent = -1;
    connect(&window_->volumes(), &cineflow::ui::VolumeController::saveProgress, this,
            [&lastPercent](int percent) { lastPercent = percent; });
    panel.saveSelected(path);
    QVERIFY(saving->isVisible());  // at once: the save is queued
    QTRY_VERIFY_WITH_TIMEOUT(window_->volumes().unsavedCount() == 0, 30'000);
    // The bar followed the save (polled: the last value seen may be short of 100 %).
    QVERIFY2(lastPercent >= 0 && lastPercent <= 100, qPrintable(QString::number(lastPercent)));
    QTRY_VERIFY_WITH_TIMEOUT(!saving->isVisible(), 5000);
    QVERIFY(QFile::exists(path));
    QVERIFY(panel.list().item(0)->text().contains(QStringLiteral("saved")));
    const cineflow::test::PlainFile file(path.toStdString());
    QVERIFY(file.id >= 0);
    QCOMPARE(cineflow::test::readString(file.id, "schema"), std::string("cineflow.volume/1"));
    const auto shape = cineflow::test::shapeOf(file.id, "volume");
    QCOMPARE(shape.size(), std::size_t{3});
    QCOMPARE(shape[0], hsize_t{16});
    // The measurement made on its slice, as CSV.
    QVERIFY(QString::fromStdString(cineflow::test::readString(file.id, "measurements_csv"))
                .contains(QStringLiteral("Ellipse")));

    // File > Open volume puts the saved file back in the list, as saved, and selects it; the file
    // is read on the I/O thread.
    const int listed = panel.list().count();
    quint64 opened = 0;
    connect(&window_->volumes(), &cineflow::ui::VolumeController::volumeOpened, this,
            [&opened](quint64 id) { opened = id; });
    window_->volumes().openFile(path);
    QTRY_VERIFY_WITH_TIMEOUT(opened != 0 || !window_->lastError().isEmpty(), 30'000);
    QVERIFY2(opened != 0, qPrintable(window_->lastError()));
    QCOMPARE(panel.list().count(), listed + 1);
    QCOMPARE(panel.selectedId(), std::optional<std::uint64_t>(opened));
    QCOMPARE(window_->volumes().unsavedCount(), 0);
    // A file that is not a volume is refused with a message naming it.
    const QString bogus = folder_.filePath(QStringLiteral("bogus.h5"));
    QFile text(bogus);
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("not a volume\n");
    text.close();
    QString refusal;
    connect(&window_->volumes(), &cineflow::ui::VolumeController::messageReady, this,
            [&refusal](const QString& message, bool isError) {
              if (isError) {
                refusal = message;
              }
            });
    window_->volumes().openFile(bogus);
    QTRY_VERIFY_WITH_TIMEOUT(refusal.contains(QStringLiteral("bogus.h5")), 30'000);
    QCOMPARE(panel.list().count(), listed + 1);
  }

  void autoBufferKeepsEveryVolume() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    auto* autoBuffer = panel.findChild<QCheckBox*>(QStringLiteral("autoBufferBox"));
    QVERIFY(autoBuffer);
    const int listed = panel.list().count();
    autoBuffer->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(window_->volumes().unsavedCount() >= 2, kTimeoutMs);
    autoBuffer->setChecked(false);
    // The list follows the store at the controller's next poll.
    QTRY_VERIFY_WITH_TIMEOUT(
        panel.list().count() == static_cast<int>(window_->volumes().volumes().size()), 5000);
    QVERIFY(panel.list().count() >= listed + 2);

    // Reopening the source starts its volume numbers again: the list still tells every volume
    // apart (the time each came in), and shows two of them at once however the dock is split.
    window_->controller().open(QStringLiteral("sim"));
    QTRY_VERIFY_WITH_TIMEOUT(window_->controller().isRunning(), kTimeoutMs);
    const int before = panel.list().count();
    QTest::qWait(1100);  // a second later on the clock than the volumes already listed
    QVERIFY(cineflow::test::waitForFirstVolume(*window_, kTimeoutMs));
    QVERIFY(window_->volumes().bufferLatest());
    QTRY_COMPARE_WITH_TIMEOUT(panel.list().count(), before + 1, 5000);
    QStringList texts;
    for (int row = 0; row < panel.list().count(); ++row) {
      texts << panel.list().item(row)->text();
    }
    qInfo("listed: %s", qPrintable(texts.join(QStringLiteral(" | "))));
    QCOMPARE(texts.removeDuplicates(), 0);
    QVERIFY(texts.back().contains(QLatin1Char('\n')));
    panel.list().resize(panel.list().width(), panel.list().minimumHeight());
    const int rowHeight = panel.list().visualItemRect(panel.list().item(0)).height();
    QVERIFY2(panel.list().minimumHeight() >= 2 * rowHeight,
             qPrintable(QStringLiteral("minimum %1 px, a row %2 px")
                            .arg(panel.list().minimumHeight())
                            .arg(rowHeight)));
  }

  void discardFreesVolumes() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    const std::size_t before = window_->volumes().volumes().size();
    QVERIFY(panel.selectedId().has_value());
    {
      // The selected volume (the file opened above) is saved: it goes without a question; the
      // auto-buffered ones are not, so Discard all asks first (test_volume_discard checks the
      // questions).
      const auto volumes = window_->volumes().volumes();
      QVERIFY(std::any_of(volumes.begin(), volumes.end(), [&panel](const auto& volume) {
        return volume.id == *panel.selectedId() && volume.saved;
      }));
      cineflow::test::MessageBoxAnswerer answer(QMessageBox::Discard);
      panel.discardSelected();
      QVERIFY(!answer.asked());
    }
    QCOMPARE(window_->volumes().volumes().size(), before - 1);
    QCOMPARE(static_cast<std::size_t>(panel.list().count()), before - 1);
    {
      cineflow::test::MessageBoxAnswerer answer(QMessageBox::Discard);
      panel.discardAll();
      QVERIFY(answer.asked());
    }
    QCOMPARE(panel.list().count(), 0);
    QVERIFY(panel.mips().showsPlaceholder());
    QCOMPARE(window_->volumes().store().used(), std::size_t{0});
  }

  void cleanupTestCase() { window_.reset(); }

 private:
  std::unique_ptr<MainWindow> window_;
  QTemporaryDir folder_;
};

QTEST_MAIN(TestVolumeReview)
#include "test_volume_review.moc"
