// What the operator tripped over in the Volumes dock (simulator, CPU backend, under Xvfb):
// Discard and Discard all ask before an unsaved volume is lost, naming how many and how many MB,
// and Cancel keeps them; a saved volume goes without a question; "Don't ask again" holds for the
// rest of the session. Once every volume is gone the review grid shows a placeholder, not the
// discarded volume. Switching the source clears the Live MIPs (they showed the simulator's volume
// with the file's gain), and the next source's volumes show there again. Volumes are named by the
// engine's number (with their modality) in the list, the save message and the file name alike.
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include "bridge/engine_controller.hpp"
#include "message_box_answerer.hpp"
#include "shell/main_window.hpp"
#include "sim_window.hpp"
#include "support/rf_file_fixture.hpp"
#include "view2d/image_view.hpp"
#include "volumes/mip_triptych.hpp"
#include "volumes/volume_controller.hpp"
#include "volumes/volume_review_panel.hpp"

using cineflow::test::MessageBoxAnswerer;
using cineflow::ui::MainWindow;
using cineflow::ui::VolumeReviewPanel;
using Axis = cineflow::ui::MipTriptych::Axis;

namespace {
constexpr int kTimeoutMs = 120'000;

QString megabytesOf(std::size_t bytes) {
  return QStringLiteral("%1 MB").arg(static_cast<double>(bytes) / 1e6, 0, 'f', 1);
}
}  // namespace

class TestVolumeDiscard : public QObject {
  Q_OBJECT

 public:
  static void initMain() { cineflow::test::useFreshSettings("test_volume_discard"); }

 private slots:
  void initTestCase() {
    QVERIFY(folder_.isValid());
    window_ = cineflow::test::openSimulatorWindow();
    QVERIFY(window_);
    // A few volumes first, so that store ids (from 1) and volume numbers differ.
    QTRY_VERIFY_WITH_TIMEOUT(
        window_->controller().engine().stats().volumes >= 3 || !window_->lastError().isEmpty(),
        kTimeoutMs);
    QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(!window_->liveMips().showsPlaceholder(), kTimeoutMs);
  }

  void emptyReviewShowsAPlaceholder() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    QCOMPARE(panel.list().count(), 0);
    QVERIFY(panel.mips().showsPlaceholder());
    QVERIFY(!panel.view().isVisible());
  }

  void oneNumberEverywhere() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    QVERIFY(window_->volumes().bufferLatest());
    QCOMPARE(panel.list().count(), 1);
    QVERIFY(!window_->volumes().volumes().empty());
    const auto volume = window_->volumes().volumes().front();
    QVERIFY2(volume.info.number != volume.id, "the test needs a number other than the store id");
    const QString number = QString::number(volume.info.number);
    QVERIFY(panel.list().item(0)->text().startsWith(QStringLiteral("Ultrasound volume ") + number +
                                                    " "));
    QString saved;
    connect(&window_->volumes(), &cineflow::ui::VolumeController::messageReady, this,
            [&saved](const QString& message) {
              if (message.startsWith(QStringLiteral("Saved "))) {
                saved = message;
              }
            });
    const QString path = folder_.filePath(
        QStringLiteral("ultrasound_volume_%1.h5").arg(volume.info.number, 6, 10, QLatin1Char('0')));
    panel.saveAll(folder_.path());
    QTRY_VERIFY_WITH_TIMEOUT(!saved.isEmpty(), 30'000);
    QCOMPARE(saved, QStringLiteral("Saved volume %1 to %2").arg(number, path));
  }

  void savedVolumesGoWithoutAQuestion() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    QCOMPARE(window_->volumes().unsavedCount(), 0);
    MessageBoxAnswerer answer(QMessageBox::Cancel);
    clickButton("discardButton");
    QVERIFY(!answer.asked());
    QCOMPARE(panel.list().count(), 0);
    QVERIFY(panel.mips().showsPlaceholder());
  }

  void discardAllAsksNamingCountAndSizeAndCancelKeepsThem() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    bufferUnsaved(3);
    const auto volumes = window_->volumes().volumes();
    std::size_t bytes = 0;
    for (const auto& volume : volumes) {
      bytes += volume.bytes;
    }
    {
      MessageBoxAnswerer answer(QMessageBox::Cancel);
      clickButton("discardAllButton");
      QVERIFY(answer.asked());
      QCOMPARE(answer.text(), QStringLiteral("Discard %1 unsaved volumes (%2)?")
                                  .arg(volumes.size())
                                  .arg(megabytesOf(bytes)));
    }
    QCOMPARE(window_->volumes().volumes().size(), volumes.size());
    QCOMPARE(panel.list().count(), static_cast<int>(volumes.size()));
  }

  void discardAsksForAnUnsavedVolume() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    const int listed = panel.list().count();
    QVERIFY(!window_->volumes().volumes().empty());  // Cancel kept them
    QVERIFY(panel.select(window_->volumes().volumes().front().id));
    const auto selected = window_->volumes().volumes().front();
    {
      MessageBoxAnswerer answer(QMessageBox::Cancel);
      clickButton("discardButton");
      QVERIFY(answer.asked());
      QCOMPARE(answer.text(), QStringLiteral("Discard unsaved volume %1 (%2)?")
                                  .arg(selected.info.number)
                                  .arg(megabytesOf(selected.bytes)));
    }
    QCOMPARE(panel.list().count(), listed);
    {
      MessageBoxAnswerer answer(QMessageBox::Discard);
      clickButton("discardButton");
      QVERIFY(answer.asked());
    }
    QCOMPARE(panel.list().count(), listed - 1);
  }

  void dontAskAgainHoldsAndDiscardAllClearsTheReview() {
    VolumeReviewPanel& panel = window_->volumeReviewPanel();
    QVERIFY(panel.list().count() > 0);
    QVERIFY(!panel.mips().showsPlaceholder());
    QVERIFY(panel.view().isVisible());
    {
      MessageBoxAnswerer answer(QMessageBox::Discard, true);
      clickButton("discardAllButton");
      QVERIFY(answer.asked());
    }
    QCOMPARE(panel.list().count(), 0);
    QCOMPARE(window_->volumes().store().used(), std::size_t{0});
    // Nothing of the discarded volumes stays on show.
    QVERIFY(panel.mips().showsPlaceholder());
    QVERIFY(!panel.view().isVisible());
    QVERIFY(!panel.mips().view(Axis::Z).isVisible());
    // Not asked again in this session.
    bufferUnsaved(1);
    MessageBoxAnswerer answer(QMessageBox::Cancel);
    clickButton("discardButton");
    QVERIFY(!answer.asked());
    QCOMPARE(panel.list().count(), 0);
  }

  void liveMipsClearWhenTheSourceChanges() {
    cineflow::ui::MipTriptych& live = window_->liveMips();
    QVERIFY(!live.showsPlaceholder());
    const QString path = folder_.filePath(QStringLiteral("recording.h5"));
    cineflow::test::writeRfFile(path.toStdString(), {});
    // Checked as the source opens: before any volume of the new source could be shown.
    bool clearedOnOpen = false;
    connect(&window_->controller(), &cineflow::ui::EngineController::sourceOpened, this,
            [&clearedOnOpen, &live] {
              clearedOnOpen = live.showsPlaceholder() && !live.view(Axis::Y).isVisible();
            });
    window_->openSource(path);
    QTRY_VERIFY_WITH_TIMEOUT(clearedOnOpen || !window_->lastError().isEmpty(), 30'000);
    QVERIFY2(clearedOnOpen, qPrintable(window_->lastError()));
    QCOMPARE(live.placeholderText(), QStringLiteral("No volume from this source yet"));
    // Back on the simulator, its first volume (numbered from 0 again) is shown.
    window_->openSource(QStringLiteral("sim"));
    QTRY_VERIFY_WITH_TIMEOUT(!live.showsPlaceholder() || !window_->lastError().isEmpty(),
                             kTimeoutMs);
    QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));
    QVERIFY(live.view(Axis::Y).isVisible());
  }

  void cleanupTestCase() { window_.reset(); }

 private:
  void clickButton(const char* name) {
    auto* button = window_->volumeReviewPanel().findChild<QPushButton*>(QLatin1String(name));
    QVERIFY(button);
    QVERIFY(button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
  }

  // Buffers `count` more (unsaved) volumes, each a new one from the engine.
  void bufferUnsaved(int count) {
    for (int i = 0; i < count; ++i) {
      const std::uint64_t before = window_->volumes().latestVolumeNumber();
      QTRY_VERIFY_WITH_TIMEOUT(window_->volumes().latestVolumeNumber() != before, kTimeoutMs);
      QVERIFY(window_->volumes().bufferLatest());
    }
  }

  std::unique_ptr<MainWindow> window_;
  QTemporaryDir folder_;
};

QTEST_MAIN(TestVolumeDiscard)
#include "test_volume_discard.moc"
